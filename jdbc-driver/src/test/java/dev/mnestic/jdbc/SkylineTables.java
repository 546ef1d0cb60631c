package dev.mnestic.jdbc;

import dev.mnestic.store.StoreLocation;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;

/**
 * Random tables for skyline oracle tests, made as Börzsönyi, Kossmann and
 * Stocker's generator makes them, and the two forms of one skyline query:
 * mnestic's SKYLINE OF and the NOT EXISTS form any SQL engine runs.
 *
 * <p>Tests load the rows straight into the HSQLDB database behind a shared
 * in-memory store ({@link #open}), so mnestic's SKYLINE OF and HSQLDB's
 * NOT EXISTS read the very same table (loading through mnestic's INSERT
 * would cost seconds a batch).
 *
 * <p>A batch is one table {@code t (id, tid, g, a1 .. ad)}: {@code tid}
 * numbers the random tables it holds (each query is a skyline per table,
 * {@code tid DIFF}), {@code g} is a small DIFF column with NULLs, and
 * {@code a1 .. ad} are the dimensions: independent, correlated or
 * anti-correlated, quantized to few or many levels (ties), with duplicated
 * rows and NULLs in some tables.
 */
final class SkylineTables {
  enum Distribution { INDEPENDENT, CORRELATED, ANTI_CORRELATED }

  /** One query over one batch. */
  record Query(int d, boolean[] max, boolean distinct, boolean diffG, List<Integer> itemOrder) {
    /** mnestic: {@code SELECT ... FROM t SKYLINE OF ...}. */
    String skylineOf() {
      final StringJoiner items = new StringJoiner(", ");
      for (int i : itemOrder) {
        items.add(i < 0 ? (i == -1 ? "tid DIFF" : "g DIFF")
            : "a" + (i + 1) + (max[i] ? " MAX" : " MIN"));
      }
      return "SELECT " + columns("") + " FROM t SKYLINE OF " + (distinct ? "DISTINCT " : "")
          + items;
    }

    /** The same skyline as rows no other row dominates. */
    String notExists() {
      final StringJoiner same = new StringJoiner(" AND ");
      final StringJoiner strict = new StringJoiner(" OR ");
      same.add("s.tid = r.tid");
      if (diffG) {
        same.add("s.g IS NOT DISTINCT FROM r.g");
      }
      for (int i = 0; i < d; i++) {
        final String a = "a" + (i + 1);
        final String op = max[i] ? ">" : "<";
        same.add("s." + a + " " + op + "= r." + a);
        strict.add("s." + a + " " + op + " r." + a);
      }
      return "SELECT " + (distinct ? "DISTINCT " : "") + columns("r.") + " FROM t r"
          + " WHERE NOT EXISTS (SELECT 1 FROM t s WHERE " + same + " AND (" + strict + "))";
    }

    /**
     * mnestic's PARETO_MIN per table over the rows without NULLs, MAX items
     * negated (the sign flip), unnested: {@code tid, a1 .. ad}.
     */
    String paretoMin() {
      final StringJoiner point = new StringJoiner(", ", "ARRAY[", "]");
      final StringJoiner components = new StringJoiner(", ");
      for (int i = 0; i < d; i++) {
        // DOUBLE: Calcite types ARRAY[DECIMAL(12, 3), BIGINT] as DECIMAL(19, 0).
        point.add((max[i] ? "-" : "") + "CAST(a" + (i + 1) + " AS DOUBLE)");
        components.add((max[i] ? "-" : "") + "p[" + (i + 1) + "]");
      }
      return "SELECT s.tid, " + components + " FROM (SELECT tid, PARETO_MIN(" + point
          + ") AS f FROM t WHERE " + noNulls("") + " GROUP BY tid) AS s, UNNEST(s.f) AS u (p)";
    }

    /** {@link #paretoMin} as rows no other row dominates, each point once. */
    String notExistsWithoutNulls() {
      final StringJoiner same = new StringJoiner(" AND ");
      final StringJoiner strict = new StringJoiner(" OR ");
      final StringJoiner columns = new StringJoiner(", ");
      same.add("s.tid = r.tid");
      columns.add("r.tid");
      for (int i = 0; i < d; i++) {
        final String a = "a" + (i + 1);
        final String op = max[i] ? ">" : "<";
        same.add("s." + a + " " + op + "= r." + a);
        strict.add("s." + a + " " + op + " r." + a);
        columns.add("r." + a);
      }
      return "SELECT DISTINCT " + columns + " FROM t r WHERE " + noNulls("r.")
          + " AND NOT EXISTS (SELECT 1 FROM t s WHERE " + same + " AND (" + strict + "))";
    }

    private String noNulls(String prefix) {
      final StringJoiner c = new StringJoiner(" AND ");
      for (int i = 0; i < d; i++) {
        c.add(prefix + "a" + (i + 1) + " IS NOT NULL");
      }
      return c.toString();
    }

    /** With DISTINCT only the dimensions, since which of equal rows is kept is unspecified. */
    private String columns(String prefix) {
      final StringJoiner c = new StringJoiner(", ");
      if (!distinct) {
        c.add(prefix + "id");
      }
      c.add(prefix + "tid");
      if (diffG) {
        c.add(prefix + "g");
      }
      for (int i = 0; i < d; i++) {
        c.add(prefix + "a" + (i + 1));
      }
      return c.toString();
    }
  }

  private final Random random;

  SkylineTables(long seed) {
    random = new Random(seed);
  }

  /** A random query of d dimensions. */
  Query query(int d) {
    final boolean[] max = new boolean[d];
    final List<Integer> order = new ArrayList<>();
    for (int i = 0; i < d; i++) {
      max[i] = random.nextBoolean();
      order.add(i);
    }
    final boolean diffG = random.nextInt(3) == 0;
    order.add(-1);
    if (diffG) {
      order.add(-2);
    }
    java.util.Collections.shuffle(order, random);
    return new Query(d, max, random.nextInt(4) == 0, diffG, order);
  }

  /**
   * Connections to a fresh shared in-memory store: mnestic's, then HSQLDB's
   * own to the database behind it.
   */
  static Connection[] open(String name) throws SQLException {
    final Connection mnestic = DriverManager.getConnection("jdbc:mnestic:db=mem:" + name);
    final Connection hsqldb = DriverManager.getConnection(
        StoreLocation.sharedMemory(name).hsqldbUrl(), "SA", "");
    return new Connection[] {mnestic, hsqldb};
  }

  /** A batch: its CREATE TABLE, and its rows (id, tid, g, a1 .. ad). */
  record Batch(String create, List<Object[]> rows) {
    /** Creates the table in {@code c}, replacing any, and inserts the rows with one prepared INSERT. */
    void load(Connection c) throws SQLException {
      Rows.update(c, "DROP TABLE IF EXISTS t");
      Rows.update(c, create);
      final int n = rows.isEmpty() ? 0 : rows.get(0).length;
      final String marks = String.join(", ", java.util.Collections.nCopies(n, "?"));
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (" + marks + ")")) {
        for (Object[] row : rows) {
          for (int i = 0; i < n; i++) {
            insert.setObject(i + 1, row[i]);
          }
          insert.addBatch();
        }
        insert.executeBatch();
      }
    }
  }

  /**
   * A batch of {@code tables} random tables of d dimensions (up to
   * {@code maxRows} rows each), values in [0, 1000] of a type per dimension:
   * INT, BIGINT, DOUBLE or DECIMAL.
   */
  Batch batch(int d, int tables, int maxRows) {
    final List<String> types = new ArrayList<>();
    final StringJoiner create = new StringJoiner(", ", "CREATE TABLE t (", ")");
    create.add("id INT PRIMARY KEY").add("tid INT NOT NULL").add("g INT");
    for (int i = 0; i < d; i++) {
      types.add(List.of("INT", "BIGINT", "DOUBLE PRECISION", "DECIMAL(12, 3)").get(random.nextInt(4)));
      create.add("a" + (i + 1) + " " + types.get(i));
    }
    final List<Object[]> all = new ArrayList<>();
    for (int tid = 0; tid < tables; tid++) {
      final Distribution dist = Distribution.values()[random.nextInt(3)];
      final int levels = List.of(3, 8, 50, 1001).get(random.nextInt(4));
      final double nulls = random.nextInt(3) == 0 ? 0.05 : 0;
      final double duplicates = random.nextInt(3) == 0 ? 0.1 : 0;
      final int n = random.nextInt(maxRows + 1);
      final List<Object[]> rows = new ArrayList<>();
      for (int r = 0; r < n; r++) {
        final Object[] row;
        if (!rows.isEmpty() && random.nextDouble() < duplicates) {
          row = rows.get(random.nextInt(rows.size())).clone();
        } else {
          row = new Object[d + 3];
          row[2] = random.nextInt(4) == 0 ? null : random.nextInt(3);
          final double[] point = point(dist, d);
          for (int i = 0; i < d; i++) {
            final long v = Math.round(point[i] * (levels - 1)) * (1000 / (levels - 1));
            row[i + 3] = random.nextDouble() < nulls ? null : switch (types.get(i)) {
              case "INT" -> (int) v;
              case "BIGINT" -> v;
              case "DOUBLE PRECISION" -> v / 8.0;
              default -> java.math.BigDecimal.valueOf(v, 3);
            };
          }
        }
        row[0] = all.size() + rows.size();
        row[1] = tid;
        rows.add(row);
      }
      all.addAll(rows);
    }
    return new Batch(create.toString(), all);
  }

  /** A point in [0, 1]^d. */
  private double[] point(Distribution dist, int d) {
    final double[] p = new double[d];
    switch (dist) {
    case INDEPENDENT -> {
      for (int i = 0; i < d; i++) {
        p[i] = random.nextDouble();
      }
    }
    case CORRELATED -> {
      // Near the diagonal: one value for all, a little noise each.
      final double v = clip(0.5 + 0.25 * random.nextGaussian());
      for (int i = 0; i < d; i++) {
        p[i] = clip(v + 0.05 * random.nextGaussian());
      }
    }
    case ANTI_CORRELATED -> {
      // Near the plane sum = d / 2: good in one dimension, bad in another.
      final double plane = 0.5 + 0.05 * random.nextGaussian();
      double mean = 0;
      for (int i = 0; i < d; i++) {
        p[i] = random.nextDouble();
        mean += p[i] / d;
      }
      for (int i = 0; i < d; i++) {
        p[i] = clip(p[i] - mean + plane);
      }
    }
    default -> throw new AssertionError(dist);
    }
    return p;
  }

  private static double clip(double v) {
    return Math.max(0, Math.min(1, v));
  }
}
