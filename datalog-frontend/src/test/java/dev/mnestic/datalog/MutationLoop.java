package dev.mnestic.datalog;

import dev.mnestic.datalog.conformance.Oracle;
import dev.mnestic.datalog.conformance.RawJson;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreLocation;

import org.apache.calcite.jdbc.CalciteConnection;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A quick local search for internal errors (issue 13, point 6): the conformance scripts of
 * {@code src/test/resources/conformance} (the air-routes ones included, without their data),
 * mutated at random (a token deleted, duplicated, swapped with another, or replaced by a token
 * of its class from another script or by an extreme number; one to three times), each run with its setup on a fresh in-memory store,
 * stopped after two seconds. Prints the outcomes by kind: a {@link DatalogException} by code (and whether it has no place),
 * an {@link SQLException} by SQLSTATE, anything else (an internal error) by class with its
 * script and stack. Not a test: the CI fuzz test is jdbc-driver's; run it as
 * {@code java -ea -cp <test class path> dev.mnestic.datalog.MutationLoop [inputs] [seed]}.
 */
public final class MutationLoop {
  private static final Pattern TOKEN = Pattern.compile(
      "\\s+|\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|[A-Za-z_$][A-Za-z0-9_]*|\\d+(?:\\.\\d+)?"
          + "|:=|<-|=>|->|\\+\\+|==|!=|<=|>=|&&|\\|\\||::|.", Pattern.DOTALL);

  private MutationLoop() {
  }

  public static void main(String[] args) throws Exception {
    final int inputs = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    final Random random = new Random(args.length > 1 ? Long.parseLong(args[1]) : 13);
    final List<String> scripts = new ArrayList<>();
    final List<List<String>> setups = new ArrayList<>();
    for (String folder : List.of("/conformance/queries", "/conformance/air-routes",
        "/conformance/functions")) {
      for (String file : Oracle.files(folder)) {
        for (RawJson.Node c : Oracle.cases(file)) {
          scripts.add(c.get("script").string());
          final List<String> setup = new ArrayList<>();
          if (c.has("setup")) {
            c.get("setup").items().stream().filter(s -> s.value() instanceof String)
                .forEach(s -> setup.add(s.string()));
          }
          setups.add(setup);
        }
      }
    }
    final List<List<String>> tokens = scripts.stream().map(MutationLoop::tokens).toList();
    final Map<String, Integer> outcomes = new TreeMap<>();
    final Map<String, String> examples = new TreeMap<>();
    for (int i = 0; i < inputs; i++) {
      final int pick = random.nextInt(scripts.size());
      final List<String> t = new ArrayList<>(tokens.get(pick));
      for (int m = 1 + random.nextInt(3); m > 0 && !t.isEmpty(); m--) {
        final int at = random.nextInt(t.size());
        switch (random.nextInt(4)) {
        case 0 -> t.remove(at);
        case 1 -> t.add(at, t.get(at));
        case 2 -> {
          final int other = random.nextInt(t.size());
          final String x = t.get(at);
          t.set(at, t.get(other));
          t.set(other, x);
        }
        default -> {
          // a token of the same class from another script, or an extreme number
          final String old = t.get(at);
          if (Character.isDigit(old.charAt(0)) && random.nextBoolean()) {
            t.set(at, EXTREMES.get(random.nextInt(EXTREMES.size())));
            break;
          }
          final List<String> donor = tokens.get(random.nextInt(tokens.size()));
          for (int tries = 0; tries < 50 && !donor.isEmpty(); tries++) {
            final String d = donor.get(random.nextInt(donor.size()));
            if (kind(d) == kind(old)) {
              t.set(at, d);
              break;
            }
          }
        }
        }
      }
      final String script = String.join("", t);
      final String outcome = run(setups.get(pick), script);
      final String kind = outcome.substring(0, outcome.indexOf('\n'));
      outcomes.merge(kind, 1, Integer::sum);
      if (kind.startsWith("INTERNAL") || kind.contains("no place")) {
        examples.putIfAbsent(kind, "script: " + script + "\n" + outcome);
      }
    }
    System.out.println(inputs + " inputs (seed " + (args.length > 1 ? args[1] : "13") + ")");
    outcomes.forEach((k, n) -> System.out.println(n + "\t" + k));
    examples.forEach((k, e) -> System.out.println("\n=== " + k + "\n" + e));
  }

  /** Numbers at the edges of what CozoScript holds. */
  private static final List<String> EXTREMES = List.of("0", "0.0", "9223372036854775807",
      "9223372036854775808", "1e308", "1e309", "4294967296", "100000000", "-0.0");

  /** A token's class: 0 space, 1 name, 2 number, 3 string, 4 symbol. */
  private static int kind(String token) {
    final char c = token.charAt(0);
    return Character.isWhitespace(c) ? 0 : Character.isLetter(c) || c == '_' || c == '$' ? 1
        : Character.isDigit(c) ? 2 : c == '"' || c == '\'' ? 3 : 4;
  }

  private static List<String> tokens(String script) {
    final List<String> out = new ArrayList<>();
    final Matcher m = TOKEN.matcher(script);
    while (m.find()) {
      out.add(m.group());
    }
    return out;
  }

  /** The outcome's kind on its first line; for an internal error, its stack after. */
  private static String run(List<String> setup, String script) throws SQLException {
    final Properties info = new Properties();
    info.setProperty("caseSensitive", "false");
    try (Connection connection = DriverManager.getConnection("jdbc:calcite:", info);
         Session session = Session.open(StoreLocation.privateMemory())) {
      session.attachTo(connection.unwrap(CalciteConnection.class).getRootSchema());
      final Engine engine = new Engine(connection);
      for (String s : setup) {
        engine.run(s, Map.of());
      }
      try {
        engine.stoppedBy(System.nanoTime() + 2_000_000_000L, null).run(script, Map.of());
        return "OK\n\n";
      } catch (DatalogException e) {
        return (e.code() == null ? "DATALOG (no code)" : "DATALOG " + e.code())
            + (e.line() == 0 ? " (no place)" : "") + "\n" + e.getMessage() + "\n";
      } catch (SQLException e) {
        return "SQL " + e.getSQLState() + "\n" + e.getMessage() + "\n";
      } catch (Throwable e) {
        final StringBuilder b = new StringBuilder("INTERNAL " + e.getClass().getName() + "\n" + e);
        Throwable c = e;
        while (c.getCause() != null && c.getCause() != c) {
          c = c.getCause();
        }
        for (StackTraceElement f : c.getStackTrace()) {
          b.append("\n  at ").append(f);
          if (b.length() > 3000) {
            break;
          }
        }
        return b.append('\n').toString();
      }
    }
  }
}
