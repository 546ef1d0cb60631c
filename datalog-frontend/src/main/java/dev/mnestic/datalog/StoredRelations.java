package dev.mnestic.datalog;

import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.datalog.ast.Script;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;
import dev.mnestic.value.Values;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * CozoDB's stored relations as the store's SQL tables: {@code :create},
 * {@code :replace}, {@code :put}, {@code :insert}, {@code :rm},
 * {@code :delete}, and {@code ::relations}, {@code ::columns},
 * {@code ::remove}. A relation's keys are the table's primary key. Column
 * types Int, Float, String and Bool are BIGINT, DOUBLE, VARCHAR and BOOLEAN.
 */
final class StoredRelations {
  private static final Map<String, String> SQL_TYPES =
      Map.of("Int", "BIGINT", "Float", "DOUBLE", "String", "VARCHAR(65536)", "Bool", "BOOLEAN");

  private final Session session;

  StoredRelations(Session session) {
    this.session = session;
  }

  static Engine.Result ok() {
    return new Engine.Result(List.of("status"), List.of(List.of("OK")));
  }

  /** Applies a relation operation to the entry rule's rows. */
  Engine.Result apply(Script.RelationOp op, List<String> headers, List<List<Object>> rows)
      throws SQLException {
    final Optional<String> existing = StoreCatalog.findTable(session, op.relation());
    switch (op.kind()) {
    case CREATE:
    case REPLACE:
      if (op.schema() == null) {
        throw error(op.pos(), "parser::pest", "':" + kind(op) + "' needs a schema {keys => values}");
      }
      if (existing.isPresent()) {
        if (op.kind() == Script.RelationOp.Kind.CREATE) {
          throw error(op.pos(), "eval::stored_relation_conflict",
              "Stored relation " + op.relation() + " conflicts with an existing one");
        }
        execute("DROP TABLE " + quote(existing.get()));
      }
      create(op);
      write(op, op.relation(), headers, rows, "put");
      return ok();
    case PUT:
    case INSERT:
    case RM:
    case DELETE:
      if (existing.isEmpty()) {
        throw error(op.pos(), "query::relation_not_found",
            "Cannot find requested stored relation '" + op.relation() + "'");
      }
      write(op, existing.get(), headers, rows, kind(op));
      return ok();
    default:
      throw error(op.pos(), "mnestic::unsupported", "':" + kind(op) + "' is not supported yet");
    }
  }

  private static String kind(Script.RelationOp op) {
    return op.kind().name().toLowerCase(java.util.Locale.ROOT);
  }

  private void create(Script.RelationOp op) throws SQLException {
    final List<String> columns = new ArrayList<>();
    final List<String> keys = new ArrayList<>();
    for (Script.Column c : op.schema().keys()) {
      columns.add(columnSql(c, true));
      keys.add(quote(c.name()));
    }
    for (Script.Column c : op.schema().values()) {
      columns.add(columnSql(c, false));
    }
    if (!keys.isEmpty()) {
      columns.add("PRIMARY KEY (" + String.join(", ", keys) + ")");
    }
    execute("CREATE TABLE " + quote(op.relation()) + " (" + String.join(", ", columns) + ")");
  }

  private static String columnSql(Script.Column c, boolean key) {
    if (c.type() == null || !SQL_TYPES.containsKey(c.type().base())
        || !c.type().elements().isEmpty()) {
      throw error(c.pos(), "mnestic::unsupported", "column '" + c.name() + "': only Int, Float,"
          + " String and Bool columns are supported yet");
    }
    if (c.defaultValue() != null) {
      throw error(c.pos(), "mnestic::unsupported", "column defaults are not supported yet");
    }
    return quote(c.name()) + " " + SQL_TYPES.get(c.type().base())
        + (key || !c.type().nullable() ? " NOT NULL" : "");
  }

  /** Writes rows: {@code put} (upsert), {@code insert}, {@code rm} or {@code delete} by key. */
  private void write(Script.RelationOp op, String table, List<String> headers,
      List<List<Object>> rows, String how) throws SQLException {
    if (rows.isEmpty()) {
      return;
    }
    final List<Object[]> columns = StoreCatalog.columns(session, table);
    final List<String> names = columns.stream().map(c -> (String) c[0]).collect(Collectors.toList());
    final List<String> primaryKey = StoreCatalog.primaryKey(session, table).stream()
        .map(k -> (String) k[0]).collect(Collectors.toList());
    // A table made by SQL without a primary key: its whole row is its key
    // (a row holding a null then never matches, so it is not replaced).
    final List<String> keys = primaryKey.isEmpty() ? names : primaryKey;
    final boolean byKey = how.equals("rm") || how.equals("delete");
    final List<String> targets = byKey ? keys : names;
    // Each target column takes the head column of its name (or the one its schema names).
    final int[] source = new int[targets.size()];
    for (int t = 0; t < targets.size(); t++) {
      String from = targets.get(t);
      if (op.schema() != null) {
        for (Script.Column c : concat(op.schema().keys(), op.schema().values())) {
          if (c.name().equals(targets.get(t)) && c.from() != null) {
            from = c.from();
          }
        }
      }
      source[t] = headers.indexOf(from);
      if (source[t] < 0) {
        throw error(op.pos(), "eval::bad_relation_op_column", "column '" + targets.get(t)
            + "' of " + table + " has no value: the entry rule's head has no '" + from + "'");
      }
    }
    final Connection c = session.getConnection();
    final String where = keys.stream().map(k -> quote(k) + " = ?")
        .collect(Collectors.joining(" AND "));
    for (List<Object> row : rows) {
      final Object[] values = new Object[targets.size()];
      for (int t = 0; t < targets.size(); t++) {
        values[t] = coerce(row.get(source[t]), (Integer) columns.get(names.indexOf(targets.get(t)))[1],
            op, row);
      }
      switch (how) {
      case "put":
        // upsert: whatever the key held goes, the row comes in
        try (PreparedStatement del = c.prepareStatement("DELETE FROM " + quote(table)
            + " WHERE " + where);
             PreparedStatement ins = c.prepareStatement("INSERT INTO " + quote(table)
                 + " VALUES (" + String.join(", ", Collections.nCopies(targets.size(), "?")) + ")")) {
          bind(del, keyValues(values, targets, keys), 0);
          del.executeUpdate();
          bind(ins, values, 0);
          ins.executeUpdate();
        }
        break;
      case "insert":
        if (exists(table, where, keyValues(values, targets, keys))) {
          throw assertion(table, row, "key exists in database");
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + quote(table) + " VALUES ("
            + String.join(", ", Collections.nCopies(targets.size(), "?")) + ")")) {
          bind(ps, values, 0);
          ps.executeUpdate();
        }
        break;
      default: // rm, delete
        if (how.equals("delete") && !exists(table, where, values)) {
          throw assertion(table, row, "key does not exists in database");
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + quote(table)
            + " WHERE " + where)) {
          bind(ps, values, 0);
          ps.executeUpdate();
        }
      }
    }
  }

  private static Object[] keyValues(Object[] values, List<String> targets, List<String> keys) {
    final Object[] key = new Object[keys.size()];
    for (int k = 0; k < keys.size(); k++) {
      key[k] = values[targets.indexOf(keys.get(k))];
    }
    return key;
  }

  private boolean exists(String table, String where, Object[] key) throws SQLException {
    try (PreparedStatement ps = session.getConnection().prepareStatement(
        "SELECT 1 FROM " + quote(table) + " WHERE " + where)) {
      bind(ps, key, 0);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static DatalogException assertion(String table, List<Object> row, String what) {
    return new DatalogException("transact::assertion_failure",
        "when executing against relation '" + table + "'", 0, 0,
        "Assertion failure for " + Values.display(row) + " of " + table + ": " + what);
  }

  /** A value as the column's type takes it: an Int into a Float column becomes a Float. */
  private static Object coerce(Object v, int sqlType, Script.RelationOp op, List<Object> row) {
    final boolean ok;
    switch (sqlType) {
    case Types.BIGINT:
      ok = v instanceof Long;
      break;
    case Types.DOUBLE:
      if (v instanceof Long) {
        return ((Long) v).doubleValue();
      }
      ok = v instanceof Double;
      break;
    case Types.VARCHAR:
      ok = v instanceof String;
      break;
    case Types.BOOLEAN:
      ok = v instanceof Boolean;
      break;
    default:
      ok = true;
    }
    if (v != null && !ok) {
      throw new DatalogException("eval::coercion_failed",
          "when executing against relation '" + op.relation() + "'", op.pos().line(),
          op.pos().column(), "when processing tuple " + Values.display(row)
              + ": data coercion failed: got value " + Values.display(v));
    }
    return v;
  }

  private static void bind(PreparedStatement ps, Object[] values, int offset) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      ps.setObject(offset + i + 1, values[i]);
    }
  }

  /** {@code ::relations}: CozoDB's columns. */
  Engine.Result relations() {
    final List<List<Object>> rows = new ArrayList<>();
    for (String table : StoreCatalog.tableNames(session)) {
      final int arity = StoreCatalog.columns(session, table).size();
      final int keys = StoreCatalog.primaryKey(session, table).size();
      rows.add(Values.list(table, (long) arity, "normal", (long) keys, (long) (arity - keys),
          0L, 0L, 0L, ""));
    }
    rows.sort((a, b) -> Values.compare(a, b));
    return new Engine.Result(List.of("name", "arity", "access_level", "n_keys", "n_non_keys",
        "n_put_triggers", "n_rm_triggers", "n_replace_triggers", "description"), rows);
  }

  /** {@code ::columns rel}: CozoDB's columns. */
  Engine.Result columns(String relation, Pos pos) {
    final String table = StoreCatalog.findTable(session, relation).orElseThrow(() ->
        error(pos, "query::relation_not_found", "Cannot find requested stored relation '" + relation + "'"));
    final List<String> keys = StoreCatalog.primaryKey(session, table).stream()
        .map(k -> (String) k[0]).collect(Collectors.toList());
    final List<List<Object>> rows = new ArrayList<>();
    long index = 0;
    for (String key : keys) {
      rows.add(Values.list(key, true, index++, cozoType(table, key), false));
    }
    for (Object[] c : StoreCatalog.columns(session, table)) {
      if (!keys.contains((String) c[0])) {
        rows.add(Values.list(c[0], false, index++, cozoType((Integer) c[1]), false));
      }
    }
    return new Engine.Result(List.of("column", "is_key", "index", "type", "has_default"), rows);
  }

  private String cozoType(String table, String column) {
    for (Object[] c : StoreCatalog.columns(session, table)) {
      if (c[0].equals(column)) {
        return cozoType((Integer) c[1]);
      }
    }
    return "Any";
  }

  private static String cozoType(int sqlType) {
    switch (sqlType) {
    case Types.BIGINT:
    case Types.INTEGER:
    case Types.SMALLINT:
    case Types.TINYINT:
      return "Int";
    case Types.DOUBLE:
    case Types.FLOAT:
    case Types.REAL:
    case Types.DECIMAL:
      return "Float";
    case Types.VARCHAR:
    case Types.CHAR:
      return "String";
    case Types.BOOLEAN:
      return "Bool";
    default:
      return "Any";
    }
  }

  /** {@code ::remove a, b}. */
  Engine.Result remove(List<String> relations, Pos pos) throws SQLException {
    for (String relation : relations) {
      final String table = StoreCatalog.findTable(session, relation).orElseThrow(() ->
          error(pos, "query::relation_not_found", "Cannot find requested stored relation '" + relation + "'"));
      execute("DROP TABLE " + quote(table));
    }
    return ok();
  }

  private void execute(String sql) throws SQLException {
    try (Statement s = session.getConnection().createStatement()) {
      s.execute(sql);
    }
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    final List<T> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  private static DatalogException error(Pos pos, String code, String message) {
    return new DatalogException(code, message, pos.line(), pos.column());
  }
}
