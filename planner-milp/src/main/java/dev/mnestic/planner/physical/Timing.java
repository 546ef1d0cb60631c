package dev.mnestic.planner.physical;

/** When a candidate computes its result: one dimension of p^phys. */
public enum Timing {
  /** Incrementally, as each row arrives. */
  INGEST,
  /** When a query is evaluated, from the inputs available then. */
  EVALUATION
}
