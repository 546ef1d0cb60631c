package dev.mnestic.jdbc;

import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs every script in {@code src/test/resources/sql/}, each on a fresh
 * private store ({@code jdbc:mnestic:}), its cases in order. A case is a
 * statement (lines up to one ending in {@code ;}), what it should give, and
 * a command:
 *
 * <ul>
 *   <li>{@code !ok}: a query; a header line of column labels, then one line
 *       per row, cells separated by {@code |} (spacing free, NULL as
 *       {@code null}, numbers without trailing zeros). Rows compare as a
 *       multiset unless the statement has an ORDER BY outside parentheses.
 *   <li>{@code !update}: a statement run for its effect; nothing follows.
 *   <li>{@code !plan}: an EXPLAIN PLAN; its lines, exactly.
 *   <li>{@code !error}: a statement that fails; the error's message contains
 *       the line that follows.
 * </ul>
 *
 * Lines starting with {@code #} between cases are comments. A failing case
 * shows what the statement gave, in the script's own format.
 */
class SqlScriptTest {
  private static final Pattern ORDER_BY = Pattern.compile("(?is).*\\bORDER\\s+BY\\b.*");

  /** A case: its statement, the lines that follow it, its command, its line in the script. */
  record Case(String sql, List<String> expected, String command, int line) {
  }

  @TestFactory Stream<DynamicNode> scripts() throws IOException, URISyntaxException {
    final Path dir = Path.of(Objects.requireNonNull(
        SqlScriptTest.class.getResource("/sql")).toURI());
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".sql")).sorted()
          .<DynamicNode>map(f -> DynamicContainer.dynamicContainer(f.getFileName().toString(),
              run(f)))
          .toList().stream();
    }
  }

  /** The cases of one script as tests, sharing one connection, run in order. */
  private static Stream<DynamicNode> run(Path file) {
    final List<Case> cases;
    try {
      cases = parse(Files.readAllLines(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    final Connection[] connection = new Connection[1];
    final List<DynamicNode> tests = new ArrayList<>();
    for (int i = 0; i < cases.size(); i++) {
      final Case c = cases.get(i);
      final boolean last = i == cases.size() - 1;
      tests.add(DynamicTest.dynamicTest("line " + c.line + ": " + c.sql.replace('\n', ' '),
          () -> {
            if (connection[0] == null) {
              connection[0] = DriverManager.getConnection("jdbc:mnestic:");
            }
            try {
              check(connection[0], c);
            } finally {
              if (last) {
                connection[0].close();
              }
            }
          }));
    }
    return tests.stream();
  }

  static List<Case> parse(List<String> lines) {
    final List<Case> cases = new ArrayList<>();
    final StringBuilder sql = new StringBuilder();
    final List<String> expected = new ArrayList<>();
    int start = 0;
    boolean inStatement = true;
    for (int i = 0; i < lines.size(); i++) {
      final String line = lines.get(i);
      if (inStatement) {
        if (sql.length() == 0 && (line.isBlank() || line.startsWith("#"))) {
          continue;
        }
        if (sql.length() == 0) {
          start = i + 1;
        }
        sql.append(sql.length() == 0 ? "" : "\n").append(line);
        if (line.strip().endsWith(";")) {
          inStatement = false;
        }
      } else if (line.startsWith("!")) {
        final String s = sql.toString().strip();
        cases.add(new Case(s.substring(0, s.length() - 1), List.copyOf(expected),
            line.strip(), start));
        sql.setLength(0);
        expected.clear();
        inStatement = true;
      } else if (!line.isBlank()) {
        expected.add(line.stripTrailing());
      }
    }
    if (sql.length() > 0) {
      throw new IllegalArgumentException("statement at line " + start + " has no command");
    }
    return cases;
  }

  private static void check(Connection connection, Case c) throws SQLException {
    switch (c.command) {
    case "!update" -> {
      try (Statement s = connection.createStatement()) {
        s.execute(c.sql);
      }
    }
    case "!ok" -> {
      final List<String> actual = query(connection, c.sql);
      final List<String> expected = c.expected.stream().map(SqlScriptTest::cells).toList();
      if (ORDER_BY.matcher(outsideParentheses(c.sql)).matches()) {
        assertEquals(String.join("\n", expected), String.join("\n", actual));
      } else {
        assertEquals(String.join("\n", headerAndSorted(expected)),
            String.join("\n", headerAndSorted(actual)));
      }
    }
    case "!plan" -> {
      final List<String> plan = query(connection, c.sql);
      assertEquals(String.join("\n", c.expected),
          String.join("\n", plan.subList(1, plan.size())).strip());
    }
    case "!error" -> {
      try (Statement s = connection.createStatement()) {
        s.execute(c.sql);
        fail("expected an error containing: " + String.join("\n", c.expected));
      } catch (SQLException e) {
        final String message = messages(e);
        assertTrue(message.contains(String.join("\n", c.expected).strip()),
            () -> "expected an error containing\n" + String.join("\n", c.expected)
                + "\nbut got\n" + message);
      }
    }
    default -> throw new IllegalArgumentException("line " + c.line + ": unknown command "
        + c.command);
    }
  }

  /** The header line, then one line per row; a plan is one cell holding many lines. */
  private static List<String> query(Connection connection, String sql) throws SQLException {
    final List<String> lines = new ArrayList<>();
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      final int n = rs.getMetaData().getColumnCount();
      final List<String> labels = new ArrayList<>();
      for (int i = 1; i <= n; i++) {
        labels.add(rs.getMetaData().getColumnLabel(i));
      }
      lines.add(String.join(" | ", labels));
      while (rs.next()) {
        final List<String> cells = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          cells.add(String.valueOf(format(rs.getObject(i))));
        }
        lines.addAll(Arrays.asList(String.join(" | ", cells).split("\n")));
      }
    }
    return lines.stream().map(String::stripTrailing).collect(Collectors.toList());
  }

  private static Object format(Object o) throws SQLException {
    final Object v = Rows.normalize(o);
    return v instanceof java.math.BigDecimal d ? d.toPlainString() : v;
  }

  /** {@code sql} without what its parentheses hold: the ORDER BY of a window is not the query's. */
  private static String outsideParentheses(String sql) {
    final StringBuilder b = new StringBuilder();
    int depth = 0;
    for (char c : sql.toCharArray()) {
      depth += c == '(' ? 1 : 0;
      if (depth == 0) {
        b.append(c);
      }
      depth -= c == ')' ? 1 : 0;
    }
    return b.toString();
  }

  private static String cells(String line) {
    return Arrays.stream(line.split("\\|", -1)).map(String::strip)
        .collect(Collectors.joining(" | "));
  }

  private static List<String> headerAndSorted(List<String> lines) {
    final List<String> out = new ArrayList<>();
    if (!lines.isEmpty()) {
      out.add(lines.get(0));
      lines.subList(1, lines.size()).stream().sorted().forEach(out::add);
    }
    return out;
  }

  private static String messages(Throwable e) {
    final StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getMessage()).append('\n');
    }
    return b.toString();
  }
}
