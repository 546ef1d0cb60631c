package dev.mnestic.value;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link HostAggregations} are immutable: registering leaves the registrations it started from. */
class HostAggregationsTest {
  @Test void registeringMakesNewRegistrations() {
    final HostAggregations counted =
        HostAggregations.NONE.with("counted", false, () -> Aggregators.create("count"));
    final HostAggregations nearest = counted.withBoundedMeet("nearest",
        (a, b) -> (Long) a < (Long) b, 1);
    assertFalse(HostAggregations.NONE.isRegistered("counted"));
    assertFalse(counted.isRegistered("nearest"));
    assertTrue(nearest.isRegistered("counted") && nearest.isBoundedMeet("nearest"));
    // the same name again: refused where it is, free where it is not
    assertThrows(IllegalArgumentException.class,
        () -> counted.with("counted", false, () -> Aggregators.create("count")));
    assertTrue(HostAggregations.NONE.withBoundedMeet("counted", (a, b) -> false, 1)
        .isBoundedMeet("counted"));
    assertFalse(counted.isBoundedMeet("counted"));
  }
}
