package dev.mnestic.bench;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The CPU a run of RecursionBench's chain costs (the transitive closure of a chain of
 * {@code NODES} nodes through a {@code lang=datalog} connection), beside its wall time: the
 * process's CPU (every thread's, the collector's and the JIT's too) around each run, medians
 * after warm-ups, which a busy machine's load changes far less than the wall time.
 * {@code bench/run ChainCpuBench 1000 5 20}; with {@code miss} each run's text differs (leading
 * newlines), so nothing kept for a block is reused: planning and code generation included.
 */
public final class ChainCpuBench {
  private ChainCpuBench() {
  }

  public static void main(String[] args) throws Exception {
    final int n = Integer.parseInt(args[0]);
    final int warmups = Integer.parseInt(args[1]);
    final int runs = Integer.parseInt(args[2]);
    final boolean miss = args.length > 3 && args[3].equals("miss");
    final com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    final String script = "tc[a, b] := *edge[a, b]\ntc[a, c] := tc[a, b], *edge[b, c]\n"
        + "?[count(a)] := tc[a, b]";
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=mem:chain-cpu;lang=datalog");
         Statement s = c.createStatement()) {
      s.execute(":create edge {src: Int, dst: Int}");
      final StringBuilder rows = new StringBuilder();
      for (int i = 0; i < n - 1; i++) {
        rows.append(i == 0 ? "" : ", ").append('[').append(i).append(", ").append(i + 1)
            .append(']');
      }
      s.execute("?[src, dst] <- [" + rows + "] :put edge {src, dst}");
      final List<Double> wall = new ArrayList<>();
      final List<Double> cpu = new ArrayList<>();
      for (int r = 0; r < warmups + runs; r++) {
        final String text = (miss ? "\n".repeat(1 + r % 40) : "") + script;
        final long cpuStart = os.getProcessCpuTime();
        final long start = System.nanoTime();
        try (ResultSet rs = s.executeQuery(text)) {
          rs.next();
          if (((Number) rs.getObject(1)).longValue() != (long) n * (n - 1) / 2) {
            throw new IllegalStateException("answered " + rs.getObject(1));
          }
        }
        if (r >= warmups) {
          wall.add((System.nanoTime() - start) / 1e6);
          cpu.add((os.getProcessCpuTime() - cpuStart) / 1e6);
        }
      }
      Collections.sort(wall);
      Collections.sort(cpu);
      System.out.printf(Locale.ROOT, "chain of %d nodes%s: wall median %.1f ms (min %.1f),"
          + " process CPU median %.1f ms (min %.1f), %d runs after %d warm-ups%n", n,
          miss ? ", each run's text new" : "", wall.get(wall.size() / 2), wall.get(0),
          cpu.get(cpu.size() / 2), cpu.get(0), runs, warmups);
    }
  }
}
