package dev.mnestic.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Test case for #13 (points 5 and 6): statements fuzzed from the project's own test texts
 * (SQL strings of jdbc-driver's tests and {@code .sql} scripts; CozoScript of
 * datalog-frontend's conformance cases and {@code .cozo} files), mutated token by token
 * (delete, duplicate, swap, insert), nested deep, chained long and given huge literals, run
 * through the embedded driver with a query timeout. Every failure must be an SQLException
 * with a SQLSTATE, not an internal error (class XX) for SQL, with a short message that quotes
 * no generated code, and must leave every table of the store as it was (a checksum of every
 * table's rows before and after). Counts by SQLSTATE are printed at the end.
 *
 * <p>Scripts ({@code lang=datalog}) are held to the same. The inputs are drawn from one
 * seeded {@link Random}, so a run is repeatable: {@value #SEED_PROPERTY} gives another seed
 * ({@code mvn -pl jdbc-driver -am test -Dtest=StatementFuzzTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dmnestic.fuzz.seed=N -Dmnestic.fuzz.inputs=M}),
 * and every failure names its seed and input number.
 */
class StatementFuzzTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern JAVA_STRING = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*+)\"");
  private static final Pattern SQL_START = Pattern.compile(
      "(?is)\\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|WITH|VALUES|MERGE|EXPLAIN)\\b.*");
  private static final Pattern JSON_SCRIPT = Pattern.compile(
      "\"script\":\\s*\"((?:[^\"\\\\]|\\\\.)*+)\"");
  private static final Pattern TOKEN = Pattern.compile(
      "'(?:[^']|'')*+'|\"[^\"]*\"|[A-Za-z_][A-Za-z_0-9]*|[0-9]+(?:\\.[0-9]+)?|\\s+|.", Pattern.DOTALL);
  /** Markers of generated Java code, which no message may carry. */
  private static final Pattern GENERATED_CODE = Pattern.compile(
      "org\\.apache\\.calcite\\.linq4j\\.|public Object current\\(\\)|\\bbind\\(final ");

  /** System property: the seed of a run (default {@value #DEFAULT_SEED}). */
  static final String SEED_PROPERTY = "mnestic.fuzz.seed";
  private static final long DEFAULT_SEED = 13;
  private static final long SEED = Long.getLong(SEED_PROPERTY, DEFAULT_SEED);
  /** SQL statements a run tries; as many scripts, less a fifth. */
  private static final int INPUTS = Integer.getInteger("mnestic.fuzz.inputs", 500);

  private static final List<String> SQL = sqlCorpus();
  private static final List<String> COZO = cozoCorpus();

  private static final Map<String, Integer> SQL_STATES = new TreeMap<>();
  private static final Map<String, Integer> COZO_STATES = new TreeMap<>();
  private static int sqlInputs;
  private static int cozoInputs;

  private static Connection sql;
  private static Connection cozo;

  @Test void sqlFailsCleanly() throws SQLException {
    connect();
    final Random random = new Random(SEED);
    for (int n = 1; n <= INPUTS; n++) {
      final String statement = mutate(SQL.get(random.nextInt(SQL.size())), SQL, " OR ", random);
      sqlInputs++;
      final String before = checksum();
      final SQLException e = run(sql, statement, n);
      if (e == null) {
        continue;
      }
      SQL_STATES.merge(e.getSQLState(), 1, Integer::sum);
      final int input = n;
      assertFalse(e.getSQLState().startsWith("XX"), () -> describe(statement, e, input));
      assertEquals(before, checksum(), () -> "store changed by a failed statement: "
          + describe(statement, e, input));
    }
  }

  @Test void scriptFailsCleanly() throws SQLException {
    connect();
    final Random random = new Random(SEED);
    for (int n = 1; n <= INPUTS * 4 / 5; n++) {
      final String script = mutate(COZO.get(random.nextInt(COZO.size())), COZO, " || ", random);
      cozoInputs++;
      final String before = checksum();
      final SQLException e = run(cozo, script, n);
      if (e == null) {
        continue;
      }
      COZO_STATES.merge(e.getSQLState(), 1, Integer::sum);
      final int input = n;
      assertFalse(e.getSQLState().startsWith("XX"), () -> describe(script, e, input));
      assertEquals(before, checksum(), () -> "store changed by a failed script: "
          + describe(script, e, input));
    }
  }

  /**
   * Runs {@code text} and reads its rows; the failure, which must be an SQLException with a
   * SQLSTATE and a short message without generated code, or null.
   */
  private static SQLException run(Connection c, String text, int input) {
    try (Statement s = c.createStatement()) {
      s.setQueryTimeout(5);
      if (s.execute(text)) {
        try (ResultSet r = s.getResultSet()) {
          for (int i = 0; i < 10_000 && r.next(); i++) {
            r.getObject(1);
          }
        }
      }
      return null;
    } catch (SQLException e) {
      assertNotNull(e.getSQLState(), () -> describe(text, e, input));
      final String m = String.valueOf(e.getMessage());
      assertTrue(m.length() <= SqlFailures.MAX_MESSAGE + 1, () -> describe(text, e, input));
      assertFalse(GENERATED_CODE.matcher(m).find(), () -> describe(text, e, input));
      return e;
    } catch (Throwable t) {
      return fail("not an SQLException for input " + input + " of seed " + SEED + ", "
          + shorten(text) + ": " + t, t);
    }
  }

  private static String describe(String text, SQLException e, int input) {
    return e.getSQLState() + " " + shorten(String.valueOf(e.getMessage())) + " for input "
        + input + " of seed " + SEED + ": " + shorten(text);
  }

  private static String shorten(String s) {
    return s.length() <= 300 ? s : s.substring(0, 300) + "... (" + s.length() + " chars)";
  }

  /** Every table's rows, sorted, in one string: equal before and after means unchanged. */
  private static String checksum() throws SQLException {
    final List<String> tables = new ArrayList<>();
    try (ResultSet r = sql.getMetaData().getTables(null, "PUBLIC", "%", new String[] {"TABLE"})) {
      while (r.next()) {
        tables.add(r.getString("TABLE_NAME"));
      }
    }
    final StringBuilder b = new StringBuilder();
    for (String table : tables) {
      final List<String> rows = new ArrayList<>();
      try (Statement s = sql.createStatement();
           ResultSet r = s.executeQuery("SELECT * FROM \"" + table.replace("\"", "\"\"") + "\"")) {
        final int n = r.getMetaData().getColumnCount();
        while (r.next()) {
          final StringBuilder row = new StringBuilder();
          for (int i = 1; i <= n; i++) {
            row.append(r.getString(i)).append('|');
          }
          rows.add(row.toString());
        }
      } catch (SQLException e) {
        // A table this connection cannot read (one a script made that SQL's schema has not
        // seen yet) still counts, by its failure, which stays the same while nothing changes.
        rows.add("unreadable " + e.getSQLState());
      }
      rows.sort(null);
      b.append(table).append(':').append(rows.hashCode()).append('/').append(rows.size())
          .append(';');
    }
    return b.toString();
  }

  private static synchronized void connect() throws SQLException {
    if (sql == null) {
      sql = DriverManager.getConnection("jdbc:mnestic:db=mem:statement-fuzz");
      cozo = DriverManager.getConnection("jdbc:mnestic:db=mem:statement-fuzz;lang=datalog");
      try (Statement s = sql.createStatement()) {
        s.execute("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20), v DOUBLE, ts TIMESTAMP)");
        s.execute("INSERT INTO t VALUES (1, 'a', 1.5, TIMESTAMP '2024-01-01 00:00:00'),"
            + " (2, 'b', NULL, TIMESTAMP '2024-01-01 00:01:00'), (3, NULL, -2.0, NULL)");
        s.execute("CREATE TABLE x (a INT, b INT)");
        s.execute("INSERT INTO x VALUES (1, 2), (3, 4)");
      }
    }
  }

  @AfterAll static void report() throws SQLException {
    System.out.println("StatementFuzzTest: seed " + SEED + ", " + sqlInputs
        + " SQL inputs, failures by SQLSTATE " + SQL_STATES + "; " + cozoInputs
        + " CozoScript inputs, failures by SQLSTATE " + COZO_STATES);
    if (sql != null) {
      sql.close();
      cozo.close();
    }
  }

  /**
   * {@code seed} with one to three mutations: a token deleted, duplicated, swapped with
   * another or inserted from another text of the corpus; an expression nested in up to 2,500
   * parentheses; a token chained with itself up to 300 times; a literal made huge. One in
   * eight is left as it is.
   */
  static String mutate(String seed, List<String> corpus, String chain, Random random) {
    if (random.nextInt(8) == 0) {
      return seed;
    }
    final List<String> tokens = tokens(seed);
    for (int m = 1 + random.nextInt(3); m > 0 && !tokens.isEmpty(); m--) {
      final int i = random.nextInt(tokens.size());
      final String token = tokens.get(i);
      switch (random.nextInt(7)) {
      case 0 -> tokens.remove(i);
      case 1 -> tokens.add(i, token);
      case 2 -> {
        final int j = random.nextInt(tokens.size());
        tokens.set(i, tokens.get(j));
        tokens.set(j, token);
      }
      case 3 -> {
        final List<String> other = tokens(corpus.get(random.nextInt(corpus.size())));
        tokens.add(i, " " + other.get(random.nextInt(other.size())) + " ");
      }
      case 4 -> {
        final int depth = new int[] {10, 200, 1_000, 2_500}[random.nextInt(4)];
        tokens.set(i, "(".repeat(depth) + token + ")".repeat(depth));
      }
      case 5 -> {
        final int n = new int[] {10, 100, 300}[random.nextInt(3)];
        tokens.set(i, String.join(chain, java.util.Collections.nCopies(n, token)));
      }
      default -> tokens.set(i, random.nextBoolean()
          ? "'" + "x".repeat(100_000) + "'" : "9".repeat(1 + random.nextInt(2_000)));
      }
    }
    return String.join("", tokens);
  }

  private static List<String> tokens(String text) {
    final List<String> tokens = new ArrayList<>();
    final Matcher m = TOKEN.matcher(text);
    while (m.find()) {
      tokens.add(m.group());
    }
    return tokens;
  }

  /** SQL statements in jdbc-driver's test sources and scripts. */
  private static List<String> sqlCorpus() {
    final List<String> corpus = new ArrayList<>();
    for (Path p : files(ROOT.resolve("jdbc-driver/src/test"), ".java")) {
      final Matcher m = JAVA_STRING.matcher(read(p));
      while (m.find()) {
        final String s = m.group(1).replace("\\\"", "\"").replace("\\n", "\n")
            .replace("\\\\", "\\");
        if (SQL_START.matcher(s).matches() && s.length() > 8) {
          corpus.add(s);
        }
      }
    }
    for (Path p : files(ROOT.resolve("jdbc-driver/src/test/resources/sql"), ".sql")) {
      final StringBuilder statement = new StringBuilder();
      for (String line : read(p).split("\n")) {
        if (line.startsWith("#") || line.startsWith("!")) {
          continue;
        }
        statement.append(line).append('\n');
        if (line.trim().endsWith(";")) {
          final String s = statement.toString().trim();
          corpus.add(s.substring(0, s.length() - 1));
          statement.setLength(0);
        } else if (!SQL_START.matcher(statement).matches()) {
          statement.setLength(0);
        }
      }
    }
    assertTrue(corpus.size() > 100, "SQL corpus: " + corpus.size());
    return corpus;
  }

  /** CozoScript scripts of datalog-frontend's conformance cases and examples. */
  private static List<String> cozoCorpus() {
    final List<String> corpus = new ArrayList<>();
    for (Path p : files(ROOT.resolve("datalog-frontend/src/test"), ".json")) {
      final Matcher m = JSON_SCRIPT.matcher(read(p));
      while (m.find()) {
        corpus.add(unescapeJson(m.group(1)));
      }
    }
    for (Path p : files(ROOT.resolve("datalog-frontend/src/test"), ".cozo")) {
      corpus.add(read(p));
    }
    assertTrue(corpus.size() > 100, "CozoScript corpus: " + corpus.size());
    return corpus;
  }

  private static String unescapeJson(String s) {
    final StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      final char c = s.charAt(i);
      if (c != '\\' || i + 1 >= s.length()) {
        b.append(c);
        continue;
      }
      final char e = s.charAt(++i);
      switch (e) {
      case 'n' -> b.append('\n');
      case 't' -> b.append('\t');
      case 'r' -> b.append('\r');
      case 'u' -> {
        b.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
        i += 4;
      }
      default -> b.append(e);
      }
    }
    return b.toString();
  }

  private static List<Path> files(Path dir, String suffix) {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
