package dev.mnestic.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jdbc:mnestic:} URLs as people mistype them: each a connection that does what it says or
 * an SQLException with SQLSTATE 08001 saying what is wrong, never a connection that silently
 * ignores part of its URL.
 */
class DriverUrlTest {
  private static String firstValue(String url, String statement) throws SQLException {
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery(statement)) {
      assertTrue(rs.next());
      return rs.getString(1);
    }
  }

  @Test void aLeadingSemicolonReadsAsHsqldbsUrlsDo() throws SQLException {
    assertEquals("3", firstValue("jdbc:mnestic:;lang=datalog", "?[x] := x = 1 + 2"));
    assertEquals("3", firstValue("jdbc:mnestic:lang=datalog", "?[x] := x = 1 + 2"));
    assertEquals("2", firstValue("jdbc:mnestic:lang=sql", "SELECT 1 + 1"));
  }

  @Test void mistakesAreRefused() {
    assertRefused("jdbc:mnestic:lang=cobol", "connection property lang must be sql or datalog,"
        + " was 'cobol'");
    assertRefused("jdbc:mnestic:db", "connection property db needs a value");
    assertRefused("jdbc:mnestic:db=", "connection property db needs a value");
    assertRefused("jdbc:mnestic:lang='datalog", "bad URL jdbc:mnestic:lang='datalog: ");
    assertRefused("jdbc:mnestic:colour=blue", "connection property 'colour' is not accepted;");
    assertRefused("jdbc:mnestic:;;lang=sql", "connection property ';lang' is not accepted;");
    assertRefused("jdbc:mnestic:db=http://example.org/db",
        "bad db property: 'http:' is not a kind of store: give a directory, file:DIRECTORY or"
            + " mem:NAME");
    assertRefused("jdbc:mnestic:db=file:", "bad db property: file: needs a directory");
  }

  @Test void aFileUrlNamesTheDirectoryAfterIt(@TempDir Path dir) throws SQLException {
    final Path store = dir.resolve("metrics");
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=file:" + store);
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (x INTEGER)");
      s.execute("INSERT INTO t VALUES (7)");
    }
    assertTrue(Files.isDirectory(store), "no store in " + store);
    assertEquals("7", firstValue("jdbc:mnestic:db=" + store, "SELECT x FROM t"));
    assertFalse(Files.exists(Path.of("file:")), "a directory named file: was made");
  }

  private static void assertRefused(String url, String message) {
    final SQLException e = assertThrows(SQLException.class, () -> firstValue(url, "SELECT 1"));
    assertEquals("08001", e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }
}
