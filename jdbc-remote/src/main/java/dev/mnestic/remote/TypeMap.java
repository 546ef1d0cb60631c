package dev.mnestic.remote;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * A connection's type map, JDBC's {@code getTypeMap} and {@code setTypeMap}: a new connection's
 * is empty; the one set is the one got. mnestic has no user-defined types (STRUCT, DISTINCT),
 * whose values a type map maps to Java classes, so no value is ever mapped by it.
 */
public final class TypeMap {
  private Map<String, Class<?>> map = new HashMap<>();

  /** The map, as {@code Connection.getTypeMap} returns it (the caller may change it). */
  public Map<String, Class<?>> get() {
    return map;
  }

  /** Makes {@code map} the connection's, as {@code Connection.setTypeMap}; null is refused. */
  public void set(Map<String, Class<?>> map) throws SQLException {
    if (map == null) {
      throw new SQLException("setTypeMap: the type map must be a Map, not null", "HY009");
    }
    this.map = map;
  }
}
