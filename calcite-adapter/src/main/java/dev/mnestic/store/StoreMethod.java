package dev.mnestic.store;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.function.Function0;
import org.apache.calcite.rel.core.TableModify;

import java.lang.reflect.Method;
import java.sql.ResultSet;

/**
 * The hand-written methods that the store's generated code calls (reads and writes of HSQLDB's
 * tables), kept with the store as Calcite's adapters keep theirs (e.g. {@code MongoMethod});
 * the operators' own are in {@code dev.mnestic.runtime.MnesticMethod}.
 */
public enum StoreMethod {
  STORE_MODIFY(StoreWrites.class, "modify", DataContext.class, String.class,
      TableModify.Operation.class, String[].class, Function0.class),
  STORE_READ_BINARIES(StoreReads.class, "binaries", Enumerable.class, int[].class,
      boolean.class),
  STORE_SCAN(StoreReads.class, "scan", DataContext.class, String.class, int[].class,
      StoreReads.Read[].class, boolean.class),
  STORE_READ_TIMESTAMP(StoreReads.class, "timestamp", ResultSet.class, int.class),
  STORE_READ_TIMESTAMP_OPTIONAL(StoreReads.class, "timestampOptional", ResultSet.class,
      int.class),
  STORE_READ_DATE(StoreReads.class, "date", ResultSet.class, int.class),
  STORE_READ_DATE_OPTIONAL(StoreReads.class, "dateOptional", ResultSet.class, int.class),
  STORE_READ_ARRAY(StoreReads.class, "array", java.sql.Array.class),
  STORE_READABLE(StoreReads.class, "readable", DataContext.class, String[].class);

  public final Method method;

  StoreMethod(Class<?> clazz, String name, Class<?>... parameterTypes) {
    try {
      this.method = clazz.getMethod(name, parameterTypes);
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
}
