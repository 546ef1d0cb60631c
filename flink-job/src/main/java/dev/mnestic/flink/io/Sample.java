package dev.mnestic.flink.io;

import java.util.Objects;

/**
 * One sample, a row of {@code prometheus_samples(ts, metric, labels, val)} (docs/prometheus.md):
 * its time in epoch milliseconds, the metric's name, its labels as a JSON object's text, and
 * its value. A Flink POJO: public fields and a public no-argument constructor.
 */
public final class Sample {
  public long ts;
  public String metric;
  public String labels;
  public double val;

  public Sample() {
  }

  public Sample(long ts, String metric, String labels, double val) {
    this.ts = ts;
    this.metric = metric;
    this.labels = labels;
    this.val = val;
  }

  @Override public boolean equals(Object o) {
    return o instanceof Sample s && s.ts == ts && Objects.equals(s.metric, metric)
        && Objects.equals(s.labels, labels) && Double.compare(s.val, val) == 0;
  }

  @Override public int hashCode() {
    return Objects.hash(ts, metric, labels, val);
  }

  @Override public String toString() {
    return SampleJson.format(this);
  }
}
