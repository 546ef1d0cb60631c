package dev.mnestic.server;

import dev.mnestic.jdbc.Driver;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Test case for #14 (point 3): failing statements get a standard SQLSTATE and a message that
 * says what went wrong, the same through a Statement and a PreparedStatement, embedded and
 * through the server (state and vendor code), and the same state as HSQLDB's own driver gives
 * for the statement on the same store: the whole state for data and integrity errors, the
 * class (42: syntax or access rule) where HSQLDB's subclasses are its own (42581, 42501).
 */
class SqlStateTest {
  @TempDir static Path dir;
  private static MnesticServer server;

  /**
   * A statement that fails, what mnestic says, how much of HSQLDB's state must agree, and
   * whether the store itself refuses it (then with HSQLDB's vendor code as well).
   */
  private record Case(String sql, String state, String words, int agree, boolean store) {
    Case(String sql, String state, String words, int agree) {
      this(sql, state, words, agree, false);
    }
  }

  /** Written with quoted names, so HSQLDB (which upper-cases plain ones) reads it alike. */
  private static final List<Case> CASES = List.of(
      new Case("INSERT INTO \"t\" VALUES (1, 'b', 2)", "23505", "unique constraint", 5, true),
      new Case("INSERT INTO \"t\" VALUES (2, 'b', 1)", "23505", "unique constraint", 5, true),
      new Case("INSERT INTO \"t\" VALUES (3, NULL, 3)", "23502", "does not allow NULLs", 5),
      new Case("INSERT INTO \"t\" VALUES (4, 'abcdefgh', 4)", "22001", "right truncation", 5, true),
      new Case("INSERT INTO \"c\" VALUES (1, 99)", "23503", "foreign key", 5, true),
      new Case("SELECT 1 / 0 FROM \"t\"", "22012", "division by zero", 5),
      new Case("SELECT \"id\" / 0 FROM \"t\"", "22012", "division by zero", 5),
      new Case("INSERT INTO \"t\" VALUES (2147483647 + 1, 'z', 9)", "22003", "out of range", 5),
      new Case("UPDATE \"t\" SET \"u\" = \"id\" + 2147483647", "22003", "out of range", 5),
      new Case("SELECT CAST('x' AS INT) FROM \"t\"", "22018", "invalid number", 5),
      new Case("SELECT CAST('2020-13-45' AS DATE) FROM \"t\"", "22007", "2020-13-45", 5),
      new Case("SELEC 1", "42601", "at line 1, column 1", 2),
      new Case("SELECT 1 FORM \"t\"", "42601", "at line 1, column 15", 2),
      new Case("SELECT * FROM \"nosuch\"", "42S02", "'nosuch' not found", 2),
      new Case("SELECT \"nosuch\" FROM \"t\"", "42S22", "'nosuch' not found", 2));

  @BeforeAll static void start() throws Exception {
    final String db = dir.resolve("store").toString();
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=" + db);
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(5) NOT NULL, u INT UNIQUE)");
      s.execute("INSERT INTO t VALUES (1, 'a', 1)");
    }
    // mnestic's DDL has no foreign keys; the store has them.
    try (Connection c = DriverManager.getConnection(hsqldbUrl());
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE \"c\" (\"id\" INT PRIMARY KEY,"
          + " \"tid\" INT REFERENCES \"t\"(\"id\"))");
    }
    server = MnesticServer.newBuilder().port(0).db(db).build();
    server.start();
  }

  @AfterAll static void stop() throws Exception {
    server.close();
  }

  private static String hsqldbUrl() {
    return "jdbc:hsqldb:file:" + dir.resolve("store").resolve("store") + ";shutdown=true";
  }

  @Test void statesAgreeWithHsqldbEmbeddedAndRemote() throws Exception {
    final List<String> wrong = new ArrayList<>();
    try (Connection mnestic = DriverManager.getConnection(
             "jdbc:mnestic:db=" + dir.resolve("store"));
         Connection remote = DriverManager.getConnection(server.jdbcUrl());
         Connection thin = ThinClient.connect(server);
         Connection hsqldb = DriverManager.getConnection(hsqldbUrl())) {
      for (Case c : CASES) {
        final SQLException theirs = fails(hsqldb, c.sql, false);
        for (boolean prepared : new boolean[] {false, true}) {
          final SQLException embedded = fails(mnestic, c.sql, prepared);
          final String how = (prepared ? "prepared " : "") + c.sql;
          check(wrong, how, c.state, embedded.getSQLState());
          check(wrong, how + " (HSQLDB's)", theirs.getSQLState().substring(0, c.agree),
              embedded.getSQLState().substring(0, c.agree));
          if (!embedded.getMessage().contains(c.words)) {
            wrong.add(how + ": message " + embedded.getMessage());
          }
          if (embedded.getMessage().matches("(?s).*\\b\\w+(Exception|Error)\\b.*")) {
            wrong.add(how + ": names a Java exception: " + embedded.getMessage());
          }
          if (c.store) {
            // The store's own failures keep its vendor code.
            check(wrong, how + " vendor code", Integer.toString(theirs.getErrorCode()),
                Integer.toString(embedded.getErrorCode()));
          }
          final SQLException stock = fails(remote, c.sql, prepared);
          check(wrong, how + " (remote)", embedded.getSQLState(), stock.getSQLState());
          check(wrong, how + " (remote vendor code)", Integer.toString(embedded.getErrorCode()),
              Integer.toString(stock.getErrorCode()));
          if (!prepared && !stock.getMessage().contains(embedded.getMessage())) {
            // Avatica's thin client says only "while preparing SQL: ..." for a prepare.
            wrong.add(how + " (remote): message " + stock.getMessage());
          }
          // mnestic's thin client fails as the server said: the same state, code and message.
          final SQLException ours = fails(thin, c.sql, prepared);
          check(wrong, how + " (jdbc:mnestic:remote:)", embedded.getSQLState() + " "
              + embedded.getErrorCode() + " " + embedded.getMessage(), ours.getSQLState() + " "
              + ours.getErrorCode() + " " + ours.getMessage());
        }
      }
    }
    assertEquals(List.of(), wrong);
  }

  /**
   * INTEGER arithmetic past INTEGER's range fails with 22003, as in PostgreSQL, embedded and
   * through the server; Calcite's Java arithmetic wrapped around silently. (HSQLDB gives an
   * INTEGER sum as a BIGINT and a BIGINT one as a DECIMAL, so it fails only when storing the
   * value, which {@link #CASES} compare.)
   */
  @Test void integerOverflowIsOutOfRange() throws Exception {
    for (String url : List.of("jdbc:mnestic:db=" + dir.resolve("store"), server.jdbcUrl())) {
      try (Connection c = DriverManager.getConnection(url)) {
        for (String sql : List.of("SELECT CAST(2147483647 AS INT) + 1 FROM \"t\"",
            "SELECT \"id\" + 2147483647 FROM \"t\"", "SELECT \"u\" * -2147483647 * 2 FROM \"t\"",
            "SELECT -CAST(-2147483648 AS INT) FROM \"t\"")) {
          for (boolean prepared : new boolean[] {false, true}) {
            final SQLException e = fails(c, sql, prepared);
            assertEquals("22003", e.getSQLState(), url + " " + sql + ": " + e.getMessage());
            assertTrue(e.getMessage().contains("out of range"), e.getMessage());
          }
        }
        // In range, the same arithmetic answers.
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT \"id\" + 2147483646, -\"u\" * 2147483647,"
                 + " SUM(CAST(2147483647 AS BIGINT) + \"id\") FROM \"t\" GROUP BY \"id\", \"u\"")) {
          assertTrue(rs.next());
          assertEquals(2147483647, rs.getInt(1));
          assertEquals(-2147483647, rs.getInt(2));
          assertEquals(2147483648L, rs.getLong(3));
        }
      }
    }
  }

  /** Script errors get a state by their CozoDB code, which their message keeps. */
  @Test void datalogErrorsHaveFittingStates() throws Exception {
    final Properties datalog = new Properties();
    datalog.setProperty(Driver.LANG, Driver.DATALOG);
    final String[][] cases = {
        {"?[x] := *nosuch[x]", "42S02", "[query::relation_not_found]"},
        {"?[x] := x = ", "42601", "[parser::pest]"},
        {"?[x] := x = to_int('q')", "22000", "[eval::throw]"},
        {"?[x] := y = 1", "42000", "[eval::unbound_symb_in_head]"},
        {"::rename renamed_a -> renamed_b", "42S01", "[eval::rel_name_conflict]"},
    };
    for (String url : List.of("jdbc:mnestic:db=" + dir.resolve("store"), server.jdbcUrl())) {
      try (Connection c = DriverManager.getConnection(url, datalog);
           Statement s = c.createStatement()) {
        s.execute(":create renamed_a {x}");
        s.execute(":create renamed_b {x}");
        for (String[] k : cases) {
          final SQLException e = fails(c, k[0], false);
          assertEquals(k[1], e.getSQLState(), url + " " + k[0] + ": " + e.getMessage());
          assertTrue(e.getMessage().contains(k[2]), e.getMessage());
          assertFalse(e.getMessage().contains("Exception"), e.getMessage());
        }
        s.execute("::remove renamed_a, renamed_b");
      }
    }
  }

  private static void check(List<String> wrong, String how, String expected, String actual) {
    if (!expected.equals(actual)) {
      wrong.add(how + ": expected " + expected + ", was " + actual);
    }
  }

  private static SQLException fails(Connection c, String sql, boolean prepared) {
    return assertThrows(SQLException.class, () -> {
      if (prepared) {
        try (PreparedStatement p = c.prepareStatement(sql)) {
          run(p.execute() ? p.getResultSet() : null);
        }
      } else {
        try (Statement s = c.createStatement()) {
          run(s.execute(sql) ? s.getResultSet() : null);
        }
      }
    }, sql);
  }

  private static void run(ResultSet rs) throws SQLException {
    if (rs != null) {
      while (rs.next()) {
        rs.getObject(1);
      }
      fail("no failure");
    }
  }
}
