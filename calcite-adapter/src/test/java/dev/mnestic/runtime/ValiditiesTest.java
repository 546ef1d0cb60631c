package dev.mnestic.runtime;

import dev.mnestic.value.Validity;

import org.junit.jupiter.api.Test;

import org.apache.calcite.linq4j.Linq4j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link Validities#asOf}, a time-travel relation at a moment (issue 17, point 2), against a
 * second reading of CozoDB's definition: per fact, its rows sorted in CozoDB's key order
 * (Validity descending), the first at or before the moment, if it asserts.
 */
class ValiditiesTest {
  /** Rows {@code [fact, validity, value]}. */
  private static Object[] row(String fact, long ts, boolean assertion, Object value) {
    return new Object[] {fact, new Validity(ts, assertion), value};
  }

  private static List<List<Object>> asOf(List<Object[]> rows, long at) {
    final List<List<Object>> found = new ArrayList<>();
    for (Object[] r : Validities.asOf(Linq4j.asEnumerable(rows), new int[] {0}, 1, at)) {
      found.add(Arrays.asList(r));
    }
    return found;
  }

  @Test void theNewestVersionAtOrBeforeTheMomentWhenItAsserts() {
    // 'a': x from 10, y from 20, retracted at 25, z from 30; 'b': q from 5
    final List<Object[]> rows = List.of(row("a", 10, true, "x"), row("a", 20, true, "y"),
        row("a", 25, false, null), row("a", 30, true, "z"), row("b", 5, true, "q"));
    assertEquals(List.of(List.of("b", new Validity(5, true), "q")), asOf(rows, 9));
    assertEquals(List.of(Arrays.asList("a", new Validity(20, true), "y"),
        List.of("b", new Validity(5, true), "q")), asOf(rows, 24));
    assertEquals(List.of(List.of("b", new Validity(5, true), "q")), asOf(rows, 29));
    assertEquals(List.of(Arrays.asList("a", new Validity(30, true), "z"),
        List.of("b", new Validity(5, true), "q")), asOf(rows, Long.MAX_VALUE));
  }

  @Test void atTheSameTimeAnAssertionHidesTheRetraction() {
    final List<Object[]> rows = List.of(row("a", 30, false, null), row("a", 30, true, "z"));
    assertEquals(List.of(List.of("a", new Validity(30, true), "z")), asOf(rows, 30));
  }

  @Test void agreesWithCozoDbsKeyOrderOnRandomHistories() {
    final Random random = new Random(17);
    for (int round = 0; round < 200; round++) {
      final List<Object[]> rows = new ArrayList<>();
      for (int i = random.nextInt(40); i > 0; i--) {
        rows.add(row("k" + random.nextInt(5), random.nextInt(20) - 5, random.nextBoolean(), i));
      }
      final long at = random.nextInt(24) - 7;
      assertEquals(bySortedKeys(rows, at), sorted(asOf(rows, at)), "at " + at);
    }
  }

  /** Per fact, the first of its rows in Validity order whose time is at or before {@code at}. */
  private static List<List<Object>> bySortedKeys(List<Object[]> rows, long at) {
    final List<List<Object>> found = new ArrayList<>();
    rows.stream().collect(Collectors.groupingBy(r -> r[0])).forEach((fact, history) -> {
      history.sort(Comparator.comparing(r -> (Validity) r[1]));
      history.stream().filter(r -> ((Validity) r[1]).timestamp() <= at).findFirst()
          .filter(r -> ((Validity) r[1]).assertion())
          .ifPresent(r -> found.add(Arrays.asList(r)));
    });
    return sorted(found);
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    final List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(r -> (String) r.get(0)));
    return copy;
  }
}
