package dev.mnestic.runtime;

import dev.mnestic.rel.RowTable;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.function.Function0;


import java.lang.reflect.Method;
import java.sql.ResultSet;

/**
 * The hand-written runtime methods that mnestic's generated code calls, as
 * Calcite keeps its own in {@code BuiltInMethod}.
 */
public enum MnesticMethod {
  STORE_MODIFY(StoreWrites.class, "modify", DataContext.class, String.class,
      String.class, String[].class, Function0.class),
  SEMI_NAIVE_FIXPOINT(SemiNaive.class, "fixpoint", DataContext.class, Enumerable[].class,
      Enumerable[].class, RowTable[].class, RowTable[].class, int.class, String[][].class),
  DATALOG_AGGREGATE(Aggregation.class, "group", DataContext.class, Enumerable.class,
      String[].class),
  SKETCH_WINDOWS(Sketches.class, "windows", DataContext.class, Enumerable.class, int.class,
      int.class, String[].class, double[].class, long[].class, long[].class, long[].class,
      double[][].class),
  STORE_READ_BINARIES(StoreReads.class, "binaries", Enumerable.class, int[].class,
      boolean.class),
  STORE_SCAN(StoreReads.class, "scan", DataContext.class, String.class, String[].class,
      boolean.class),
  STORE_READ_TIMESTAMP(StoreReads.class, "timestamp", ResultSet.class, int.class),
  STORE_READ_TIMESTAMP_OPTIONAL(StoreReads.class, "timestampOptional", ResultSet.class,
      int.class),
  STORE_READ_DATE(StoreReads.class, "date", ResultSet.class, int.class),
  STORE_READ_DATE_OPTIONAL(StoreReads.class, "dateOptional", ResultSet.class, int.class),
  STORE_READ_ARRAY(StoreReads.class, "array", java.sql.Array.class),
  SKYLINE(Skylines.class, "skyline", Enumerable.class, int[].class, String[].class,
      boolean.class, String.class, boolean.class),
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
