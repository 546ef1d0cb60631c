package dev.mnestic.server;

import dev.mnestic.store.StoreLocation;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #13 (point 7): no client statement reaches HSQLDB's system tables, mnestic's
 * catalog schema MNESTIC or an HSQLDB feature that touches the host. Each statement below is
 * sent through the embedded driver and through the Avatica thin client to a started
 * {@link MnesticServer}; each fails with an SQLException that has a SQLSTATE, no file appears
 * in (or is read from) the directory the statements name, and a checksum of the whole store
 * (every table of every schema but HSQLDB's own, its rows, schemas, routines and users) is the
 * same afterwards.
 */
class HostEscapeTest {
  @TempDir static Path dir;
  private static MnesticServer server;
  private static Connection raw;
  private static String name;
  private static String secret;

  @BeforeAll static void start() throws Exception {
    name = "escape" + UUID.randomUUID().toString().replace("-", "");
    secret = "SECRET-" + UUID.randomUUID();
    Files.writeString(dir.resolve("secret.txt"), secret);
    server = MnesticServer.newBuilder().port(0).db("mem:" + name).build();
    server.start();
    raw = DriverManager.getConnection(StoreLocation.sharedMemory(name).hsqldbUrl(), "SA", "");
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=mem:" + name);
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (k INT PRIMARY KEY, v VARCHAR(200))");
      s.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
      s.execute("CREATE TABLE requests (ts TIMESTAMP NOT NULL, latency DOUBLE NOT NULL)");
      s.execute("INSERT INTO requests VALUES (TIMESTAMP '2026-01-01 00:00:00', 1.5)");
      s.execute("CREATE STANDING QUERY p95 AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(latency, 0.95) AS p95 FROM requests"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01");
    }
  }

  @AfterAll static void stop() throws Exception {
    server.close();
    raw.close();
  }

  /** A file path in the test's directory, as an SQL string literal's content. */
  private static String file(String name) {
    return dir.resolve(name).toString();
  }

  /** SQL statements that would read HSQLDB's system tables or the catalog, or touch the host. */
  static List<String> sql() {
    final String secretFile = file("secret.txt");
    return List.of(
        // MERGE reading HSQLDB's system tables or writing the standing-query catalog
        "MERGE INTO t USING INFORMATION_SCHEMA.SYSTEM_SESSIONS s ON t.k = s.SESSION_ID"
            + " WHEN NOT MATCHED THEN INSERT VALUES (100, s.CURRENT_STATEMENT)",
        "MERGE INTO t USING (SELECT TABLE_NAME FROM INFORMATION_SCHEMA.SYSTEM_TABLES) s"
            + " ON t.v = s.TABLE_NAME WHEN NOT MATCHED THEN INSERT VALUES (101, s.TABLE_NAME)",
        "MERGE INTO t USING (VALUES (1)) s (k) ON t.k = s.k WHEN MATCHED THEN UPDATE SET"
            + " v = (SELECT MAX(CURRENT_STATEMENT) FROM INFORMATION_SCHEMA.SYSTEM_SESSIONS)",
        "MERGE INTO MNESTIC.STANDING_QUERY q USING (VALUES ('P95')) s (n) ON q.NAME = s.n"
            + " WHEN MATCHED THEN UPDATE SET DEFINITION = 'garbage'",
        "MERGE INTO \"MNESTIC\".\"STANDING_QUERY\" q USING (VALUES ('x')) s (n) ON q.NAME = s.n"
            + " WHEN NOT MATCHED THEN INSERT (NAME, DEFINITION) VALUES (s.n, 'garbage')",
        "MERGE INTO t USING MNESTIC.STANDING_QUERY q ON t.v = q.NAME"
            + " WHEN NOT MATCHED THEN INSERT VALUES (102, q.DEFINITION)",
        "MERGE INTO t USING (VALUES (1)) s (k) ON t.k = s.k"
            + " WHEN MATCHED THEN UPDATE SET v = LOAD_FILE('" + secretFile + "')",
        "MERGE INTO INFORMATION_SCHEMA.SYSTEM_USERS u USING (VALUES ('SA')) s (n)"
            + " ON u.USER_NAME = s.n WHEN MATCHED THEN UPDATE SET ADMIN = FALSE",
        "MERGE INTO t USING SYSTEM_LOBS.LOBS l ON t.k = l.LOB_ID"
            + " WHEN NOT MATCHED THEN INSERT VALUES (103, 'lob')",
        // other statements naming system tables or the catalog
        "SELECT * FROM INFORMATION_SCHEMA.SYSTEM_SESSIONS",
        "SELECT CURRENT_STATEMENT FROM \"INFORMATION_SCHEMA\".\"SYSTEM_SESSIONS\"",
        "SELECT * FROM MNESTIC.STANDING_QUERY",
        "INSERT INTO MNESTIC.STANDING_QUERY (NAME, DEFINITION) VALUES ('x', 'garbage')",
        "UPDATE MNESTIC.STANDING_QUERY SET DEFINITION = 'garbage'",
        "DELETE FROM \"MNESTIC\".\"STANDING_QUERY\"",
        "UPDATE INFORMATION_SCHEMA.SYSTEM_USERS SET ADMIN = FALSE",
        "INSERT INTO t SELECT 104, CURRENT_STATEMENT FROM INFORMATION_SCHEMA.SYSTEM_SESSIONS",
        // HSQLDB features that touch the host
        "SCRIPT '" + file("script.sql") + "'",
        "SELECT LOAD_FILE('" + secretFile + "') FROM t",
        "SELECT * FROM t WHERE k = 1 AND v = LOAD_FILE('" + secretFile + "')",
        "CALL \"java.lang.System.getProperty\"('user.home')",
        "CREATE FUNCTION home(x VARCHAR(100)) RETURNS VARCHAR(100) LANGUAGE JAVA"
            + " EXTERNAL NAME 'CLASSPATH:java.lang.System.getProperty'",
        "CREATE FUNCTION home AS 'java.lang.System'",
        "CHECKPOINT",
        "SHUTDOWN",
        "BACKUP DATABASE TO '" + file("backup/") + "' BLOCKING",
        "SET FILES LOG FALSE",
        "CREATE TEXT TABLE tx (a INT)",
        "SET TABLE t SOURCE '" + file("t.csv") + "'",
        "CREATE USER intruder PASSWORD 'x' ADMIN",
        "GRANT ALL ON t TO PUBLIC",
        "SET DATABASE TRANSACTION CONTROL LOCKS",
        // DDL that would carry text or names to HSQLDB
        "CREATE TABLE d1 (a VARCHAR(100) DEFAULT LOAD_FILE('" + secretFile + "'))",
        "CREATE TABLE d2 (a VARCHAR(100) DEFAULT (SELECT MAX(CURRENT_STATEMENT)"
            + " FROM INFORMATION_SCHEMA.SYSTEM_SESSIONS))",
        "CREATE TABLE d3 (a VARCHAR(100) DEFAULT CURRENT_USER)",
        "CREATE TABLE d4 (a VARCHAR(100) AS (LOAD_FILE('" + secretFile + "')) VIRTUAL)",
        "CREATE TABLE d5 (a INT, CHECK (a > (SELECT COUNT(*) FROM MNESTIC.STANDING_QUERY)))",
        "CREATE TABLE MNESTIC.d6 (a INT)",
        "CREATE TABLE INFORMATION_SCHEMA.d7 (a INT)",
        "DROP TABLE MNESTIC.STANDING_QUERY",
        "DROP TABLE \"MNESTIC\".\"STANDING_QUERY\"",
        "CREATE VIEW v AS SELECT * FROM INFORMATION_SCHEMA.SYSTEM_SESSIONS",
        "CREATE SCHEMA intruder");
  }

  /** CozoScript naming system tables or the catalog as stored relations. */
  static List<String> datalog() {
    return List.of(
        "?[n, d] := *MNESTIC.STANDING_QUERY[_, n, d]",
        "?[n, d, p] := *MNESTIC.STANDING_QUERY{NAME: n, DEFINITION: d, POSITION: p}",
        "?[s] := *INFORMATION_SCHEMA.SYSTEM_SESSIONS[s]",
        "?[NAME, DEFINITION] <- [['P95', 'garbage']] :put MNESTIC.STANDING_QUERY"
            + " {NAME => DEFINITION}",
        "?[NAME, DEFINITION] <- [['P95', 'garbage']] :update MNESTIC.STANDING_QUERY"
            + " {NAME => DEFINITION}",
        "?[NAME] <- [['P95']] :rm MNESTIC.STANDING_QUERY {NAME}",
        "?[SESSION_ID] <- [[1]] :delete INFORMATION_SCHEMA.SYSTEM_SESSIONS {SESSION_ID}",
        "::remove MNESTIC.STANDING_QUERY",
        "::remove INFORMATION_SCHEMA.SYSTEM_USERS",
        "::rename MNESTIC.STANDING_QUERY -> sq",
        "::rename INFORMATION_SCHEMA.SYSTEM_USERS -> users",
        "::columns MNESTIC.STANDING_QUERY",
        "::columns INFORMATION_SCHEMA.SYSTEM_SESSIONS",
        "?[NAME, DEFINITION] <- [['x', 'y']] :replace MNESTIC.STANDING_QUERY"
            + " {NAME: String => DEFINITION: String}",
        "?[NAME, DEFINITION] <- [['x', 'y']] :create \"MNESTIC\".\"STANDING_QUERY\""
            + " {NAME: String => DEFINITION: String}");
  }

  @Test void embeddedRefusesEveryStatement() throws Exception {
    refuseAll(() -> DriverManager.getConnection("jdbc:mnestic:db=mem:" + name),
        () -> DriverManager.getConnection("jdbc:mnestic:db=mem:" + name + ";lang=datalog"));
  }

  @Test void remoteRefusesEveryStatement() throws Exception {
    final Properties datalog = new Properties();
    datalog.setProperty("lang", "datalog");
    refuseAll(() -> DriverManager.getConnection(server.jdbcUrl()),
        () -> DriverManager.getConnection(server.jdbcUrl(), datalog));
  }

  /** The standing query still answers, and the catalog lists no other schema's tables. */
  @Test void catalogIsIntactAndHidden() throws Exception {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT * FROM p95")) {
        assertTrue(rs.next());
      }
      try (ResultSet rs = c.getMetaData().getTables(null, null, null, null)) {
        while (rs.next()) {
          assertFalse(List.of("MNESTIC", "INFORMATION_SCHEMA", "SYSTEM_LOBS")
              .contains(rs.getString("TABLE_SCHEM")), rs.getString("TABLE_NAME"));
        }
      }
    }
    final Properties datalog = new Properties();
    datalog.setProperty("lang", "datalog");
    try (Connection c = DriverManager.getConnection(server.jdbcUrl(), datalog);
         Statement s = c.createStatement(); ResultSet rs = s.executeQuery("::relations")) {
      final List<String> relations = new ArrayList<>();
      while (rs.next()) {
        relations.add(rs.getString(1));
      }
      assertEquals(List.of("requests", "t"), relations.stream().sorted().toList());
    }
  }

  /**
   * A name is a name: a column whose name holds a quote and SQL after it is measured by the
   * standing-query planner as that column (the name's quote doubled), not as SQL over
   * HSQLDB's system tables.
   */
  @Test void quotedNamesStayNames() throws Exception {
    final String value = "v\"), 0, 0, 0, 0 FROM INFORMATION_SCHEMA.SYSTEM_SESSIONS --";
    final String quoted = "\"" + value.replace("\"", "\"\"") + "\"";
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE \"q\"\"t\" (ts TIMESTAMP NOT NULL, " + quoted + " DOUBLE NOT NULL)");
      s.execute("INSERT INTO \"q\"\"t\" VALUES (TIMESTAMP '2026-01-01 00:00:00', 2.5),"
          + " (TIMESTAMP '2026-01-01 00:00:30', 3.5)");
      s.execute("CREATE STANDING QUERY qt AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(" + quoted + ", 0.5) AS m FROM \"q\"\"t\""
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01");
      try (ResultSet rs = s.executeQuery("SELECT * FROM qt")) {
        assertTrue(rs.next());
        final double median = rs.getDouble("m");
        assertTrue(median >= 2.5 && median <= 3.5, "median " + median);
        assertFalse(rs.next());
      }
      s.execute("DROP STANDING QUERY qt");
      s.execute("DROP TABLE \"q\"\"t\"");
    }
  }

  @FunctionalInterface
  private interface Opener {
    Connection open() throws SQLException;
  }

  private static void refuseAll(Opener sql, Opener datalog) throws Exception {
    final String before = checksum();
    int refused = 0;
    try (Connection c = sql.open(); Connection d = datalog.open()) {
      for (String statement : sql()) {
        refuse(c, statement);
        refused++;
      }
      for (String script : datalog()) {
        refuse(d, script);
        refused++;
      }
    }
    assertEquals(sql().size() + datalog().size(), refused);
    assertTrue(refused >= 30, "only " + refused + " statements");
    assertEquals(before, checksum());
  }

  private static void refuse(Connection c, String statement) throws Exception {
    final String before = checksum();
    final SQLException e = assertThrows(SQLException.class, () -> {
      try (Statement s = c.createStatement()) {
        s.execute(statement);
      }
    }, statement);
    assertNotNull(e.getSQLState(), () -> "no SQLSTATE for " + statement + ": " + e);
    assertFalse(String.valueOf(e.getMessage()).contains(secret), statement);
    assertEquals(before, checksum(), statement);
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of("secret.txt"),
          files.map(p -> p.getFileName().toString()).toList(), statement);
    }
  }

  /**
   * A digest of the store: every schema, table and column but HSQLDB's own, the rows of each
   * table (the catalog MNESTIC.STANDING_QUERY among them), the routines and the users.
   */
  private static String checksum() throws Exception {
    final MessageDigest digest = MessageDigest.getInstance("SHA-256");
    final String others = " NOT IN ('INFORMATION_SCHEMA', 'SYSTEM_LOBS')";
    final List<String[]> tables = new ArrayList<>();
    try (Statement s = raw.createStatement()) {
      for (String query : List.of(
          "SELECT SCHEMA_NAME FROM INFORMATION_SCHEMA.SCHEMATA ORDER BY 1",
          "SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE FROM INFORMATION_SCHEMA.TABLES"
              + " WHERE TABLE_SCHEMA" + others + " ORDER BY 1, 2",
          "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, DATA_TYPE, COLUMN_DEFAULT"
              + " FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA" + others + " ORDER BY 1, 2, 3",
          "SELECT ROUTINE_SCHEMA, SPECIFIC_NAME FROM INFORMATION_SCHEMA.ROUTINES"
              + " WHERE ROUTINE_SCHEMA" + others + " AND ROUTINE_SCHEMA <> 'SYSTEM' ORDER BY 1, 2",
          "SELECT USER_NAME, ADMIN FROM INFORMATION_SCHEMA.SYSTEM_USERS ORDER BY 1")) {
        digestRows(digest, s, query);
      }
      try (ResultSet rs = s.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME"
          + " FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_TYPE = 'BASE TABLE'"
          + " AND TABLE_SCHEMA" + others + " ORDER BY 1, 2")) {
        while (rs.next()) {
          tables.add(new String[] {rs.getString(1), rs.getString(2)});
        }
      }
      for (String[] table : tables) {
        digestRows(digest, s, "SELECT * FROM \"" + table[0] + "\".\"" + table[1]
            + "\" ORDER BY 1");
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  private static void digestRows(MessageDigest digest, Statement s, String query)
      throws SQLException {
    digest.update(query.getBytes(UTF_8));
    try (ResultSet rs = s.executeQuery(query)) {
      final int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        for (int i = 1; i <= n; i++) {
          digest.update(String.valueOf(rs.getObject(i)).getBytes(UTF_8));
          digest.update((byte) 0);
        }
      }
    }
  }
}
