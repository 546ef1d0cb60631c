package dev.mnestic.value;

/**
 * CozoDB's Validity value, the time stamp of a fact in a time-travel
 * relation: microseconds since the Unix epoch and whether the fact is
 * asserted (or retracted). Validities order newest first, and at the same
 * time an assertion before a retraction (CozoDB sorts both descending). In a
 * query result a Validity is {@code [timestamp, assertion]}.
 */
public record Validity(long timestamp, boolean assertion) implements Comparable<Validity> {
  @Override public int compareTo(Validity o) {
    final int c = Long.compare(o.timestamp, timestamp);
    return c != 0 ? c : Boolean.compare(o.assertion, assertion);
  }

  @Override public String toString() {
    return "[" + timestamp + "," + assertion + "]";
  }
}
