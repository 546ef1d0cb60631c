package dev.mnestic.jdbc;

import org.apache.calcite.avatica.AvaticaConnection;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;

import static dev.mnestic.jdbc.Rows.query;
import static dev.mnestic.jdbc.Rows.row;
import static dev.mnestic.jdbc.Rows.update;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JDBC API of the embedded driver: discovery, parameters, batches, result and database metadata. */
class JdbcApiTest {
  private Connection c;

  @BeforeEach void open() throws SQLException {
    c = DriverManager.getConnection("jdbc:mnestic:");
    update(c, "CREATE TABLE item (id INT NOT NULL, tag VARCHAR(8) NOT NULL, price DECIMAL(10, 2),"
        + " weight DOUBLE, seen TIMESTAMP, ok BOOLEAN, PRIMARY KEY (tag, id))");
  }

  @AfterEach void close() throws SQLException {
    c.close();
  }

  @Test void driverManagerFindsTheDriver() throws SQLException {
    final Driver driver = DriverManager.getDriver("jdbc:mnestic:");
    assertInstanceOf(dev.mnestic.jdbc.Driver.class, driver);
    assertEquals("mnestic", c.getMetaData().getDatabaseProductName());
  }

  @Test void timeZoneOfTheConnectionIsTheDefaultAndACopyEachCall() throws SQLException {
    final AvaticaConnection avatica = c.unwrap(AvaticaConnection.class);
    final TimeZone first = avatica.getTimeZone();
    assertEquals(TimeZone.getDefault().getID(), first.getID());
    final int offset = first.getRawOffset();
    // each caller gets its own copy: changing one changes no later one
    first.setRawOffset(offset + 3_600_000);
    assertEquals(offset, avatica.getTimeZone().getRawOffset());
  }

  @Test void preparedStatementsAndBatches() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "INSERT INTO item (id, tag, price, weight, ok) VALUES (?, ?, ?, ?, ?)")) {
      for (int i = 1; i <= 250; i++) {
        ps.setInt(1, i);
        ps.setString(2, i % 2 == 0 ? "even" : "odd");
        ps.setBigDecimal(3, new java.math.BigDecimal(i + ".25"));
        ps.setDouble(4, i / 4.0);
        ps.setBoolean(5, i % 3 == 0);
        ps.addBatch();
      }
      final int[] counts = ps.executeBatch();
      assertEquals(250, counts.length);
      for (int count : counts) {
        assertEquals(1, count);
      }
    }
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT tag, COUNT(*), SUM(weight) FROM item WHERE id > ? AND tag = ? GROUP BY tag")) {
      ps.setInt(1, 100);
      ps.setString(2, "even");
      try (ResultSet rs = ps.executeQuery()) {
        // even ids 102..250: 75 of them, weights summing to 75 * 176 / 4
        assertEquals(List.of(row("even", 75, 3300.0)), Rows.read(rs));
      }
      ps.setInt(1, 240);
      ps.setString(2, "odd");
      try (ResultSet rs = ps.executeQuery()) {
        assertEquals(List.of(row("odd", 5, (241 + 243 + 245 + 247 + 249) / 4.0)), Rows.read(rs));
      }
    }
    try (PreparedStatement ps = c.prepareStatement("UPDATE item SET ok = ? WHERE id <= ?")) {
      ps.setBoolean(1, true);
      ps.setInt(2, 10);
      assertEquals(10, ps.executeUpdate());
    }
    assertEquals(List.of(row(10)), query(c, "SELECT COUNT(*) FROM item WHERE id <= 10 AND ok"));
  }

  @Test void resultSetMetaDataHasTrueTypes() throws SQLException {
    try (ResultSet rs = c.createStatement().executeQuery(
        "SELECT id, tag, price, weight, seen, ok, COUNT(*) OVER () AS n FROM item")) {
      final ResultSetMetaData md = rs.getMetaData();
      final List<Integer> types = new ArrayList<>();
      final List<String> labels = new ArrayList<>();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        types.add(md.getColumnType(i));
        labels.add(md.getColumnLabel(i));
      }
      assertEquals(List.of(Types.INTEGER, Types.VARCHAR, Types.DECIMAL, Types.DOUBLE,
          Types.TIMESTAMP, Types.BOOLEAN, Types.BIGINT), types);
      assertEquals(List.of("id", "tag", "price", "weight", "seen", "ok", "n"), labels);
      assertEquals(10, md.getPrecision(3));
      assertEquals(2, md.getScale(3));
      assertEquals(ResultSetMetaData.columnNoNulls, md.isNullable(1));
    }
  }

  @Test void databaseMetaDataComesFromTheStore() throws SQLException {
    final DatabaseMetaData md = c.getMetaData();
    final List<String> schemas = column(md.getSchemas(), "TABLE_SCHEM");
    assertTrue(schemas.contains("PUBLIC"), schemas.toString());
    assertEquals(1, column(md.getCatalogs(), "TABLE_CAT").size());
    assertEquals(List.of("item"), column(md.getTables(null, "PUBLIC", "%", null), "TABLE_NAME"));
    assertEquals(List.of("id", "tag", "price", "weight", "seen", "ok"),
        column(md.getColumns(null, "PUBLIC", "item", null), "COLUMN_NAME"));
    try (ResultSet rs = md.getColumns(null, "PUBLIC", "item", "price")) {
      rs.next();
      assertEquals(Types.DECIMAL, rs.getInt("DATA_TYPE"));
      assertEquals(10, rs.getInt("COLUMN_SIZE"));
    }
    try (ResultSet rs = md.getColumns(null, null, "it%", "tag")) {
      rs.next();
      assertEquals(Types.VARCHAR, rs.getInt("DATA_TYPE"));
      assertEquals(8, rs.getInt("COLUMN_SIZE"), "the length the store enforces");
      assertEquals(DatabaseMetaData.columnNoNulls, rs.getInt("NULLABLE"));
    }
    // The store's real key, ordered by column name as JDBC says; KEY_SEQ is the key's order.
    try (ResultSet rs = md.getPrimaryKeys(null, "PUBLIC", "item")) {
      final List<List<Object>> keys = new ArrayList<>();
      while (rs.next()) {
        keys.add(row(rs.getString("TABLE_NAME"), rs.getString("COLUMN_NAME"), rs.getShort("KEY_SEQ")));
      }
      assertEquals(List.of(row("item", "id", 2), row("item", "tag", 1)), keys);
    }
    final List<String> typeNames = column(md.getTypeInfo(), "TYPE_NAME");
    for (String t : new String[] {"INTEGER", "VARCHAR", "DOUBLE", "DECIMAL", "TIMESTAMP", "BOOLEAN"}) {
      assertTrue(typeNames.contains(t), t + " in " + typeNames);
    }
    assertTrue(!typeNames.contains("CLOB"), "only types CREATE TABLE accepts: " + typeNames);
  }

  @Test void evaluationErrorsAreSqlExceptions() throws SQLException {
    final SQLException folded = assertThrows(SQLException.class, () -> query(c, "SELECT 1 / 0"));
    assertTrue(folded.getMessage().contains("division by zero"), folded.getMessage());
    update(c, "INSERT INTO item (id, tag) VALUES (1, 'abc')");
    // The cast runs in Calcite (over an aggregate), not in the store.
    final SQLException cast = assertThrows(SQLException.class,
        () -> query(c, "SELECT CAST(MIN(tag) AS INTEGER) FROM item"));
    assertTrue(cast.getMessage().contains("abc"), cast.getMessage());
    final SQLException badDb = assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:mnestic:db=mem:a b"));
    assertTrue(badDb.getMessage().contains("bad db property"), badDb.getMessage());
  }

  @Test void runawayQueryStopsAtItsTimeout() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      final long start = System.nanoTime();
      final SQLException e = assertThrows(SQLException.class, () -> {
        try (ResultSet rs = s.executeQuery("WITH RECURSIVE t (n) AS (VALUES (1)"
            + " UNION ALL SELECT n + 1 FROM t) SELECT COUNT(*) FROM t")) {
          rs.next();
        }
      });
      final double seconds = (System.nanoTime() - start) / 1e9;
      assertTrue(seconds < 30, "stopped after " + seconds + " s: " + e.getMessage());
      // The statement stays usable.
      try (ResultSet rs = s.executeQuery("SELECT 1")) {
        assertTrue(rs.next());
      }
    }
  }

  @Test void dropTableLeavesNoPrimaryKey() throws SQLException {
    update(c, "DROP TABLE item");
    try (ResultSet rs = c.getMetaData().getPrimaryKeys(null, "PUBLIC", "item")) {
      assertArrayEquals(new Object[0], Rows.read(rs).toArray());
    }
  }

  private static List<String> column(ResultSet rs, String name) throws SQLException {
    final List<String> values = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        values.add(rs.getString(name));
      }
    }
    return values;
  }
}
