package dev.mnestic.planner.view;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.select.PlanningException;
import dev.mnestic.planner.select.Solver;
import dev.mnestic.planner.select.TreePlans;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.planner.workload.WorkloadException;
import dev.mnestic.planner.workload.WorkloadParser;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code plan WORKLOAD [--memo] [--output text|json|dot] [--solver CP_SAT|SCIP|CBC]
 * [--time-limit SECONDS]}: plans a workload file and prints the {@link PlanView}: as text, the
 * memo's size and the chosen plan with its candidates' ε and δ, its summaries, readers and
 * costs, the MILP solved per part with its proven bound and what each stage pruned
 * ({@link PlanView#memoSize}, {@link PlanView#chosen}), with {@code --memo} every group,
 * candidate, edge and pruned candidate before them ({@link PlanView#text}). Exit status 0, 1 for a workload that
 * cannot be read or planned (the message names the file, line and column), 2 for bad usage.
 */
public final class PlanCommand {
  static final String USAGE = "usage: mnestic plan WORKLOAD [--memo] [--output text|json|dot]"
      + " [--solver CP_SAT|SCIP|CBC] [--time-limit SECONDS]\n"
      + "  prints the memo's size and the chosen plan; --memo also every group, candidate, edge\n"
      + "  and pruned alternative; json and dot always carry the whole memo / the chosen DAG";
  private PlanCommand() {
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  public static int run(String[] args, PrintStream out, PrintStream err) {
    String file = null;
    String output = "text";
    Planner.Options options = Planner.Options.defaults();
    boolean memo = false;
    for (int i = 0; i < args.length; i++) {
      final String a = args[i];
      if ((a.equals("--output") || a.equals("--solver") || a.equals("--time-limit")) && i + 1 == args.length) {
        return usage(err, a + " needs a value");
      }
      switch (a) {
        case "-h", "--help" -> {
          out.println(USAGE);
          return 0;
        }
        case "--memo" -> memo = true;
        case "--output" -> output = args[++i];
        case "--solver" -> {
          try {
            options = options.withSolver(Solver.of(args[++i]));
          } catch (IllegalArgumentException e) {
            return usage(err, "--solver: " + e.getMessage());
          }
        }
        case "--time-limit" -> {
          try {
            options = options.withSelectionLimit(Duration.ofSeconds(Long.parseLong(args[++i])));
          } catch (IllegalArgumentException e) {
            return usage(err, "--time-limit takes whole seconds, not " + args[i]);
          }
        }
        default -> {
          if (a.startsWith("--") || file != null) {
            return usage(err, "unexpected argument " + a);
          }
          file = a;
        }
      }
    }
    if (file == null) {
      return usage(err, "missing WORKLOAD");
    }
    if (!output.equals("text") && !output.equals("json") && !output.equals("dot")) {
      return usage(err, "--output is text, json or dot, not " + output);
    }
    final Workload workload;
    try {
      workload = WorkloadParser.parse(Files.readString(Path.of(file), StandardCharsets.UTF_8));
    } catch (IOException e) {
      err.println("mnestic plan: cannot read " + file + ": " + e.getMessage());
      return 1;
    } catch (WorkloadException e) {
      err.println(file + ":" + e.getMessage());
      return 1;
    }
    try {
      final Planner.Planned planned = Planner.plan(workload, options);
      final double alone = TreePlans.costWithoutSharing(planned.space());
      final PlanView view = new PlanView(planned.space(), planned.plan(), alone);
      out.print(output.equals("json") ? view.json() + "\n" : output.equals("dot") ? view.dot()
          : memo ? view.text() : view.memoSize() + view.chosen());
      return 0;
    } catch (PlanningException e) {
      err.println("mnestic plan: " + file + ": " + e.getMessage());
      return 1;
    }
  }

  private static int usage(PrintStream err, String problem) {
    err.println("mnestic plan: " + problem);
    err.println(USAGE);
    return 2;
  }
}
