package dev.mnestic.bench;

import dev.mnestic.datalog.parse.Parser;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * CozoScript of issue 13's sizes (point 5) through {@code jdbc:mnestic:...;lang=datalog}:
 * each workload once at the {@link Parser} limit it meets and once at 10,000, on a fresh
 * in-memory store after a warm-up query; prints the seconds and the rows or the refusal
 * ({@code parser::too_large} with its line:column). A single run each: the sizes are what is
 * measured, not a speed.
 *
 * <p>Reproduce: {@code bench/run CozoSizeBench [WORKLOAD...]}, workloads {@code chain},
 * {@code unify}, {@code filters}, {@code or}, {@code joins}, {@code stored}, {@code rules},
 * {@code heads}, {@code blocks}, {@code string}, {@code columns}, {@code put}; by default all.
 */
public final class CozoSizeBench {
  private static final int TEN_THOUSAND = 10_000;

  private CozoSizeBench() {
  }

  /** A workload: an optional setup script and the script of size {@code n}. */
  private record Workload(String name, String setup, IntFunction<String> script, int... sizes) {
  }

  private static String join(int n, IntFunction<String> item, String separator) {
    return IntStream.range(0, n).mapToObj(item).collect(Collectors.joining(separator));
  }

  private static final List<Workload> WORKLOADS = List.of(
      // x0 = 0, x1 = x0 + 1, ...: n atoms, each reading the one before
      new Workload("chain", null, n -> "?[y] := x0 = 0, "
          + join(n - 2, i -> "x" + (i + 1) + " = x" + i + " + 1", ", ") + ", y = x" + (n - 2),
          Parser.MAX_BODY_ATOMS, TEN_THOUSAND),
      new Workload("unify", null, n -> "?[x0] := " + join(n, i -> "x" + i + " = " + i, ", "),
          Parser.MAX_BODY_ATOMS, TEN_THOUSAND),
      new Workload("filters", null, n -> "?[x] := x = " + n + ", "
          + join(n - 1, i -> "x > " + i, ", "), Parser.MAX_BODY_ATOMS, TEN_THOUSAND),
      new Workload("or", null, n -> "?[x] := " + join(n, i -> "x = " + i, " or "),
          Parser.MAX_RULES, TEN_THOUSAND),
      new Workload("joins", null, n -> "e[a, b] <- [[1, 1], [2, 2]]\n?[x" + n + "] := "
          + join(n, i -> "e[x" + i + ", x" + (i + 1) + "]", ", "),
          Parser.MAX_BODY_RELATIONS, TEN_THOUSAND),
      new Workload("stored", "?[a, b] <- [[1, 1], [2, 2]] :create r {a, b}",
          n -> "?[x" + n + "] := " + join(n, i -> "*r[x" + i + ", x" + (i + 1) + "]", ", "),
          Parser.MAX_BODY_RELATIONS, TEN_THOUSAND),
      // r1[x] := r0[y], x = y + 1, ...: each rule its own stratum
      new Workload("rules", null, n -> "r0[x] := x = 0\n" + join(n - 2, i -> "r" + (i + 1)
          + "[x] := r" + i + "[y], x = y + 1", "\n") + "\n?[x] := r" + (n - 2) + "[x]",
          Parser.MAX_RULES, TEN_THOUSAND),
      new Workload("heads", null, n -> join(n, i -> "?[x] := x = " + i, "\n"),
          Parser.MAX_RULES, TEN_THOUSAND),
      new Workload("blocks", "?[a] <- [[0]] :create c {a}", n -> join(n - 1,
          i -> "{?[a] := *c[b], a = b + 1 :replace c {a}}", "\n") + "\n{?[a] := *c[a]}",
          Parser.MAX_BLOCKS, TEN_THOUSAND),
      new Workload("string", null, n -> "?[n] := n = length('" + "a".repeat(n) + "')",
          1_000_000),
      new Workload("columns", null, n -> "?[" + join(n, i -> "c" + i, ", ") + "] <- [["
          + join(n, Integer::toString, ", ") + "]] :create wide {" + join(n, i -> "c" + i, ", ")
          + "}\n?[" + join(n, i -> "c" + i, ", ") + "] := *wide[" + join(n, i -> "c" + i, ", ")
          + "]", 1_000),
      new Workload("put", "?[a, b] <- [] :create p {a => b}", n -> "?[a, b] <- ["
          + join(n, i -> "[" + i + ", " + 2 * i + "]", ", ") + "] :put p {a => b}", 100_000));

  public static void main(String[] args) throws SQLException {
    final List<String> chosen = List.of(args);
    System.out.println("| workload | size | seconds | outcome |");
    System.out.println("|---|---|---|---|");
    for (Workload w : WORKLOADS) {
      if (!chosen.isEmpty() && !chosen.contains(w.name())) {
        continue;
      }
      for (int n : w.sizes()) {
        final String db = "jdbc:mnestic:db=mem:bench-" + UUID.randomUUID() + ";lang=datalog";
        try (Connection c = DriverManager.getConnection(db); Statement s = c.createStatement()) {
          s.execute("?[x] := x = 1");
          if (w.setup() != null) {
            s.execute(w.setup());
          }
          final String script = w.name().equals("columns") ? null : w.script().apply(n);
          final long start = System.nanoTime();
          String outcome;
          try {
            if (script == null) {
              // the columns workload is a :create then a read, as two statements
              final String[] two = w.script().apply(n).split("\n");
              s.execute(two[0]);
              outcome = rows(s, two[1]);
            } else {
              outcome = rows(s, script);
            }
          } catch (SQLException e) {
            final String m = e.getMessage();
            outcome = "refused: " + (m.length() > 120 ? m.substring(0, 120) + "..." : m);
          }
          System.out.printf(Locale.ROOT, "| %s | %,d | %.2f | %s |%n", w.name(), n,
              (System.nanoTime() - start) / 1e9, outcome);
        }
      }
    }
  }

  private static String rows(Statement s, String script) throws SQLException {
    int rows = 0;
    String first = null;
    try (ResultSet r = s.executeQuery(script)) {
      while (r.next()) {
        if (first == null) {
          first = String.valueOf(r.getObject(1));
        }
        rows++;
      }
    }
    return rows + " rows, first " + (first != null && first.length() > 20
        ? first.substring(0, 20) + "..." : first);
  }
}
