package dev.mnestic.runtime;

import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.function.Function0;

/** The recursive step of a {@code WITH RECURSIVE} query, built once per round. */
public final class Rounds {
  private Rounds() {
  }

  /**
   * Rows that, each time they are read, come from a new enumerable built by
   * {@code step}: Calcite's RepeatUnion reads its iterative input once per
   * round, so every round runs the step's code from its start, operators
   * that read their input when built included.
   */
  public static <T> Enumerable<T> eachRound(Function0<Enumerable<T>> step) {
    return new AbstractEnumerable<T>() {
      @Override public Enumerator<T> enumerator() {
        return step.apply().enumerator();
      }
    };
  }
}
