package dev.mnestic.cli;

import dev.mnestic.datalog.Engine;
import dev.mnestic.value.Json;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;

/**
 * A result as a {@link ResultFormat} writes it: column labels, then rows whose cells are
 * written as text (a table or CSV cell) or as JSON. An SQL result's cells are its JDBC values,
 * written as {@link Values} says; a Datalog script's are CozoDB values, written as CozoDB
 * writes them ({@link dev.mnestic.value.Values#toJson}).
 */
interface Rows {
  /** The column labels. */
  String[] labels() throws SQLException;

  /** Moves to the next row; false after the last. */
  boolean next() throws SQLException;

  /** The text of the current row's cell {@code i} (from 0) in a table or CSV; null for NULL. */
  String text(int i) throws SQLException;

  /** Appends the JSON of the current row's cell {@code i} (from 0). */
  void appendJson(StringBuilder b, int i) throws SQLException;

  /** The rest of an SQL result set: labels by {@link ResultSetMetaData#getColumnLabel}. */
  static Rows of(ResultSet rs) {
    return new Rows() {
      @Override public String[] labels() throws SQLException {
        final ResultSetMetaData metaData = rs.getMetaData();
        final String[] labels = new String[metaData.getColumnCount()];
        for (int i = 0; i < labels.length; i++) {
          labels[i] = metaData.getColumnLabel(i + 1);
        }
        return labels;
      }

      @Override public boolean next() throws SQLException {
        return rs.next();
      }

      @Override public String text(int i) throws SQLException {
        final Object value = rs.getObject(i + 1);
        return value == null ? null : Values.text(value);
      }

      @Override public void appendJson(StringBuilder b, int i) throws SQLException {
        Values.appendJson(b, rs.getObject(i + 1));
      }
    };
  }

  /**
   * A Datalog script's result: a cell is CozoDB's JSON of its value
   * ({@link dev.mnestic.value.Values#toJson}: Bytes in Base64, the infinities
   * {@code "INFINITY"} and {@code "NEGATIVE_INFINITY"}, NaN {@code null}, a Json value its
   * document), except that in a table or CSV a string is its own text, null is NULL, and a value
   * other than a Json one whose JSON is a string (Bytes, a Uuid, an infinity: no escapes in
   * them) is that string without its quotes, so {@code AQI=} and {@code INFINITY}.
   */
  static Rows of(Engine.Result result) {
    return new Rows() {
      private int row = -1;

      @Override public String[] labels() {
        return result.headers().toArray(new String[0]);
      }

      @Override public boolean next() {
        return ++row < result.rows().size();
      }

      @Override public String text(int i) {
        final Object value = cell(i);
        if (value == null || value instanceof String) {
          return (String) value;
        }
        final String json = dev.mnestic.value.Values.toJson(value);
        return json.startsWith("\"") && !(value instanceof Json)
            ? json.substring(1, json.length() - 1) : json;
      }

      @Override public void appendJson(StringBuilder b, int i) {
        b.append(dev.mnestic.value.Values.toJson(cell(i)));
      }

      private Object cell(int i) {
        final List<Object> cells = result.rows().get(row);
        return cells.get(i);
      }
    };
  }
}
