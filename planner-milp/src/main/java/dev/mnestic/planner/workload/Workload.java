package dev.mnestic.planner.workload;

import java.util.List;
import java.util.Map;

/** A workload: metrics, the standing queries over them, and optional budgets. */
public record Workload(Map<String, Metric> metrics, List<Query> queries, List<Budget> budgets) {
  public Workload {
    metrics = Map.copyOf(metrics);
    queries = List.copyOf(queries);
    budgets = List.copyOf(budgets);
  }

  public Metric metric(String name) {
    final Metric m = metrics.get(name);
    if (m == null) {
      throw new IllegalArgumentException("unknown metric " + name);
    }
    return m;
  }
}
