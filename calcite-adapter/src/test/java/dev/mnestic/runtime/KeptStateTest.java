package dev.mnestic.runtime;

import org.apache.calcite.DataContext;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16 (point 3): a {@link Sketches.State} kept across reads and fed the rows
 * committed since, inserts added and the windows of deleted or updated rows built again as
 * {@code standing.Dashboard} does, answers every read exactly as a fresh full pass over the rows
 * then in the table, for merges (a chain of them), sliding and exact windows of KLL, DDSketch
 * and exact summaries; and a read remakes only the windows holding a part changed since the
 * last, whatever the rows kept.
 */
class KeptStateTest {
  private static final long MINUTE = 60_000;
  private static final List<Double> PHIS = List.of(0.0, 0.5, 0.9, 0.99, 1.0);
  /** KLL keeps every value of a window of at most k: its answers do not depend on row order. */
  private static final int K = 2000;

  private static Sketches.Summary built(Sketches.Family family, double parameter, long width,
      long step, List<Double> phis, long retain) {
    return new Sketches.Summary(family, parameter, width, step, 0, phis, -1, retain);
  }

  private static Sketches.Summary merge(Sketches.Family family, double parameter, long width,
      long step, long sub, int source, List<Double> phis, long retain) {
    return new Sketches.Summary(family, parameter, width, step, sub, phis, source, retain);
  }

  /** Every kind of window a plan runs, some retained less than the rows span. */
  private static final List<Sketches.Summary> SUMMARIES = List.of(
      built(Sketches.Family.KLL, K, MINUTE, MINUTE, PHIS, 0),
      merge(Sketches.Family.KLL, K, 5 * MINUTE, MINUTE, MINUTE, 0, PHIS, 15 * MINUTE),
      // a chain: 5m tumbling merged from the minutes, only merged into 10m every 5m
      merge(Sketches.Family.KLL, K, 5 * MINUTE, 5 * MINUTE, MINUTE, 0, List.of(), 0),
      merge(Sketches.Family.KLL, K, 10 * MINUTE, 5 * MINUTE, 5 * MINUTE, 2, PHIS, 0),
      built(Sketches.Family.DDSKETCH, 0.01, MINUTE, MINUTE, PHIS, 0),
      merge(Sketches.Family.DDSKETCH, 0.01, 5 * MINUTE, MINUTE, MINUTE, 4, PHIS, 0),
      built(Sketches.Family.DDSKETCH, 0.02, 3 * MINUTE, MINUTE, PHIS, 0),
      built(Sketches.Family.EXACT, 0, MINUTE, MINUTE, List.of(0.5), 0),
      merge(Sketches.Family.EXACT, 0, 10 * MINUTE, MINUTE, MINUTE, 7, PHIS, 0),
      built(Sketches.Family.EXACT, 0, 5 * MINUTE, MINUTE, PHIS, 20 * MINUTE),
      built(Sketches.Family.EXACT, 0, 30 * MINUTE, MINUTE, PHIS, 0),
      // few windows of many values each: remade by selection, not by counting
      built(Sketches.Family.EXACT, 0, 4 * MINUTE, 2 * MINUTE, List.of(0.5, 0.99), 0));

  /**
   * 40 rounds over a table growing by a minute of rows a round (about 40, a few late): every
   * fourth round also deletes and updates a few earlier rows (an update may move a row's time).
   * After each round the kept state is read, and compared read for read with a new state fed
   * every row of the table; after a round of inserts into its latest minute alone, each summary
   * made from others' remade only the windows holding that minute.
   */
  @Test void keptReadsAnswerAsAFullPass() {
    final Random r = new Random(16);
    final Map<Integer, double[]> table = new HashMap<>();
    final Sketches.State kept = new Sketches.State(SUMMARIES);
    int id = 0;
    long checked = 0;
    for (int minute = 0; minute < 40; minute++) {
      final List<double[]> inserted = new ArrayList<>();
      final List<double[]> deleted = new ArrayList<>();
      final boolean late = minute % 4 == 3;
      for (int i = 0; i < 30 + r.nextInt(20); i++) {
        inserted.add(row(r, minute));
      }
      if (late) {
        for (int i = 0; i < 3; i++) {
          inserted.add(row(r, r.nextInt(minute + 1)));
        }
        // deletes and updates of rows before the latest minute (the latest time stays)
        final List<Integer> ids = new ArrayList<>(table.keySet());
        for (int i = 0; i < 4 && !ids.isEmpty(); i++) {
          final int victim = ids.remove(r.nextInt(ids.size()));
          deleted.add(table.remove(victim));
          if (i % 2 == 0) {
            inserted.add(row(r, r.nextInt(minute)));
          }
        }
      }
      for (double[] row : inserted) {
        table.put(id++, row);
      }
      update(kept, table, inserted, deleted);
      final long[] remade = new long[SUMMARIES.size()];
      final List<Object[]> answers = read(kept, remade);
      final Sketches.State full = new Sketches.State(SUMMARIES);
      for (double[] row : table.values()) {
        full.add((long) row[0], row[1]);
      }
      final List<Object[]> expected = read(full, new long[SUMMARIES.size()]);
      assertEquals(expected.size(), answers.size(), "minute " + minute);
      for (int i = 0; i < expected.size(); i++) {
        assertArrayEquals(expected.get(i), answers.get(i), "minute " + minute + ", read " + i);
      }
      checkExact(answers, table);
      if (!late && minute > 0) {
        // The rows went into minute m alone: a merge or exact sliding summary of width w every
        // step s remade the w / s windows holding it (the 10m windows every 5m: 2; the 5m
        // tumbling ones only merged: 1; none for the 1m exact source).
        assertArrayEquals(new long[] {0, 5, 1, 2, 0, 5, 0, 0, 10, 5, 30, 2}, remade,
            "minute " + minute);
        checked++;
      }
    }
    assertTrue(checked >= 25, checked + " rounds of inserts checked");
  }

  /**
   * Checks every read of an exact summary against the window's values sorted here, apart from
   * the two ways {@code Sketches} answers exact windows (counting and selection).
   */
  private static void checkExact(List<Object[]> reads, Map<Integer, double[]> table) {
    long exact = 0;
    for (Object[] read : reads) {
      final Sketches.Summary summary = SUMMARIES.get((int) read[0]);
      if (summary.family() == Sketches.Family.EXACT) {
        final long end = (long) read[1];
        final double[] window = table.values().stream()
            .filter(row -> row[0] >= end - summary.width() && row[0] < end)
            .mapToDouble(row -> row[1]).sorted().toArray();
        assertEquals(TrueQuantile.value(window, (double) read[2]), (double) read[3],
            summary + " window ending " + end);
        exact++;
      }
    }
    assertTrue(exact > 0);
  }

  /** A row at a random time of {@code minute}, values rounded so that many repeat. */
  private static double[] row(Random r, int minute) {
    return new double[] {minute * MINUTE + r.nextInt((int) MINUTE),
        Math.round(Math.exp(2 + r.nextGaussian()) * 4) / 4.0};
  }

  /**
   * Brings {@code kept} up to date as {@code standing.Dashboard} does: the windows of deleted
   * rows dropped and built again from the table's rows of their times, inserted rows added.
   */
  private static void update(Sketches.State kept, Map<Integer, double[]> table,
      List<double[]> inserted, List<double[]> deleted) {
    if (deleted.isEmpty()) {
      inserted.forEach(row -> kept.add((long) row[0], row[1]));
      return;
    }
    final List<long[]> ranges = kept.drop(deleted.stream().mapToLong(row -> (long) row[0])
        .toArray());
    inserted.forEach(row -> kept.addOutside((long) row[0], row[1]));
    for (long[] range : ranges) {
      for (double[] row : table.values()) {
        if (row[0] >= range[0] && row[0] < range[1]) {
          kept.refill((long) row[0], row[1]);
        }
      }
    }
    kept.refilled();
  }

  /** Every read of {@code state}, with the windows each summary remade into {@code remade}. */
  private static List<Object[]> read(Sketches.State state, long[] remade) {
    final Map<String, Object> context = new HashMap<>();
    context.put(DataContext.Variable.CANCEL_FLAG.camelName, new AtomicBoolean());
    context.put(Sketches.REMADE, (java.util.function.Consumer<long[]>) counts ->
        System.arraycopy(counts, 0, remade, 0, counts.length));
    final List<Object[]> out = new ArrayList<>();
    state.reads(context::get).forEach(out::add);
    return out;
  }

  /** Every window of a full pass is remade at its first read, and none at a read with no row. */
  @Test void aReadWithNoNewRowRemakesNothing() {
    final Random r = new Random(3);
    final Sketches.State state = new Sketches.State(SUMMARIES);
    final TreeSet<Long> minutes = new TreeSet<>();
    for (int i = 0; i < 600; i++) {
      final double[] row = row(r, r.nextInt(20));
      minutes.add((long) row[0] / MINUTE);
      state.add((long) row[0], row[1]);
    }
    final long[] first = new long[SUMMARIES.size()];
    final List<Object[]> answers = read(state, first);
    // 20 minutes of rows: 20 + 5 - 1 windows of 5m every minute hold one, 20 + 30 - 1 of 30m
    assertEquals(20 + 5 - 1, first[5]);
    assertEquals(20 + 30 - 1, first[10]);
    final long[] again = new long[SUMMARIES.size()];
    final List<Object[]> same = read(state, again);
    assertArrayEquals(new long[SUMMARIES.size()], again);
    assertEquals(answers.size(), same.size());
    for (int i = 0; i < answers.size(); i++) {
      assertArrayEquals(answers.get(i), same.get(i));
    }
    assertEquals(20, minutes.size());
  }
}
