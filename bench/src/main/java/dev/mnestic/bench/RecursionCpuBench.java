package dev.mnestic.bench;

import dev.mnestic.datalog.Engine;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Where one of {@link RecursionBench}'s workloads spends mnestic's resources, measured in what
 * a busy machine does not change much: per run of the workload's CozoScript (through JDBC, as
 * RecursionBench runs it, over the same rows), the process's CPU time (the statement runs on
 * the driver's own thread, the round's helpers on theirs, beside the collector and the JIT),
 * the bytes every thread allocated, and the collectors' time (their MXBeans' collection time); beside them the wall time, which load does change.
 * The process's CPU comes in the system's 10 ms ticks; the Java threads' CPU (every live
 * thread's own CPU time, summed: the statement's, the helpers', not the collector's or the
 * JIT's) to the nanosecond.
 * Medians of the timed runs, after the warm-ups.
 *
 * <p>Reproduce: {@code bench/run RecursionCpuBench [--warmups N] [--runs N] [--explain]
 * WORKLOAD...} (RecursionBench's workloads, e.g. {@code reach samegen triangles}; by default 2
 * warm-ups and 5 timed runs; {@code --explain} prints each script's {@code ::explain} to
 * stderr first).
 */
public final class RecursionCpuBench {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final com.sun.management.OperatingSystemMXBean PROCESS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private RecursionCpuBench() {
  }

  public static void main(String[] args) throws Exception {
    int warmups = 2;
    int runs = 5;
    boolean explain = false;
    final List<String> workloads = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--warmups" -> warmups = Integer.parseInt(args[++i]);
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--explain" -> explain = true;
        default -> workloads.add(args[i]);
      }
    }
    if (workloads.isEmpty() || runs < 1) {
      throw new IllegalArgumentException("usage: RecursionCpuBench [--warmups N] [--runs N]"
          + " [--explain] WORKLOAD... (RecursionBench's workloads), at least one run");
    }
    System.out.printf(Locale.ROOT, "medians of %d runs after %d warm-ups; CPU and wall in ms,"
        + " allocated in MB (every thread), collectors' time in ms%n%n", runs, warmups);
    System.out.println("| workload | answer | wall | process CPU | Java threads' CPU | allocated"
        + " | collectors' time |");
    System.out.println("|---|---|---|---|---|---|---|");
    for (String spec : workloads) {
      final RecursionBench.Workload w = RecursionBench.workload(spec);
      final String db = "jdbc:mnestic:db=mem:cpu-" + UUID.randomUUID();
      try (Connection datalog = DriverManager.getConnection(db + ";lang=datalog")) {
        final Engine engine = new Engine(datalog);
        for (RecursionBench.Relation r : w.relations()) {
          engine.run(":create " + r.name() + " " + r.schema(), Map.of());
          engine.run(RecursionBench.putScript(r), Map.of("rows", r.rows()));
        }
        if (explain) {
          for (List<Object> row : engine.run("::explain { " + w.datalog() + " }", Map.of())
              .rows()) {
            System.err.println(row);
          }
        }
        final long[][] measured = new long[5][runs];
        List<String> answer = null;
        for (int run = -warmups; run < runs; run++) {
          System.gc();
          final long gc = gcMillis();
          final long allocated = THREADS.getTotalThreadAllocatedBytes();
          final long process = PROCESS.getProcessCpuTime();
          final long threads = javaThreadsCpu();
          final long start = System.nanoTime();
          final List<String> got = RecursionBench.jdbc(datalog, w.datalog(), 600);
          final long[] values = {System.nanoTime() - start,
              PROCESS.getProcessCpuTime() - process, javaThreadsCpu() - threads,
              THREADS.getTotalThreadAllocatedBytes() - allocated, gcMillis() - gc};
          if (answer != null && !answer.equals(got)) {
            throw new IllegalStateException(w.label() + ": answered " + got + ", then " + answer);
          }
          answer = got;
          if (run >= 0) {
            for (int k = 0; k < values.length; k++) {
              measured[k][run] = values[k];
            }
          }
        }
        final long[] m = Arrays.stream(measured).mapToLong(RecursionCpuBench::median).toArray();
        System.out.printf(Locale.ROOT, "| %s | %s | %.1f | %.1f | %.2f | %.1f | %d |%n",
            w.label(), String.join(", ", answer), m[0] / 1e6, m[1] / 1e6, m[2] / 1e6, m[3] / 1e6,
            m[4]);
      }
    }
  }

  /** The CPU time every live Java thread has used, summed, in nanoseconds. */
  private static long javaThreadsCpu() {
    long nanos = 0;
    for (long id : THREADS.getAllThreadIds()) {
      nanos += Math.max(0, THREADS.getThreadCpuTime(id));
    }
    return nanos;
  }

  private static long gcMillis() {
    long ms = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ms += Math.max(0, gc.getCollectionTime());
    }
    return ms;
  }

  private static long median(long[] values) {
    final long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
