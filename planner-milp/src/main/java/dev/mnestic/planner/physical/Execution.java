package dev.mnestic.planner.physical;

/** Which physical alternatives a plan space holds: what its plans may ask of an executor. */
public enum Execution {
  /** Every timing with every lifetime (a workload file, {@code mnestic plan}). */
  ANY,
  /**
   * What the standing-query executor runs ({@code Dashboard}, {@code Sketches.State}): a build
   * is fed each row once as it comes and its windows are kept across evaluations in the heap,
   * for as far back as its readers ask; merges, readouts and ratios are made when read and kept
   * for no later evaluation, except a merge that another merges, whose windows' summaries are
   * kept across evaluations in the heap for its reader and which asks its input for its keep and
   * its lookback (remaking an old window after a late or changed row); an exact sort is not run
   * (the executor runs it as an exact build, kept and read out, which the plan space holds
   * already).
   */
  STANDING
}
