package dev.mnestic.planner;

import dev.mnestic.planner.workload.Dashboards;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.WorkloadParser;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16, point 6: the plan space keeps its share of a total limit
 * ({@link Planner.SpaceShare}). The chunks of the largest generated dashboard (1,664 queries)
 * are "built" on a hand-advanced clock that moves by each chunk's work, whole or narrowed, at
 * rates the rule does not know (a narrowed query no dearer than a whole one): it must end within
 * its share whenever the first chunk whole and every other narrowed fit in it, while still using the share (ending within one whole chunk's
 * time of it), and build the first chunk whole and every other narrowed when even that does not
 * fit. A rule that narrows only the chunks started past the share (the one before) ends past it
 * by the narrowed rest.
 */
class SpaceShareTest {
  private static final List<List<Query>> CHUNKS = Planner.chunks(WorkloadParser.parse(Dashboards.generate(1664, 1)));

  /** What building the chunks under the rule costs on a clock moved by their work: the end, and which were whole. */
  private record Built(long end, boolean[] whole) {
  }

  /** Where the clock starts: not at 0, as {@link System#nanoTime} does not. */
  private static final long ORIGIN = 7_000_000_000L;

  private static Built build(long until, long perWhole, long perNarrowed) {
    final long[] now = {ORIGIN};
    final Planner.SpaceShare rule = new Planner.SpaceShare(() -> now[0], ORIGIN + until);
    final boolean[] whole = new boolean[CHUNKS.size()];
    int after = CHUNKS.stream().mapToInt(List::size).sum();
    for (int c = 0; c < CHUNKS.size(); c++) {
      final int queries = CHUNKS.get(c).size();
      after -= queries;
      whole[c] = rule.whole(queries, after);
      now[0] += queries * (whole[c] ? perWhole : perNarrowed);
    }
    return new Built(now[0] - ORIGIN, whole);
  }

  @Test void theSpaceEndsWithinItsShareAndUsesIt() {
    final int total = CHUNKS.stream().mapToInt(List::size).sum();
    final int first = CHUNKS.get(0).size();
    final int largest = CHUNKS.stream().mapToInt(List::size).max().orElseThrow();
    assertTrue(CHUNKS.size() > 40, CHUNKS.size() + " chunks");
    // Narrowed chunks at a third, half, two thirds and all of a whole one's time per query (the
    // rule assumes all until it has timed one).
    for (long perNarrowed : new long[] {300, 500, 667, 1000}) {
      final long perWhole = 1000;
      final long fits = first * perWhole + (total - first) * perNarrowed;
      for (long until : new long[] {fits, fits + 100_000, fits + 400_000, Math.max(fits, total * perWhole * 3 / 4),
          total * perWhole}) {
        final Built built = build(until, perWhole, perNarrowed);
        final String at = "share " + until + ", narrowed " + perNarrowed + ": ended at " + built.end();
        assertTrue(built.end() <= until, at);
        assertTrue(built.end() > until - largest * perWhole || built.end() == total * perWhole, at);
        assertTrue(built.whole()[0], at);
      }
    }
    // A share the narrowed rest does not fit: the first chunk whole (started before the share
    // passed), every other narrowed.
    final Built tight = build(first * 1000L, 1000, 500);
    for (int c = 0; c < CHUNKS.size(); c++) {
      assertEquals(c == 0, tight.whole()[c], "chunk " + c);
    }
    assertEquals(first * 1000L + (total - first) * 500L, tight.end());
  }
}
