package dev.mnestic.runtime;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rows split among three {@link Sketches.State}s (a distributed pass's shards), each one's
 * closed windows taken out as {@link Sketches.Part}s, written to bytes, read back and merged
 * into a fourth: its reads are those of one state fed every row, for DDSketch (merged by adding
 * bucket counts) and exact summaries (values concatenated), tumbling, sliding built directly,
 * merged from sub-windows and exact sliding. (KLL's parts are written by KLL's serialization,
 * which needs Java 17's incubating foreign-memory module: flink-job's tests, which set it,
 * merge them.)
 */
class SketchPartsTest {
  private static final long MINUTE = 60_000;
  private static final List<Double> PHIS = List.of(0.0, 0.5, 0.9, 0.99, 1.0);

  private static final List<Sketches.Summary> SUMMARIES = List.of(
      new Sketches.Summary(Sketches.Family.DDSKETCH, 0.01, MINUTE, MINUTE, 0, PHIS, -1, 0),
      new Sketches.Summary(Sketches.Family.DDSKETCH, 0.01, 5 * MINUTE, MINUTE, MINUTE, PHIS, 0, 0),
      new Sketches.Summary(Sketches.Family.DDSKETCH, 0.02, 3 * MINUTE, MINUTE, 0, PHIS, -1, 0),
      new Sketches.Summary(Sketches.Family.EXACT, 0, MINUTE, MINUTE, 0, List.of(0.5), -1, 0),
      new Sketches.Summary(Sketches.Family.EXACT, 0, 10 * MINUTE, MINUTE, MINUTE, PHIS, 3, 0),
      new Sketches.Summary(Sketches.Family.EXACT, 0, 5 * MINUTE, MINUTE, 0, PHIS, -1, 0));

  @Test void partsMergedReadAsOneStateFedEveryRow() {
    final Random r = new Random(19);
    final Sketches.State whole = new Sketches.State(SUMMARIES);
    final List<Sketches.State> shards = List.of(new Sketches.State(SUMMARIES),
        new Sketches.State(SUMMARIES), new Sketches.State(SUMMARIES));
    for (int i = 0; i < 20_000; i++) {
      final long t = r.nextInt((int) (30 * MINUTE));
      final double v = Math.exp(3 + r.nextGaussian());
      whole.add(t, v);
      shards.get(r.nextInt(shards.size())).add(t, v);
    }
    final List<Sketches.Part> parts = new ArrayList<>();
    for (Sketches.State shard : shards) {
      // The first ten minutes' windows close, then the rest.
      parts.addAll(shard.takeClosed(10 * MINUTE));
      parts.addAll(shard.takeClosed(Long.MAX_VALUE));
      assertEquals(0, Arrays.stream(shard.windowsHeld()).sum(), "a shard kept a window");
    }
    parts.sort(Comparator.comparingLong(Sketches.Part::closes));
    final Sketches.State merged = new Sketches.State(SUMMARIES);
    for (Sketches.Part part : parts) {
      merged.mergePart(Sketches.Part.fromBytes(part.toBytes()));
    }
    final List<List<Object>> want = reads(whole);
    assertTrue(want.size() > 500, want.size() + " reads");
    assertEquals(want, reads(merged));
  }

  @Test void aPartOfAnotherSummaryIsRefused() {
    final Sketches.State a = new Sketches.State(SUMMARIES);
    a.add(0, 1.0);
    final Sketches.Part part = a.takeClosed(Long.MAX_VALUE).get(0);
    final Sketches.State other = new Sketches.State(List.of(
        new Sketches.Summary(Sketches.Family.EXACT, 0, MINUTE, MINUTE, 0, PHIS, -1, 0)));
    final IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> other.mergePart(part));
    assertTrue(e.getMessage().startsWith("a part of DDSKETCH(0.01) does not merge into summary 0"),
        e.getMessage());
  }

  private static List<List<Object>> reads(Sketches.State state) {
    final List<List<Object>> out = new ArrayList<>();
    for (Object[] read : state.reads(name -> null)) {
      out.add(List.of(read));
    }
    return out;
  }
}
