package dev.mnestic.examples;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A JDBC program against mnestic, using nothing but {@code java.sql}: it
 * creates a table, loads it in one transaction with a batched prepared
 * statement, and asks which memories matter most per kind.
 *
 * <p>Run: {@code java -cp jdbc-driver/target/mnestic-jdbc-driver-0.1.0-SNAPSHOT-all.jar:examples/target/classes
 * dev.mnestic.examples.JdbcExample [JDBC-URL]}; the URL defaults to an
 * in-memory store, and may be a remote one
 * ({@code jdbc:avatica:remote:url=http://127.0.0.1:8765;serialization=protobuf}).
 */
public final class JdbcExample {
  private JdbcExample() {
  }

  public static void main(String[] args) throws SQLException {
    run(args.length > 0 ? args[0] : "jdbc:mnestic:", System.out);
  }

  static void run(String url, PrintStream out) throws SQLException {
    try (Connection c = DriverManager.getConnection(url)) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE memory (id VARCHAR(8) PRIMARY KEY,"
            + " kind VARCHAR(10) NOT NULL, importance DOUBLE NOT NULL)");
      }
      c.setAutoCommit(false);
      final Object[][] rows = {
          {"m1", "episodic", 0.6}, {"m2", "decision", 0.9}, {"m3", "episodic", 0.7},
          {"m4", "incident", 0.8}, {"m5", "decision", 0.85}, {"m6", "episodic", 0.5},
      };
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO memory VALUES (?, ?, ?)")) {
        for (Object[] row : rows) {
          insert.setString(1, (String) row[0]);
          insert.setString(2, (String) row[1]);
          insert.setDouble(3, (Double) row[2]);
          insert.addBatch();
        }
        insert.executeBatch();
      }
      c.commit();
      try (PreparedStatement top = c.prepareStatement(
          "SELECT kind, id, importance FROM (SELECT kind, id, importance,"
              + " ROW_NUMBER() OVER (PARTITION BY kind ORDER BY importance DESC) AS r"
              + " FROM memory WHERE importance >= ?) WHERE r = 1 ORDER BY kind")) {
        top.setDouble(1, 0.55);
        try (ResultSet rs = top.executeQuery()) {
          while (rs.next()) {
            out.println(rs.getString("kind") + " " + rs.getString("id") + " "
                + rs.getDouble("importance"));
          }
        }
      }
    }
  }
}
