package dev.mnestic.runtime;

import dev.mnestic.value.HeadAggregation;
import dev.mnestic.store.StoreReads;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.function.Function0;

import java.lang.reflect.Method;
import java.util.List;

/**
 * The hand-written runtime methods that mnestic's generated code calls, as
 * Calcite keeps its own in {@code BuiltInMethod}.
 */
public enum MnesticMethod {
  SEMI_NAIVE_FIXPOINT(SemiNaive.class, "fixpoint", DataContext.class, Enumerable[].class,
      Enumerable[].class, ProbeChain[][].class, RowTable[].class, RowTable[].class, int.class, HeadAggregation[].class),
  DATALOG_AGGREGATE(Aggregation.class, "group", Enumerable.class,
      HeadAggregation.class),
  DATALOG_AGGREGATE_COLUMNS(Aggregation.class, "groupColumns", RowTable.class, int[].class,
      HeadAggregation.class),
  SKETCH_WINDOWS(Sketches.class, "windows", DataContext.class, Enumerable.class, int.class,
      int.class, List.class),
  SKYLINE(Skylines.class, "skyline", Enumerable.class, int[].class,
      Skylines.Direction[].class, boolean.class, Skylines.Algorithm.class, boolean.class),
  AS_OF(Validities.class, "asOf", Enumerable.class, int[].class, int.class, long.class),
  FIXED_RULE(FixedRuleRun.class, "run", DataContext.class, Enumerable[].class,
      FixedRuleRun.Spec.class),
  GENERIC_JOIN(GenericJoinRun.class, "run", DataContext.class, Enumerable[].class,
      GenericJoinRun.Spec.class),
  SEARCH(SearchRun.class, "run", DataContext.class, Enumerable.class, Enumerable.class,
      SearchRun.RelationReader.class, SearchRun.Spec.class),
  INDEX_JOIN(IndexJoinRun.class, "join", DataContext.class, Enumerable.class, Enumerable.class,
      StoreReads.Read[].class, IndexJoinRun.Spec.class),
  EACH_ROUND(Rounds.class, "eachRound", Function0.class),
  STOP_CHECKED(RunningStatement.class, "checked", Enumerable.class, DataContext.class);

  public final Method method;

  MnesticMethod(Class<?> clazz, String name, Class<?>... parameterTypes) {
    try {
      this.method = clazz.getMethod(name, parameterTypes);
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
}
