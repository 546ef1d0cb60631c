package dev.mnestic.standing;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16, point 4: a script that would drop or make anew a table a standing query
 * reads ({@code :replace} with other columns, {@code ::remove}, {@code ::rename}) is refused
 * with 2BP01 as SQL's DROP TABLE is, at the op's line and column, and changes nothing: the
 * table, its rows and the standing query stay. Through the embedded driver: SQL and Datalog
 * connections on one store.
 */
class DatalogDropRefusedTest {
  private static final String P50 = "CREATE STANDING QUERY p50 AS SELECT TUMBLE_START(ts,"
      + " INTERVAL '1' MINUTE) AS w, APPROX_QUANTILE(latency, 0.5) AS p FROM lat"
      + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.01";

  @Test void scriptsMayNotDropATableAStandingQueryReads() throws SQLException {
    final String db = "mem:datalog-drop-" + UUID.randomUUID();
    try (Connection sql = DriverManager.getConnection("jdbc:mnestic:db=" + db);
         Connection datalog = DriverManager.getConnection(
             "jdbc:mnestic:db=" + db + ";lang=datalog");
         Statement s = sql.createStatement();
         Statement d = datalog.createStatement()) {
      TwoMinutes.create(s, "lat");
      s.execute("CREATE TABLE other (k INT PRIMARY KEY)");
      s.execute(P50);
      final SQLException replace = assertThrows(SQLException.class,
          () -> d.executeQuery("?[k] <- [[1]]\n:replace lat {k: Int}").close());
      assertEquals("2BP01", replace.getSQLState(), replace.getMessage());
      assertTrue(replace.getMessage().contains("2:1: cannot replace stored relation lat because"
          + " standing query p50 reads it [mnestic::table_read_elsewhere]"), replace.getMessage());
      // every relation is checked before any is dropped: other stays too
      final SQLException remove = assertThrows(SQLException.class,
          () -> d.executeQuery("::remove other, lat").close());
      assertEquals("2BP01", remove.getSQLState(), remove.getMessage());
      assertTrue(remove.getMessage().contains("1:1: cannot remove stored relation lat"),
          remove.getMessage());
      // so is renaming it, and nothing is renamed
      final SQLException rename = assertThrows(SQLException.class,
          () -> d.executeQuery("::rename other -> another, lat -> latency").close());
      assertEquals("2BP01", rename.getSQLState(), rename.getMessage());
      assertTrue(rename.getMessage().contains("1:1: cannot rename stored relation lat"),
          rename.getMessage());
      assertEquals(200, count(s, "lat"));
      assertEquals(0, count(s, "other"));
      assertEquals(2, count(s, "p50"));
      // a table no standing query reads goes, and so does lat once p50 is dropped
      d.executeQuery("::remove other").close();
      s.execute("DROP STANDING QUERY p50");
      d.executeQuery("?[k] <- [[1]]\n:replace lat {k: Int}").close();
      try (ResultSet rs = d.executeQuery("?[k] := *lat[k]")) {
        assertTrue(rs.next());
        assertEquals(1L, rs.getObject(1));
        assertFalse(rs.next());
      }
    }
  }

  private static int count(Statement s, String table) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      assertTrue(rs.next());
      return rs.getInt(1);
    }
  }
}
