package dev.mnestic.planner.select;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.workload.Dashboards;
import dev.mnestic.planner.workload.WorkloadParser;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #13, point 4: {@link StopSignal#stop} ends a search that would run for its
 * whole time limit (a generated dashboard of 200 queries, a limit of 10 minutes): the search
 * throws soon after. {@code solve} returns only once the solver it runs has returned, so its
 * return shows that CP-SAT's workers were interrupted, not left searching.
 */
class StopTest {
  /** Safety bound on the time from stop() to solve() returning, in seconds. */
  private static final double BOUND_SECONDS = 5;

  @Test void stopEndsTheSearchAndItsSolver() throws Exception {
    final PlanSpace space = Planner.space(WorkloadParser.parse(Dashboards.generate(200, 7)),
        ParameterLists.DEFAULT);
    final StopSignal stop = new StopSignal();
    final MilpSelector selector = new MilpSelector(space, Solver.CP_SAT, Duration.ofMinutes(10), Ticker.SYSTEM, stop);
    final CompletableFuture<Plan> search = CompletableFuture.supplyAsync(selector::solve);
    Thread.sleep(3_000);
    assertTrue(!search.isDone(), "the search ended before it was stopped: " + search);
    final long stopped = System.nanoTime();
    stop.stop();
    final ExecutionException e = assertThrows(ExecutionException.class,
        () -> search.get((long) BOUND_SECONDS, TimeUnit.SECONDS));
    final double seconds = (System.nanoTime() - stopped) / 1e9;
    assertTrue(e.getCause() instanceof PlanningException, String.valueOf(e.getCause()));
    assertEquals("the plan search was stopped", e.getCause().getMessage());
    assertTrue(seconds < BOUND_SECONDS, "returned " + seconds + " s after stop()");
  }
}
