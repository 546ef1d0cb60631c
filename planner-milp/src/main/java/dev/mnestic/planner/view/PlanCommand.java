package dev.mnestic.planner.view;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.select.PlanningException;
import dev.mnestic.planner.select.Search;
import dev.mnestic.planner.select.Solver;
import dev.mnestic.planner.select.Ticker;
import dev.mnestic.planner.select.TreePlans;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.planner.workload.WorkloadException;
import dev.mnestic.planner.workload.WorkloadParser;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code plan WORKLOAD [--memo] [--output text|json|dot] [--solver CP_SAT|SCIP|CBC]
 * [--time-limit SECONDS | --total SECONDS [--full]]}: plans a workload file and prints the
 * {@link PlanView}: as text, the
 * memo's size and the chosen plan with its candidates' ε and δ, its summaries, readers and
 * costs, the MILP solved per part with its proven bound and what each stage pruned
 * ({@link PlanView#memoSize}, {@link PlanView#chosen}), with {@code --memo} every group,
 * candidate, edge and pruned candidate before them ({@link PlanView#text}). Exit status 0, 1 for a workload that
 * cannot be read or planned (the message names the file, line and column), 2 for bad usage.
 *
 * <p>{@code --time-limit} bounds Stage 3 alone. {@code --total} bounds the whole command, on
 * the wall clock from the process's start (for {@code bin/mnestic}, the script's start, as it
 * {@code exec}s the JVM) to the view written: the JVM's start, reading the workload, the plan
 * space and Stage 3 ({@link Planner.Options#withTotalLimit}, given what is left less the view's
 * slice, reserved up front, {@link #VIEW_PER_PARSE}: a first plan from each query's own ways to
 * compute, then the plan with sharing if it is done in time and cheaper, the cost without
 * sharing beside it) and the view, each cut at its deadline.
 * The view then writes the chosen plan first and the memo after it as far as time allows
 * ({@link PlanView#PlanView(dev.mnestic.planner.physical.PlanSpace, dev.mnestic.planner.select.Plan,
 * double, java.util.function.BooleanSupplier)}); {@code --full} writes it whole however late.
 * A last line (on stderr for JSON and dot) says where the time went and what was cut.
 */
public final class PlanCommand {
  static final String USAGE = "usage: mnestic plan WORKLOAD [--memo] [--output text|json|dot]"
      + " [--solver CP_SAT|SCIP|CBC] [--time-limit SECONDS | --total SECONDS [--full]]\n"
      + "  prints the memo's size and the chosen plan; --memo also every group, candidate, edge\n"
      + "  and pruned alternative; json and dot always carry the whole memo / the chosen DAG\n"
      + "  --time-limit bounds the MILP's search alone; --total (seconds, fractions allowed) the\n"
      + "  whole command from its start, view included: a view out of time writes the chosen plan\n"
      + "  and as much of the memo as fits, --full all of it";
  /**
   * Under {@code --total}, the view's slice of the limit, reserved before planning: writing the
   * chosen plan takes about this many times what reading and parsing the workload took in the
   * same process (both walk every query once, cold; the chosen plan of 1,664 queries took 1.7-3.5
   * times as long at load 3-6), at least a {@link #VIEW_LAST}th of the limit and at most half of
   * what is left.
   */
  private static final int VIEW_PER_PARSE = 3;
  private static final int VIEW_LAST = 20;
  /**
   * Under {@code --total}, what the view leaves after the memo for writing its text out and the
   * JVM's exit: a 25th of the limit, 200 ms of 5 s (with a tenth of the view's slice, 25-40 ms,
   * runs with two busy loops beside them ended 40 ms past 5 s by their own clock and the process
   * 70 ms after that, session 20).
   */
  private static final int VIEW_END = 25;
  private PlanCommand() {
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs the command as the process's own: a {@code --total} limit counts from the process's
   * start.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    final long now = System.nanoTime();
    final long nowMillis = System.currentTimeMillis();
    final long process = ProcessHandle.current().info().startInstant().map(i -> i.toEpochMilli()).orElse(nowMillis);
    final long jvm = ManagementFactory.getRuntimeMXBean().getStartTime();
    return run(args, out, err, Ticker.SYSTEM, now - (nowMillis - process) * 1_000_000L,
        now - (nowMillis - Math.max(jvm, process)) * 1_000_000L, planned -> { });
  }

  /**
   * Runs the command with a {@code --total} limit counted from {@code start} on {@code ticker}
   * ({@code jvm}: when the JVM started, for the report), and gives {@code seen} what it planned.
   */
  static int run(String[] args, PrintStream out, PrintStream err, Ticker ticker, long start, long jvm,
      Consumer<Planner.Planned> seen) {
    final long commandStart = ticker.read();
    String file = null;
    String output = "text";
    Planner.Options options = Planner.Options.defaults().withTicker(ticker);
    boolean memo = false;
    Duration total = null;
    boolean full = false;
    boolean selectionLimit = false;
    for (int i = 0; i < args.length; i++) {
      final String a = args[i];
      if ((a.equals("--output") || a.equals("--solver") || a.equals("--time-limit") || a.equals("--total"))
          && i + 1 == args.length) {
        return usage(err, a + " needs a value");
      }
      switch (a) {
        case "-h", "--help" -> {
          out.println(USAGE);
          return 0;
        }
        case "--memo" -> memo = true;
        case "--full" -> full = true;
        case "--total" -> {
          try {
            final double seconds = Double.parseDouble(args[++i]);
            if (!(seconds > 0) || seconds > 1e6) {
              throw new NumberFormatException();
            }
            total = Duration.ofNanos(Math.round(seconds * 1e9));
          } catch (NumberFormatException e) {
            return usage(err, "--total takes a positive number of seconds, not " + args[i]);
          }
        }
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
            selectionLimit = true;
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
    if (total != null && selectionLimit) {
      return usage(err, "--time-limit bounds the MILP's search alone and --total the whole command: give one");
    }
    if (full && total == null) {
      return usage(err, "--full goes with --total (without it the view is always whole)");
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
      final long parsed = ticker.read();
      final long deadline = total == null ? Long.MAX_VALUE : start + total.toNanos();
      // The view's slice, reserved up front: writing the chosen plan costs about VIEW_PER_PARSE
      // times what reading and parsing the workload did, in this process at this load.
      final long viewFrom = total == null ? Long.MAX_VALUE : deadline - Math.min(Math.max(0, deadline - parsed) / 2,
          Math.max(total.toNanos() / VIEW_LAST, VIEW_PER_PARSE * (parsed - commandStart)));
      if (total != null) {
        options = options.withTotalLimit(Duration.ofNanos(Math.max(0, viewFrom - parsed)));
      }
      final Planner.Planned planned = Planner.plan(workload, options);
      seen.accept(planned);
      final long plannedAt = ticker.read();
      // Worked out beside the plan with sharing under a total limit; else here, and with --full (the
      // planning ends as without it) or no limit whole, else until the view's slice starts.
      final BooleanSupplier late = total == null || full ? () -> false : () -> ticker.read() >= viewFrom;
      final double alone = Double.isNaN(planned.withoutSharing())
          ? withoutSharing(planned.space(), late) : planned.withoutSharing();
      final long aloneAt = ticker.read();
      // The memo up to a tenth of the view's slice, or a VIEW_ENDth of the limit, before the
      // deadline: the rest is for writing it out and the JVM's exit, and for text, less what
      // making the chosen plan's text took (writing it takes as long).
      final AtomicLong memoUntil = total == null ? new AtomicLong(Long.MAX_VALUE)
          : new AtomicLong(deadline - Math.max(Math.max(0, deadline - viewFrom) / 10, total.toNanos() / VIEW_END));
      final PlanView view = new PlanView(planned.space(), planned.plan(), alone,
          total == null || full ? null : () -> ticker.read() >= memoUntil.get());
      // The chosen plan first, so the memo's size (its rejected edges counted) takes what is left.
      final String text;
      if (output.equals("json")) {
        text = view.json() + "\n";
      } else if (output.equals("dot")) {
        text = view.dot();
      } else if (memo) {
        text = view.text();
      } else {
        final long before = ticker.read();
        final String chosen = view.chosen();
        memoUntil.addAndGet(before - ticker.read());
        text = view.memoSize() + chosen;
      }
      out.print(text);
      out.flush();
      if (total != null) {
        final long end = ticker.read();
        final Search search = planned.plan().search();
        final String cut = search.phases().stream().filter(Search.Phase::cut).map(Search.Phase::name)
            .collect(Collectors.joining(", "));
        final String report = String.format(Locale.ROOT, "total %.3f s from the process's start, ended at %.3f s:"
            + " process start to JVM %d ms, JVM start to the command %d ms, reading the workload %d ms,"
            + " planning %d ms, without sharing %d ms after it%s, view %d ms (%d ms reserved);"
            + " cut short: %s; cost %s, bound %s (gap %.2f%%)",
            total.toNanos() / 1e9, (end - start) / 1e9, millis(jvm - start), millis(commandStart - jvm),
            millis(parsed - commandStart), millis(plannedAt - parsed), millis(aloneAt - plannedAt),
            Double.isNaN(alone) ? " (not finished)" : "", millis(end - aloneAt),
            millis(deadline - viewFrom), cutShort(cut, Double.isNaN(alone), view.cut()),
            num(planned.plan().cost()), num(planned.plan().bound()), 100 * (planned.plan().cost() > 0
                ? Math.max(0, planned.plan().cost() - planned.plan().bound()) / planned.plan().cost() : 0));
        (output.equals("text") ? out : err).println(report);
      }
      return 0;
    } catch (PlanningException e) {
      err.println("mnestic plan: " + file + ": " + e.getMessage());
      return 1;
    }
  }

  /**
   * The cost without sharing ({@link TreePlans#costWithoutSharing(PlanSpace, BooleanSupplier)})
   * until {@code late}; NaN when cut, or when some query has no plan (the selection said so).
   */
  private static double withoutSharing(PlanSpace space, BooleanSupplier late) {
    try {
      return TreePlans.costWithoutSharing(space, late);
    } catch (PlanningException e) {
      return Double.NaN;
    }
  }

  /** The phases cut short, then the cost without sharing and the view's memo when they were. */
  private static String cutShort(String phases, boolean alone, boolean view) {
    final List<String> cut = new ArrayList<>();
    if (!phases.isEmpty()) {
      cut.add(phases);
    }
    if (alone) {
      cut.add("without sharing");
    }
    if (view) {
      cut.add("the view's memo");
    }
    return cut.isEmpty() ? "nothing" : String.join(", ", cut);
  }

  private static long millis(long nanos) {
    return nanos / 1_000_000;
  }

  private static String num(double d) {
    return String.format(Locale.ROOT, "%.6g", d);
  }

  private static int usage(PrintStream err, String problem) {
    err.println("mnestic plan: " + problem);
    err.println(USAGE);
    return 2;
  }
}
