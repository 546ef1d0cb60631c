package dev.mnestic.server;

import dev.mnestic.jdbc.Driver;

import org.junit.jupiter.api.Test;

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

/**
 * Test case for #14 (point 7): SQL and CozoScript literals hold any Unicode text (Calcite's
 * default charset, ISO-8859-1, refused {@code '部門'}), which is stored and read back as it
 * was, embedded and through the server.
 */
class UnicodeTextTest {
  /** CJK, Latin with diacritics, a character outside the BMP, right-to-left script. */
  private static final List<String> TEXTS = List.of("部門", "straße", "😀x", "שלום", "e\u0301");

  @Test void sqlLiteralsStoredAndRead() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).db("mem:unicode-sql").build()) {
      server.start();
      try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=mem:unicode-sql");
           Statement s = c.createStatement()) {
        s.execute("CREATE TABLE d (id INT PRIMARY KEY, name VARCHAR(10))");
        for (int i = 0; i < TEXTS.size(); i++) {
          s.execute("INSERT INTO d VALUES (" + i + ", '" + TEXTS.get(i) + "')");
        }
      }
      for (String url : List.of("jdbc:mnestic:db=mem:unicode-sql", server.jdbcUrl())) {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
          for (int i = 0; i < TEXTS.size(); i++) {
            final String text = TEXTS.get(i);
            assertEquals(List.of(text), column(s.executeQuery("SELECT '" + text + "'")), url);
            assertEquals(List.of(Integer.toString(i)), column(s.executeQuery(
                "SELECT id FROM d WHERE name = '" + text + "'")), url + " " + text);
            try (PreparedStatement p = c.prepareStatement("SELECT name FROM d WHERE id = ?")) {
              p.setInt(1, i);
              assertEquals(List.of(text), column(p.executeQuery()), url);
            }
          }
          assertEquals(List.of("部門x"), column(s.executeQuery(
              "SELECT name || 'x' FROM d WHERE name LIKE '部%'")), url);
        }
      }
    }
  }

  @Test void cozoScriptLiteralsStoredAndRead() throws Exception {
    final Properties datalog = new Properties();
    datalog.setProperty(Driver.LANG, Driver.DATALOG);
    try (MnesticServer server = MnesticServer.newBuilder().port(0).db("mem:unicode-cozo")
        .build()) {
      server.start();
      try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=mem:unicode-cozo",
          datalog); Statement s = c.createStatement()) {
        s.execute(":create u {id: Int => name: String}");
        for (int i = 0; i < TEXTS.size(); i++) {
          s.execute("?[id, name] <- [[" + i + ", \"" + TEXTS.get(i) + "\"]] :put u {id => name}");
        }
      }
      for (String url : List.of("jdbc:mnestic:db=mem:unicode-cozo", server.jdbcUrl())) {
        try (Connection c = DriverManager.getConnection(url, datalog);
             Statement s = c.createStatement()) {
          for (int i = 0; i < TEXTS.size(); i++) {
            final String text = TEXTS.get(i);
            assertEquals(List.of(text), column(s.executeQuery("?[x] := x = \"" + text + "\"")));
            assertEquals(List.of(Integer.toString(i)), column(s.executeQuery(
                "?[id] := *u{id, name}, name == \"" + text + "\"")), url + " " + text);
          }
        }
      }
    }
  }

  private static List<String> column(ResultSet rs) throws SQLException {
    final List<String> values = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        values.add(rs.getString(1));
      }
    }
    return values;
  }
}
