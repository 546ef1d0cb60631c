package dev.mnestic.flink.io;

import java.util.Objects;

/**
 * One query's answer in one window: the query's name, the window's end (epoch milliseconds)
 * and the value. A Flink POJO.
 */
public final class Answer {
  public String query;
  public long end;
  public double value;

  public Answer() {
  }

  public Answer(String query, long end, double value) {
    this.query = query;
    this.end = end;
    this.value = value;
  }

  @Override public boolean equals(Object o) {
    return o instanceof Answer a && Objects.equals(a.query, query) && a.end == end
        && Double.compare(a.value, value) == 0;
  }

  @Override public int hashCode() {
    return Objects.hash(query, end, value);
  }

  @Override public String toString() {
    return SampleJson.format(this);
  }
}
