package dev.mnestic.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;

/**
 * A selective CozoScript join before and after {@code ::index create} (issue 17): people of one
 * city (1 in 1,000) joined with their visits on one day (1 in 100), on a fresh in-memory store
 * through {@code jdbc:mnestic:...;lang=datalog}. Without indices each constant is a filter over
 * a whole table's scan; with {@code person:by_city {city}} and {@code visit:by_day {day}} each is
 * a lookup in the store's index. And two joins whose side evaluated first holds a few values of
 * a column {@code visit:by_place {place}} leads: without it a hash join reads all visits, with it
 * each value is looked up; the same where a stored relation binds the column. And a
 * recursion through that column, whose plan is the same either way (inside a fixpoint the
 * relation's copy is joined by the probe chain, index or not). Prints a markdown table of
 * medians (the answers must agree).
 *
 * <p>Reproduce: {@code bench/run IndexBench [ROWS]} (default 200000 people and as many visits).
 */
public final class IndexBench {
  /** Constants on the leading columns of {@code person:by_city} and {@code visit:by_day}. */
  private static final String QUERY = "?[id, age, place] := *person{id, city: 17, age},"
      + " *visit{pid: id, day: 3, place}";

  /** A join whose small side (three places) binds the leading column of {@code visit:by_place}. */
  private static final String JOIN_FEW = "spot[p] <- [[17], [4242], [9001]]\n"
      + "?[pid, day, p] := spot[p], *visit{pid, day, place: p}";

  /**
   * A join whose side evaluated first (the ages of the people of one city, at most 100) binds
   * the leading column of {@code visit:by_place}.
   */
  private static final String JOIN_DERIVED = "age[a] := *person{city: 17, age: a}\n"
      + "?[pid, day, a] := age[a], *visit{pid, day, place: a}";

  /**
   * A join whose side read first is a stored relation (three places) binding the leading column
   * of {@code visit:by_place}: with the index, a run-time index join ({@code rel.IndexJoin})
   * looks the places up as the stored rows come.
   */
  private static final String JOIN_STORED =
      "?[pid, day, p] := *spot{p}, *visit{pid, day, place: p}";

  /**
   * A recursion whose rounds bind the leading column of {@code visit:by_place}: four hops from
   * the three places, a visitor's id taken as the next place. With the index or without, the
   * fixpoint joins a copy of all visits, indexed once by the probe chain (per-round lookups in
   * the store's index ran 1.5-3.6x slower on RecursionBench, docs/cozoscript.md).
   */
  private static final String JOIN_RECURSIVE = "hop[p, n] := *spot{p}, n = 0\n"
      + "hop[q, m] := hop[p, n], n < 4, *visit{pid: q, place: p}, m = n + 1\n"
      + "?[p, n] := hop[p, n]";

  private static final List<String> QUERIES = List.of(QUERY, JOIN_FEW, JOIN_DERIVED,
      JOIN_STORED, JOIN_RECURSIVE);

  private IndexBench() {
  }

  public static void main(String[] args) throws Exception {
    final int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    final String db = "jdbc:mnestic:db=mem:index-" + UUID.randomUUID();
    try (Connection sql = DriverManager.getConnection(db);
         Connection datalog = DriverManager.getConnection(db + ";lang=datalog")) {
      run(datalog, ":create person {id: Int => city: Int, age: Int}");
      run(datalog, ":create visit {pid: Int, day: Int => place: Int}");
      run(datalog, ":create spot {p: Int}");
      run(datalog, "?[p] <- [[17], [4242], [9001]] :put spot {p}");
      load(sql, rows);
      final Harness harness = new Harness(2, 5);
      System.out.printf(Locale.ROOT, "ROWS = %d people, %d visits; medians of 5 runs after 2"
          + " warm-ups%n%n", rows, rows);
      System.out.println("| query | without index (s) | with index (s) | without / with | rows |");
      System.out.println("|---|---|---|---|---|");
      final List<Harness.Timing<List<String>>> without = new ArrayList<>();
      for (String query : QUERIES) {
        without.add(harness.time(() -> run(datalog, query)));
      }
      run(datalog, "::index create person:by_city {city}");
      run(datalog, "::index create visit:by_day {day}");
      run(datalog, "::index create visit:by_place {place}");
      for (int i = 0; i < QUERIES.size(); i++) {
        final String query = QUERIES.get(i);
        final Harness.Timing<List<String>> with = harness.time(() -> run(datalog, query));
        if (!without.get(i).result().equals(with.result())) {
          throw new IllegalStateException("answers differ: " + without.get(i).result() + " vs "
              + with.result());
        }
        System.out.printf(Locale.ROOT, "| `%s` | %.3f | %.3f | %.1f× | %d |%n",
            query.replace("\n", "; "), without.get(i).seconds(), with.seconds(),
            without.get(i).seconds() / with.seconds(), with.result().size());
      }
    }
  }

  /**
   * {@code rows} people (city 0..999, age 0..99) and {@code rows} visits, one per person
   * (day 0..99); {@code rows} must not be a multiple of 7,919.
   */
  private static void load(Connection sql, int rows) throws SQLException {
    sql.setAutoCommit(false);
    final Random random = new Random(7);
    try (PreparedStatement person = sql.prepareStatement("INSERT INTO person VALUES (?, ?, ?)");
         PreparedStatement visit = sql.prepareStatement("INSERT INTO visit VALUES (?, ?, ?)")) {
      for (int i = 0; i < rows; i++) {
        person.setLong(1, i);
        person.setLong(2, random.nextInt(1_000));
        person.setLong(3, random.nextInt(100));
        person.addBatch();
        visit.setLong(1, (long) i * 7_919 % rows); // a permutation: keys stay distinct
        visit.setLong(2, i % 100);
        visit.setLong(3, random.nextInt(10_000));
        visit.addBatch();
        if (i % 10_000 == 9_999 || i == rows - 1) {
          person.executeBatch();
          visit.executeBatch();
        }
      }
    }
    sql.commit();
    sql.setAutoCommit(true);
  }

  /** A script's rows, each as text. */
  private static List<String> run(Connection datalog, String script) throws SQLException {
    final List<String> rows = new ArrayList<>();
    try (Statement s = datalog.createStatement(); ResultSet rs = s.executeQuery(script)) {
      final int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        final StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          row.append(i > 1 ? ", " : "").append(rs.getObject(i));
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }
}
