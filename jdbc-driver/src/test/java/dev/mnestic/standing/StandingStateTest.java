package dev.mnestic.standing;

import dev.mnestic.runtime.Sketches;
import dev.mnestic.store.Session;

import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16 ("State that lives as planned"): a connection's standing queries keep the
 * summaries they built from rows across evaluations and bring them up to date from the rows
 * committed since, whichever connection or path committed them; what they answer is what a
 * pass over every row answers (the pass the first evaluation after reopening runs:
 * {@link Dashboard#dropKept}); a read after k inserted rows consumes k rows, not the table, and
 * one after an UPDATE the rows of the windows holding the rows it changed.
 * The queries are of relative error, answered by DDSketches or exact summaries, which answer
 * the same rows alike in any order.
 */
class StandingStateTest {
  private static final long MINUTE = 60_000;
  private static final long START = Timestamp.valueOf("2026-11-30 00:00:00").getTime();
  private static final String[] QUERIES = {"p90", "slow"};

  private static void define(Statement s) throws SQLException {
    s.execute("CREATE TABLE requests (id INT PRIMARY KEY, ts TIMESTAMP NOT NULL,"
        + " latency DOUBLE)");
    s.execute("CREATE STANDING QUERY p90 AS SELECT TUMBLE_END(ts, INTERVAL '1' MINUTE) AS w,"
        + " APPROX_QUANTILE(latency, 0.9) AS p90, APPROX_QUANTILE(latency, 0.5) AS p50"
        + " FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.02");
    s.execute("CREATE STANDING QUERY slow AS SELECT HOP_END(ts, INTERVAL '1' MINUTE,"
        + " INTERVAL '3' MINUTE) AS w, APPROX_QUANTILE(latency, 0.99) AS p99 FROM requests"
        + " GROUP BY HOP(ts, INTERVAL '1' MINUTE, INTERVAL '3' MINUTE)"
        + " WITHIN RELATIVE ERROR 0.02");
  }

  private static Dashboard dashboard(Connection c) throws SQLException {
    return Dashboard.of(c.unwrap(CalciteConnection.class).getRootSchema());
  }

  /** Every standing query's rows, as text, read through {@code c}. */
  private static List<String> answers(Connection c) throws SQLException {
    return answers(c, QUERIES);
  }

  /** The rows of standing queries {@code queries}, as text, read through {@code c}. */
  private static List<String> answers(Connection c, String... queries) throws SQLException {
    final List<String> out = new ArrayList<>();
    try (Statement s = c.createStatement()) {
      for (String q : queries) {
        try (ResultSet rs = s.executeQuery("SELECT * FROM " + q)) {
          final int n = rs.getMetaData().getColumnCount();
          while (rs.next()) {
            final StringBuilder b = new StringBuilder(q);
            for (int i = 1; i <= n; i++) {
              b.append(' ').append(rs.getObject(i));
            }
            out.add(b.toString());
          }
        }
      }
    }
    return out;
  }

  private static long rows(Connection c) throws SQLException {
    return count(c, "requests");
  }

  /** Inserts {@code n} rows from id {@code id} at random times of minutes [from, to). */
  private static void insert(Connection c, Random r, int id, int n, int from, int to)
      throws SQLException {
    // HSQLDB's own connection names the table as stored
    final String table = c.isWrapperFor(CalciteConnection.class) ? "requests"
        : "\"PUBLIC\".\"requests\"";
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + table
        + " VALUES (?, ?, ?)")) {
      for (int i = 0; i < n; i++) {
        insert.setInt(1, id + i);
        insert.setTimestamp(2, new Timestamp(START + from * MINUTE
            + (long) (r.nextDouble() * (to - from) * MINUTE)));
        insert.setDouble(3, Math.exp(3 + r.nextGaussian()));
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  @Test void keptStateAnswersAsAFullPass() throws SQLException {
    final String url = "jdbc:mnestic:db=mem:standing-state";
    try (Connection reader = DriverManager.getConnection(url);
        Connection writer = DriverManager.getConnection(url)) {
      try (Statement s = reader.createStatement()) {
        define(s);
      }
      final Random r = new Random(16);
      insert(writer, r, 0, 3000, 0, 10);
      final Dashboard d = dashboard(reader);
      answers(reader);
      assertEquals(1, d.kept());
      assertEquals(3000, d.consumed());
      // The store session's own HSQLDB connection, as a direct writer.
      final Connection direct = Session.of(writer.unwrap(CalciteConnection.class).getRootSchema())
          .getConnection();
      int id = 3000;
      int minutes = 10;
      int keptReads = 0;
      for (int round = 0; round < 8; round++) {
        List<String> kept = null;
        for (int step = 0; step < 3; step++) {
          final long before = d.consumed();
          final int op = r.nextInt(6);
          int k = 0;
          if (op == 0 || op == 1) {
            // inserts, the table growing a minute now and then
            k = 1 + r.nextInt(200);
            minutes += r.nextInt(2);
            insert(op == 0 ? writer : reader, r, id, k, minutes - 3, minutes);
            id += k;
          } else if (op == 2) {
            k = 1 + r.nextInt(50);
            direct.setAutoCommit(false);
            insert(direct, r, id, k, minutes - 2, minutes);
            direct.commit();
            direct.setAutoCommit(true);
            id += k;
          } else if (op == 3) {
            // rolled back: nothing changes
            writer.setAutoCommit(false);
            insert(writer, r, id, 100, 0, minutes);
            try (Statement s = writer.createStatement()) {
              s.execute("DELETE FROM requests WHERE id < 500");
            }
            writer.rollback();
            writer.setAutoCommit(true);
          } else if (op == 4) {
            // an update of one minute's rows rebuilds the windows holding them, not the table
            final Timestamp from = new Timestamp(START + r.nextInt(minutes) * MINUTE);
            try (PreparedStatement update = writer.prepareStatement("UPDATE requests"
                + " SET latency = latency * 2 WHERE ts >= ? AND ts < ?")) {
              update.setTimestamp(1, from);
              update.setTimestamp(2, new Timestamp(from.getTime() + MINUTE));
              update.execute();
            }
            kept = answers(reader);
            assertTrue(d.consumed() - before < rows(reader),
                (d.consumed() - before) + " rows read again of " + rows(reader));
            keptReads++;
            continue;
          } else {
            try (Statement s = (r.nextBoolean() ? writer : reader).createStatement()) {
              s.execute("DELETE FROM requests WHERE MOD(id, 89) = " + r.nextInt(89));
            }
            k = -1;
          }
          kept = answers(reader);
          if (k >= 0) {
            // inserts only (or a rollback): the kept summaries took the k rows, nothing more
            assertEquals(k, d.consumed() - before, "op " + op);
            keptReads++;
          }
        }
        d.dropKept();
        assertEquals(answers(reader), kept, "round " + round);
      }
      assertTrue(keptReads > 8, keptReads + " reads from kept summaries");
    }
  }

  /**
   * A query with WHERE keeps its summaries too: the rows committed since pass its filter as
   * in a pass (counted against the store's own count of the rows that pass it), an UPDATE
   * moving rows in and out of the filter rebuilds only the windows holding them, and the
   * answers equal a full pass.
   */
  @Test void filteredQueryKeepsItsState() throws SQLException {
    final String url = "jdbc:mnestic:db=mem:standing-filtered";
    final String where = "service = 'api' AND latency > 15";
    try (Connection c = DriverManager.getConnection(url)) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE calls (id INT PRIMARY KEY, ts TIMESTAMP NOT NULL,"
            + " service VARCHAR(10), latency DOUBLE)");
        s.execute("CREATE STANDING QUERY api AS SELECT TUMBLE_END(ts, INTERVAL '1' MINUTE) AS w,"
            + " APPROX_QUANTILE(latency, 0.9) AS p90 FROM calls WHERE " + where
            + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.02");
      }
      final Dashboard d = dashboard(c);
      final Random r = new Random(11);
      final String[] services = {"api", "web", null};
      int id = 0;
      int minutes = 5;
      List<String> kept = null;
      for (int round = 0; round < 12; round++) {
        final long before = d.consumed();
        final long matching = count(c, "calls WHERE " + where);
        final int op = round == 0 ? 0 : r.nextInt(3);
        if (op == 0) {
          minutes += r.nextInt(2);
          try (PreparedStatement insert = c.prepareStatement(
              "INSERT INTO calls VALUES (?, ?, ?, ?)")) {
            for (int i = 0, n = 1 + r.nextInt(400); i < n; i++) {
              insert.setInt(1, id++);
              insert.setTimestamp(2, new Timestamp(START + (long) (r.nextDouble() * minutes
                  * MINUTE)));
              insert.setString(3, services[r.nextInt(3)]);
              insert.setDouble(4, Math.exp(3 + r.nextGaussian()));
              insert.addBatch();
            }
            insert.executeBatch();
          }
        } else {
          try (Statement s = c.createStatement()) {
            s.execute(op == 1
                ? "UPDATE calls SET service = CASE WHEN service = 'api' THEN 'web' ELSE 'api'"
                    + " END WHERE MOD(id, 37) = " + r.nextInt(37)
                : "DELETE FROM calls WHERE MOD(id, 41) = " + r.nextInt(41));
          }
        }
        kept = answers(c, "api");
        if (round > 0 && op == 0) {
          // the inserted rows that pass the filter, as the store counts them, and no others
          assertEquals(count(c, "calls WHERE " + where) - matching, d.consumed() - before);
        } else if (round > 0) {
          assertTrue(d.consumed() - before < count(c, "calls WHERE " + where),
              (d.consumed() - before) + " rows read again");
        }
        assertEquals(1, d.kept());
      }
      d.dropKept();
      assertEquals(answers(c, "api"), kept);
      assertTrue(kept.size() > 3, kept.toString());
    }
  }

  /**
   * Every bulk path reaches the kept summaries: a JDBC batch INSERT (which goes straight into
   * the store, counted by {@code Session.directRows}), {@code mnestic import --csv} from
   * another connection of the CLI, and Datalog's {@code :put} and {@code :rm}; each read
   * consumes the rows written (a :rm the windows it changed), and answers as a full pass.
   * (Datalog's {@code :replace} makes the relation again with Datalog's types, its TIMESTAMP
   * column then text: the standing queries reading it fail, naming the column.)
   */
  @Test void bulkCsvAndDatalogWritesReachTheKeptState(@TempDir Path dir) throws Exception {
    final String db = dir.resolve("store").toString();
    final String url = "jdbc:mnestic:db=" + db;
    try (Connection reader = DriverManager.getConnection(url);
        Connection writer = DriverManager.getConnection(url);
        Connection datalog = DriverManager.getConnection(url + ";lang=datalog")) {
      try (Statement s = reader.createStatement()) {
        define(s);
      }
      final Random r = new Random(8);
      insert(writer, r, 0, 2000, 0, 10);
      final Dashboard d = dashboard(reader);
      answers(reader);
      assertEquals(1, d.kept());
      // the batch INSERT: straight into the store
      final Session session = Session.of(writer.unwrap(CalciteConnection.class).getRootSchema());
      long direct = session.directRows();
      long consumed = d.consumed();
      insert(writer, r, 2000, 500, 8, 12);
      assertEquals(500, session.directRows() - direct);
      List<String> kept = answers(reader);
      assertEquals(500, d.consumed() - consumed);
      d.dropKept();
      assertEquals(answers(reader), kept);
      // mnestic import --csv, its own connection
      final StringBuilder csv = new StringBuilder("id,ts,latency\n");
      for (int i = 0; i < 300; i++) {
        csv.append(10_000 + i).append(',').append(new Timestamp(START + 11 * MINUTE
            + r.nextInt((int) (2 * MINUTE)))).append(',').append(Math.exp(3 + r.nextGaussian()))
            .append('\n');
      }
      final Path file = dir.resolve("rows.csv");
      java.nio.file.Files.writeString(file, csv);
      consumed = d.consumed();
      final java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
      assertEquals(0, dev.mnestic.cli.Main.run(new String[] {"import", "--db", db, "--csv",
          file.toString(), "requests"}, java.io.InputStream.nullInputStream(),
          new java.io.PrintStream(new java.io.ByteArrayOutputStream()),
          new java.io.PrintStream(err)), err.toString());
      kept = answers(reader);
      assertEquals(300, d.consumed() - consumed);
      d.dropKept();
      assertEquals(answers(reader), kept);
      // Datalog's :put, then :rm of some rows
      consumed = d.consumed();
      datalog(datalog, "?[id, ts, latency] <- [[20000, '" + new Timestamp(START + 12 * MINUTE)
          + "', 40.5], [20001, '" + new Timestamp(START + 12 * MINUTE + 1000) + "', 2.5]]"
          + " :put requests {id => ts, latency}");
      kept = answers(reader);
      assertEquals(2, d.consumed() - consumed);
      consumed = d.consumed();
      datalog(datalog, "?[id] <- [[5], [2100], [20000]] :rm requests {id}");
      kept = answers(reader);
      assertTrue(d.consumed() - consumed < rows(reader), (d.consumed() - consumed)
          + " rows read again");
      d.dropKept();
      assertEquals(answers(reader), kept);
    }
  }

  private static void datalog(Connection c, String script) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.executeQuery(script).close();
    }
  }

  /**
   * RETAIN bounds what is kept: over an hour of minutes (and late rows, some older than any
   * retention), each query answers the windows ending after the latest row's time less its
   * retention, the kept summaries hold no more windows than the longest retention reading them
   * asks (the same after 30 minutes as after 60), and the kept answers equal a full pass.
   */
  @Test void retentionBoundsTheKeptState() throws SQLException {
    final String url = "jdbc:mnestic:db=mem:standing-retained";
    try (Connection c = DriverManager.getConnection(url)) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE requests (id INT PRIMARY KEY, ts TIMESTAMP NOT NULL,"
            + " latency DOUBLE)");
        s.execute("CREATE STANDING QUERY recent AS SELECT TUMBLE_END(ts, INTERVAL '1' MINUTE)"
            + " AS w, APPROX_QUANTILE(latency, 0.9) AS p90 FROM requests"
            + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.02"
            + " RETAIN INTERVAL '5' MINUTE");
        s.execute("CREATE STANDING QUERY slow AS SELECT HOP_END(ts, INTERVAL '1' MINUTE,"
            + " INTERVAL '3' MINUTE) AS w, APPROX_QUANTILE(latency, 0.99) AS p99 FROM requests"
            + " GROUP BY HOP(ts, INTERVAL '1' MINUTE, INTERVAL '3' MINUTE)"
            + " WITHIN RELATIVE ERROR 0.05 RETAIN INTERVAL '10' MINUTE");
      }
      final Dashboard d = dashboard(c);
      final Random r = new Random(21);
      final long[] heldAt30 = new long[1];
      for (int minute = 1, id = 0; minute <= 60; minute++) {
        // this minute's rows, and a few late ones anywhere before
        insert(c, r, id, 40, minute - 1, minute);
        insert(c, r, id + 40, 3, 0, minute);
        id += 43;
        final List<String> recent = answers(c, "recent");
        final List<String> slow = answers(c, "slow");
        final long latest = latest(c);
        checkRetained(recent, latest, 5 * MINUTE, MINUTE, MINUTE);
        checkRetained(slow, latest, 10 * MINUTE, MINUTE, 3 * MINUTE);
        final long held = bounded(d);
        if (minute == 30) {
          heldAt30[0] = held;
        }
        if (minute % 20 == 0) {
          d.dropKept();
          assertEquals(recent, answers(c, "recent"), "minute " + minute);
          assertEquals(slow, answers(c, "slow"), "minute " + minute);
        }
      }
      assertEquals(heldAt30[0], bounded(d));
      // EXPLAIN shows each summary's retention and what its kept windows hold
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR SELECT * FROM recent")) {
        final StringBuilder b = new StringBuilder();
        while (rs.next()) {
          b.append(rs.getString(1)).append('\n');
        }
        final String[] held = d.summaries().values().iterator().next().stream()
            .map(Sketches.Summary::toString).toArray(String[]::new);
        for (int i = 0; i < held.length; i++) {
          final long windows = d.keptWindows().values().iterator().next()[i];
          assertTrue(b.toString().contains(held[i] + " kept " + windows + " windows, "), b
              + " lacks " + held[i]);
        }
        assertTrue(b.toString().contains("retain=300000") && b.toString().contains(
            "retain=600000"), b.toString());
      }
    }
  }

  /**
   * Checks that {@code rows} (a query's, as text: name, window end, value) are the windows of
   * {@code width} every {@code step} holding a row whose end is after {@code latest} less
   * {@code retain}, each in order: the rows are dense from {@link #START} on, so every such
   * window after it holds one.
   */
  private static void checkRetained(List<String> rows, long latest, long retain, long step,
      long width) {
    final List<Long> expected = new ArrayList<>();
    for (long end = Math.floorDiv(latest - retain, step) * step + step;
        end - width <= latest; end += step) {
      // the first rows are at START
      if (end > START) {
        expected.add(end);
      }
    }
    // "name yyyy-mm-dd hh:mm:ss.f value"
    final List<Long> ends = rows.stream().map(row -> row.split(" "))
        .map(f -> Timestamp.valueOf(f[1] + " " + f[2]).getTime()).toList();
    assertEquals(expected, ends, rows.toString());
  }

  /**
   * The windows the kept summaries hold, in all, after checking that each summary's are no
   * more than the longest retention among the plan's summaries, and its window, ask.
   */
  private static long bounded(Dashboard d) {
    long total = 0;
    for (Map.Entry<String, List<Sketches.Summary>> e : d.summaries().entrySet()) {
      final long[] held = d.keptWindows().get(e.getKey());
      final long reach = e.getValue().stream().mapToLong(x -> x.retain() + x.width()).max()
          .orElseThrow();
      for (int i = 0; i < held.length; i++) {
        final Sketches.Summary x = e.getValue().get(i);
        final long cell = Sketches.cellWidth(x.family(), x.width(), x.step(), x.subWidth());
        final long bound = (cell > 0 ? reach / cell : (reach + x.width()) / x.step()) + 1;
        assertTrue(held[i] <= bound, x + " holds " + held[i] + " windows, over " + bound);
        total += held[i];
      }
    }
    return total;
  }

  private static long latest(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT MAX(ts) FROM requests")) {
      rs.next();
      return rs.getTimestamp(1).getTime();
    }
  }

  private static long count(Connection c, String from) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + from)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * A reader refreshing while another connection commits inserts and updates and rolls back
   * ends, once the writer stops, where a full pass does.
   */
  @Test void concurrentWritesLeaveTheKeptStateExact() throws Exception {
    final String url = "jdbc:mnestic:db=mem:standing-concurrent";
    try (Connection reader = DriverManager.getConnection(url);
        Connection writer = DriverManager.getConnection(url)) {
      try (Statement s = reader.createStatement()) {
        define(s);
      }
      insert(writer, new Random(5), 0, 2000, 0, 10);
      answers(reader);
      final java.util.concurrent.atomic.AtomicReference<Throwable> failed =
          new java.util.concurrent.atomic.AtomicReference<>();
      final Thread writes = new Thread(() -> {
        final Random r = new Random(6);
        try (Statement s = writer.createStatement()) {
          for (int i = 0; i < 60; i++) {
            if (i % 7 == 3) {
              writer.setAutoCommit(false);
              insert(writer, r, 100_000 + i * 100, 50, 0, 12);
              writer.rollback();
              writer.setAutoCommit(true);
            } else if (i % 5 == 2) {
              s.execute("UPDATE requests SET latency = latency + 1 WHERE MOD(id, 50) = " + i);
            } else {
              insert(writer, r, 10_000 + i * 100, 1 + r.nextInt(100), 8, 12);
            }
          }
        } catch (Throwable e) {
          failed.set(e);
        }
      });
      writes.start();
      final Dashboard d = dashboard(reader);
      while (writes.isAlive()) {
        answers(reader);
      }
      writes.join();
      if (failed.get() != null) {
        throw new AssertionError(failed.get());
      }
      final List<String> kept = answers(reader);
      d.dropKept();
      assertEquals(answers(reader), kept);
    }
  }

  /**
   * Rows loaded in bulk, by a batch INSERT (bound straight into the store, 64 rows an HSQLDB
   * statement) and by {@code mnestic import --csv}, reach the kept state as any insert: a read
   * after k loaded rows consumes k rows, and answers what a pass over every row answers; an
   * import that fails on a bad line stores nothing and changes no answer.
   */
  @Test void bulkLoadsReachTheKeptState(@TempDir Path dir) throws Exception {
    final String db = "mem:standing-bulk";
    try (Connection reader = DriverManager.getConnection("jdbc:mnestic:db=" + db);
        Connection writer = DriverManager.getConnection("jdbc:mnestic:db=" + db)) {
      try (Statement s = reader.createStatement()) {
        define(s);
      }
      final Random r = new Random(11);
      insert(writer, r, 0, 1000, 0, 4);
      answers(reader);
      final Dashboard d = dashboard(reader);
      long consumed = d.consumed();
      insert(writer, r, 1000, 2000, 2, 7);
      answers(reader);
      assertEquals(2000, d.consumed() - consumed);
      final StringBuilder csv = new StringBuilder("id,ts,latency\n");
      for (int i = 0; i < 1500; i++) {
        csv.append(3000 + i).append(',')
            .append(new Timestamp(START + (long) (r.nextDouble() * 9 * MINUTE))).append(',')
            .append(Math.exp(3 + r.nextGaussian())).append('\n');
      }
      final Path good = dir.resolve("good.csv");
      java.nio.file.Files.writeString(good, csv);
      consumed = d.consumed();
      assertEquals(0, importCsv(db, good));
      final List<String> after = answers(reader);
      assertEquals(1500, d.consumed() - consumed);
      assertEquals(4500, rows(reader));
      final Path bad = dir.resolve("bad.csv");
      java.nio.file.Files.writeString(bad, "id,ts,latency\n9000,2026-11-30 00:05:00,1.5\n"
          + "9001,2026-11-30 00:05:01,slow\n");
      consumed = d.consumed();
      assertEquals(1, importCsv(db, bad));
      assertEquals(after, answers(reader));
      assertEquals(0, d.consumed() - consumed);
      d.dropKept();
      assertEquals(after, answers(reader));
    }
  }

  /** {@code mnestic import --db DB --csv FILE requests}: its exit status. */
  private static int importCsv(String db, Path file) {
    return dev.mnestic.cli.Main.run(new String[] {"import", "--db", db, "--csv", file.toString(),
        "requests"}, java.io.InputStream.nullInputStream(),
        new java.io.PrintStream(java.io.OutputStream.nullOutputStream()),
        new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
  }

  /** A writer's rows not committed count only once committed; the reader never sees them before. */
  @Test void onlyCommittedRowsCount() throws SQLException {
    final String url = "jdbc:mnestic:db=mem:standing-committed";
    try (Connection reader = DriverManager.getConnection(url);
        Connection writer = DriverManager.getConnection(url)) {
      try (Statement s = reader.createStatement()) {
        define(s);
      }
      final Random r = new Random(7);
      insert(writer, r, 0, 1000, 0, 5);
      final List<String> before = answers(reader);
      final Dashboard d = dashboard(reader);
      writer.setAutoCommit(false);
      insert(writer, r, 1000, 500, 3, 8);
      assertEquals(before, answers(reader));
      final long consumed = d.consumed();
      writer.commit();
      final List<String> after = answers(reader);
      assertEquals(500, d.consumed() - consumed);
      d.dropKept();
      assertEquals(answers(reader), after);
      // The reader's own uncommitted rows: seen by its reads, kept by none of them.
      reader.setAutoCommit(false);
      insert(reader, r, 2000, 300, 6, 9);
      final List<String> own = answers(reader);
      reader.rollback();
      reader.setAutoCommit(true);
      assertEquals(after, answers(reader));
      assertTrue(!own.equals(after));
    }
  }

  /** A file store reopened answers as before it was closed, from a pass over its rows. */
  @Test void reopenedStoreAnswersTheSame(@TempDir Path dir) throws SQLException {
    final String url = "jdbc:mnestic:db=" + dir.resolve("store");
    final List<String> before;
    try (Connection c = DriverManager.getConnection(url)) {
      try (Statement s = c.createStatement()) {
        define(s);
      }
      final Random r = new Random(3);
      insert(c, r, 0, 2000, 0, 6);
      answers(c);
      insert(c, r, 2000, 300, 5, 8);
      before = answers(c);
      assertEquals(2300, dashboard(c).consumed());
    }
    try (Connection c = DriverManager.getConnection(url)) {
      assertEquals(before, answers(c));
      assertEquals(2300, dashboard(c).consumed());
    }
  }
}
