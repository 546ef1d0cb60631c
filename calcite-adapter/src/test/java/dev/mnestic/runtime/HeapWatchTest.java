package dev.mnestic.runtime;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The heap watch's count of what a statement holds ({@link RunningStatement}): heap readings
 * after collections given to it as the collector's notifications give them, beside the real
 * ones, and real allocations by the statement's thread.
 */
class HeapWatchTest {
  /**
   * A statement started while the heap counted an earlier statement's garbage (still in the
   * old generation) is held to its budget from what the collection that took that garbage
   * left: before, it was charged the heap in use less the garbage, and ran on until the heap
   * was full (RunawayTest's script, past its 32 MB, ended in an OutOfMemoryError).
   */
  @Test void garbageCountedAtTheStartDoesNotHideWhatAStatementHolds() {
    final long max = Runtime.getRuntime().maxMemory();
    final long budget = 32L << 20;
    final AtomicBoolean flag = new AtomicBoolean();
    // the heap half full after the last collection before the start, mostly garbage
    RunningStatement.HeapWatch.collected(max / 2, false);
    try (RunningStatement s = RunningStatement.start(flag, 0, budget)) {
      final List<byte[]> held = new ArrayList<>();
      for (int i = 0; i < 96; i++) {
        held.add(new byte[1 << 20]);
      }
      // a collection takes the garbage: a twentieth of the heap left in use
      RunningStatement.HeapWatch.collected(max / 20, true);
      // the next one finds the statement's 96 MB more
      RunningStatement.HeapWatch.collected(max / 20 + (96L << 20), false);
      assertTrue(flag.get(), "not stopped: it held 96 MB with a budget of 32 MB");
      assertEquals(RunningStatement.Cause.MEMORY, s.cause());
      assertEquals(96, held.size());
    }
  }
}
