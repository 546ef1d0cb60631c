package dev.mnestic.bench;

import dev.mnestic.planner.workload.Dashboards;

/**
 * Writes a generated dashboard's workload text to stdout, the input PlannerBench plans in one
 * JVM, for timing what a user runs in a fresh one: {@code bench/run DashboardWorkload 1664 >
 * bench/target/d1664.workload}, then {@code bin/mnestic plan --total 5
 * bench/target/d1664.workload}. Arguments: the number of queries and the seed (default 1, as
 * PlannerBench's).
 */
public final class DashboardWorkload {
  private DashboardWorkload() {
  }

  public static void main(String[] args) {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: bench/run DashboardWorkload QUERIES [SEED]");
      System.exit(2);
    }
    System.out.print(Dashboards.generate(Integer.parseInt(args[0]),
        args.length == 2 ? Long.parseLong(args[1]) : 1));
  }
}
