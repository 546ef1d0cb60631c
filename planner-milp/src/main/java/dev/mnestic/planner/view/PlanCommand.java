package dev.mnestic.planner.view;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.select.MilpSelector;
import dev.mnestic.planner.select.Plan;
import dev.mnestic.planner.select.PlanningException;
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
 * {@code plan WORKLOAD [--output text|json|dot] [--solver CP_SAT|SCIP|CBC] [--time-limit SECONDS]}:
 * plans a workload file and prints the {@link PlanView}. Exit status 0, 1 for a workload that
 * cannot be read or planned (the message names the file, line and column), 2 for bad usage.
 */
public final class PlanCommand {
  private PlanCommand() {
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  public static int run(String[] args, PrintStream out, PrintStream err) {
    String file = null;
    String output = "text";
    String solver = "CP_SAT";
    Duration limit = Duration.ofSeconds(60);
    for (int i = 0; i < args.length; i++) {
      final String a = args[i];
      if ((a.equals("--output") || a.equals("--solver") || a.equals("--time-limit")) && i + 1 == args.length) {
        return usage(err, a + " needs a value");
      }
      switch (a) {
        case "--output" -> output = args[++i];
        case "--solver" -> solver = args[++i];
        case "--time-limit" -> {
          try {
            limit = Duration.ofSeconds(Long.parseLong(args[++i]));
          } catch (NumberFormatException e) {
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
      final PlanSpace space = Planner.space(workload, ParameterLists.DEFAULT);
      final Plan plan = new MilpSelector(space, solver, limit).solve();
      final double alone = TreePlans.costWithoutSharing(space);
      final PlanView view = new PlanView(space, plan, alone);
      out.print(output.equals("text") ? view.text() : output.equals("json") ? view.json() + "\n" : view.dot());
      return 0;
    } catch (PlanningException e) {
      err.println("mnestic plan: " + file + ": " + e.getMessage());
      return 1;
    }
  }

  private static int usage(PrintStream err, String problem) {
    err.println("mnestic plan: " + problem);
    err.println("usage: mnestic plan WORKLOAD [--output text|json|dot] [--solver CP_SAT|SCIP|CBC] "
        + "[--time-limit SECONDS]");
    return 2;
  }
}
