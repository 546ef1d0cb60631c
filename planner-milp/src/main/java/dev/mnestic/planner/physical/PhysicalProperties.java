package dev.mnestic.planner.physical;

import dev.mnestic.planner.workload.Durations;

import java.time.Duration;

/**
 * p^phys = (timing, lifetime) of a candidate. The constructor rejects the combination that
 * cannot be: a result computed at ingest is read at a later evaluation, so it must be kept.
 */
public record PhysicalProperties(Timing timing, Lifetime lifetime) {
  public PhysicalProperties {
    if (timing == Timing.INGEST && lifetime instanceof Lifetime.None) {
      throw new IllegalArgumentException("a result computed at ingest is read at a later "
          + "evaluation: it must be kept, not have lifetime none");
    }
  }

  /**
   * Whether each result is computed again whenever an evaluation (of now or of a past point)
   * needs it, rather than read from where it was kept.
   */
  public boolean recomputedOnDemand() {
    return timing == Timing.EVALUATION && !(lifetime instanceof Lifetime.AcrossEvaluations);
  }

  /**
   * How far back this candidate's results can be read: its keep when kept across evaluations,
   * nothing older than the current window when built at ingest and kept for one evaluation,
   * and no limit of its own (null) when recomputed on demand.
   */
  public Duration history() {
    if (lifetime instanceof Lifetime.AcrossEvaluations a) {
      return a.keep();
    }
    return timing == Timing.INGEST ? Duration.ZERO : null;
  }

  /**
   * r^phys applied, α^phys: why a consumer with these properties cannot read {@code producer}
   * on an input it reads {@code lookback} back, or null when it can ({@link #reads}).
   */
  public String rejectsProducer(PhysicalProperties producer, Duration lookback) {
    if (readsRowsOnly(producer)) {
      return "an ingest-time consumer reads rows as they arrive; the producer is computed at evaluation";
    }
    final Duration history = producer.history();
    if (keepsTooLittle(history, lookback)) {
      return "the consumer reads " + Durations.format(lookback) + " back; the producer keeps "
          + (history.isZero() ? "only the current window" : Durations.format(history));
    }
    return null;
  }

  /** α^phys holds: {@link #rejectsProducer} without building its reason. */
  public boolean reads(PhysicalProperties producer, Duration lookback) {
    return !readsRowsOnly(producer) && !keepsTooLittle(producer.history(), lookback);
  }

  private boolean readsRowsOnly(PhysicalProperties producer) {
    return timing == Timing.INGEST && producer.timing == Timing.EVALUATION;
  }

  private static boolean keepsTooLittle(Duration history, Duration lookback) {
    return history != null && lookback.compareTo(history) > 0;
  }

  @Override public String toString() {
    return timing + ", " + lifetime;
  }
}
