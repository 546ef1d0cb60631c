package dev.mnestic.value;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A head's aggregations resolved once ({@link HostAggregations#resolve}): the
 * implementations a run uses, and the text plans show.
 */
class HeadAggregationTest {
  @Test void normalHeadMakesFreshAggregatorsWithItsArgument() {
    final HeadAggregation head =
        HostAggregations.NONE.resolve(Arrays.asList(null, "collect(2)", "count"));
    assertEquals("[null, collect(2), count]", head.toString());
    assertFalse(head.meetKind() || head.boundedMeetKind());
    assertTrue(head.isKey(0) && !head.noKeys());
    assertNull(head.create(0));
    final Aggregators.Aggregator collect = head.create(1);
    for (long v = 1; v <= 3; v++) {
      collect.add(v);
    }
    assertEquals(List.of(1L, 2L), collect.result());
    // each call a group of its own
    assertEquals(0L, head.create(2).result());
    assertThrows(IllegalStateException.class, () -> head.meet(1));
  }

  @Test void meetAndBoundedMeetHeads() {
    final HeadAggregation min = HostAggregations.NONE.resolve(Arrays.asList(null, "min"));
    assertTrue(min.meetKind() && !min.boundedMeetKind());
    final Object[] current = {1L, 5L};
    assertTrue(min.meet(1).merge(current, 1, 3L));
    assertEquals(3L, current[1]);
    assertThrows(IllegalStateException.class, () -> min.create(1));

    final HeadAggregation k = HostAggregations.NONE.resolve(Arrays.asList(null, "min_cost_k(1)"));
    assertTrue(k.boundedMeetKind());
    assertEquals("[null, min_cost_k(1)]", k.toString());
    final BoundedMeet.Survivors survivors = k.boundedMeet().survivors();
    assertTrue(survivors.offer(List.of("a", 2L)));
    assertTrue(survivors.offer(List.of("b", 1L)));
    assertEquals(List.of(List.of("b", 1L)), List.copyOf(survivors.values()));
  }

  @Test void registeredAggregationsComeFirstAndEqualityIsBySpecs() {
    final HostAggregations host =
        HostAggregations.NONE.with("counted", false, () -> Aggregators.create("count"));
    final HeadAggregation head = host.resolve(Arrays.asList(null, "counted"));
    final Aggregators.Aggregator counted = head.create(1);
    counted.add("x");
    assertEquals(1L, counted.result());
    assertFalse(head.orderBlind());
    assertEquals(HostAggregations.NONE.resolve(Arrays.asList(null, null)),
        host.resolve(Arrays.asList(null, null)));
    assertEquals(head, host.resolve(Arrays.asList(null, "counted")));
    assertThrows(IllegalArgumentException.class,
        () -> HostAggregations.NONE.resolve(Arrays.asList(null, "counted")));
  }
}
