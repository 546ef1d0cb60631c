package dev.mnestic.planner.select;

import dev.mnestic.planner.cost.Cost;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.workload.Budget;

/** r_v of constraint (B): how much of a budgeted resource candidate v uses. */
final class Budgets {
  private Budgets() {
  }

  static double use(PlanSpace space, int v, Budget.Resource resource) {
    final Cost c = space.costs().get(v);
    switch (resource) {
      case HEAP_BYTES:
        return c.heapBytes();
      case STORE_BYTES:
        return c.storeBytes();
      default:
        return c.cpuNanosPerSecond();
    }
  }
}
