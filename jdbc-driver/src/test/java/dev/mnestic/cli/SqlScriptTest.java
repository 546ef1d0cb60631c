package dev.mnestic.cli;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests {@link SqlScript#split}. */
class SqlScriptTest {
  private static List<String> texts(String script) {
    return SqlScript.split(script).stream().map(SqlScript.Statement::text)
        .collect(Collectors.toList());
  }

  @Test void splitsAtSemicolons() {
    assertEquals(List.of("SELECT 1", "SELECT 2"), texts("SELECT 1; SELECT 2"));
    assertEquals(List.of("SELECT 1"), texts("SELECT 1"));
    assertEquals(List.of("SELECT 1"), texts("SELECT 1;"));
  }

  @Test void skipsEmptyStatements() {
    assertEquals(List.of(), texts(""));
    assertEquals(List.of(), texts(" ;\n ; ;"));
    assertEquals(List.of("SELECT 1", "SELECT 2"), texts(";;SELECT 1;;\n;SELECT 2;;"));
    assertEquals(List.of(), texts("-- nothing here\n/* nor; here */;"));
  }

  @Test void keepsSemicolonsInStrings() {
    assertEquals(List.of("SELECT 'a;b'", "SELECT 2"), texts("SELECT 'a;b'; SELECT 2"));
    assertEquals(List.of("SELECT 'it''s; fine'", "SELECT 2"),
        texts("SELECT 'it''s; fine'; SELECT 2"));
    assertEquals(List.of("SELECT ''';'''", "SELECT 2"), texts("SELECT ''';'''; SELECT 2"));
    assertEquals(List.of("SELECT '--;/*'", "SELECT 2"), texts("SELECT '--;/*'; SELECT 2"));
    assertEquals(List.of("SELECT E'it\\'s;'", "SELECT 2"), texts("SELECT E'it\\'s;'; SELECT 2"));
    assertEquals(List.of("SELECT 'line\n;line'"), texts("SELECT 'line\n;line'"));
  }

  @Test void keepsSemicolonsInQuotedIdentifiers() {
    assertEquals(List.of("SELECT 1 AS \"a;\"\"b\"", "SELECT 2"),
        texts("SELECT 1 AS \"a;\"\"b\"; SELECT 2"));
  }

  @Test void ignoresSemicolonsInComments() {
    assertEquals(List.of("SELECT 1", "SELECT 2"), texts("SELECT 1 -- one; two\n; SELECT 2"));
    assertEquals(List.of("SELECT 1", "SELECT 2"), texts("SELECT 1 // one; two\n; SELECT 2"));
    assertEquals(List.of("SELECT /* a; b */ 1", "SELECT 2"),
        texts("/* lead; */ SELECT /* a; b */ 1; SELECT 2 /* trail; */"));
    assertEquals(List.of("SELECT 1 - -2"), texts("SELECT 1 - -2"));
    assertEquals(List.of("SELECT 4 / 2"), texts("SELECT 4 / 2 -- comment at the end"));
  }

  @Test void runsUnterminatedTokensToTheEnd() {
    assertEquals(List.of("SELECT 'a; b"), texts("SELECT 'a; b"));
    assertEquals(List.of("SELECT 1"), texts("SELECT 1 /* a; b"));
  }

  @Test void recordsWhereStatementsStart() {
    assertEquals(
        List.of(new SqlScript.Statement("SELECT 1", 2, 3),
            new SqlScript.Statement("SELECT\n 2", 2, 13),
            new SqlScript.Statement("SELECT 3", 6, 2)),
        SqlScript.split("-- first\n  SELECT 1; SELECT\n 2;\r\n\r\t/* x */\n\tSELECT 3"));
  }
}
