package dev.mnestic.jdbc;

import dev.mnestic.datalog.Engine;
import dev.mnestic.value.Bytes;
import dev.mnestic.value.Json;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.mnestic.jdbc.Rows.row;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CozoScript through JDBC ({@code lang=datalog}) over tables that SQL created. */
class DatalogJdbcTest {
  @Test void recursionOverAStoredTable() throws SQLException {
    final String db = "mem:datalog-" + UUID.randomUUID();
    try (Connection sql = DriverManager.getConnection("jdbc:mnestic:db=" + db);
         Connection datalog = DriverManager.getConnection("jdbc:mnestic:db=" + db + ";lang=datalog")) {
      Rows.update(sql, "CREATE TABLE edge (src INT NOT NULL, dst INT NOT NULL, PRIMARY KEY (src, dst))");
      try (PreparedStatement ps = sql.prepareStatement("INSERT INTO edge VALUES (?, ?)")) {
        for (int i = 1; i < 40; i++) {
          ps.setInt(1, i);
          ps.setInt(2, i + 1);
          ps.addBatch();
        }
        ps.executeBatch();
      }
      final List<List<Object>> rows;
      try (Statement s = datalog.createStatement();
           ResultSet rs = s.executeQuery("""
               reach[a, b] := *edge[a, b]
               reach[a, c] := reach[a, b], *edge{src: b, dst: c}
               ?[a, b] := reach[a, b], a > 35
               """)) {
        assertEquals("a", rs.getMetaData().getColumnLabel(1));
        rows = Rows.read(rs);
      }
      // from 36..39 to everything after: 4 + 3 + 2 + 1, in value order
      assertEquals(List.of(row(36L, 37L), row(36L, 38L), row(36L, 39L), row(36L, 40L),
          row(37L, 38L), row(37L, 39L), row(37L, 40L), row(38L, 39L), row(38L, 40L),
          row(39L, 40L)), rows);
      final List<Object> counts = new ArrayList<>();
      try (ResultSet rs = datalog.createStatement().executeQuery(
          "r[a, b] := *edge[a, b]\nr[a, c] := r[a, b], *edge[b, c]\n?[a, b] := r[a, b]")) {
        while (rs.next()) {
          counts.add(rs.getObject(1));
        }
      }
      assertEquals(39 * 40 / 2, counts.size());
      assertTrue(counts.get(0) instanceof Long, "CozoDB Ints are Longs");
    }
  }

  /**
   * An index a script makes ({@code ::index create}, issue 17) is the store's: JDBC's
   * {@code getIndexInfo} shows it, SQL looks a constant up in it, a write through SQL keeps it
   * in step, and {@code DROP TABLE} drops it with its table.
   */
  @Test void aScriptsIndexIsTheStores() throws SQLException {
    final String db = "mem:datalog-" + UUID.randomUUID();
    try (Connection sql = DriverManager.getConnection("jdbc:mnestic:db=" + db);
         Connection datalog = DriverManager.getConnection("jdbc:mnestic:db=" + db + ";lang=datalog")) {
      Rows.query(datalog, ":create r {a: Int => b: Int, c: String}");
      Rows.query(datalog, "?[a, b, c] <- [[1, 5, 'x'], [2, 6, 'y']] :put r {a => b, c}");
      final String plan = "EXPLAIN PLAN FOR SELECT a FROM r WHERE b = 5";
      assertFalse(String.valueOf(Rows.query(sql, plan)).contains("JdbcFilter"));
      Rows.query(datalog, "::index create r:byb {b}");
      final List<List<Object>> index = new ArrayList<>();
      try (ResultSet rs = sql.getMetaData().getIndexInfo(null, "PUBLIC", "r", false, true)) {
        while (rs.next()) {
          if (rs.getString("INDEX_NAME").equals("r:byb")) {
            index.add(row(rs.getBoolean("NON_UNIQUE"), rs.getString("COLUMN_NAME")));
          }
        }
      }
      assertEquals(List.of(row(true, "b"), row(true, "a")), index);
      assertTrue(String.valueOf(Rows.query(sql, plan)).contains("JdbcFilter"),
          String.valueOf(Rows.query(sql, plan)));
      Rows.update(sql, "UPDATE r SET b = 7 WHERE a = 1");
      assertEquals(List.of(row(6L, 2L), row(7L, 1L)),
          Rows.query(datalog, "?[b, a] := *r:byb[b, a]"));
      Rows.update(sql, "DROP TABLE r");
      Rows.query(datalog, ":create r {a: Int => b: Int}");
      assertEquals(List.of(), Rows.query(datalog, "::indices r"));
    }
  }

  /**
   * A Json value reaches a JDBC client as its text and Bytes as {@code byte[]}; the result set
   * also unwraps to the engine's result, where they are CozoDB's values still.
   */
  @Test void resultSetUnwrapsToTheEnginesResult() throws SQLException {
    try (Connection datalog = DriverManager.getConnection("jdbc:mnestic:lang=datalog");
         Statement s = datalog.createStatement();
         ResultSet rs = s.executeQuery("?[j, b] <- [[json_object('x', 1), decode_base64('AQI=')]]")) {
      assertTrue(rs.isWrapperFor(Engine.Result.class));
      final Engine.Result result = rs.unwrap(Engine.Result.class);
      assertEquals(List.of("j", "b"), result.headers());
      assertEquals(List.of(List.of(Json.parse("{\"x\":1}"), Bytes.of(new byte[] {1, 2}))),
          result.rows());
      assertTrue(rs.next());
      assertEquals("{\"x\":1}", rs.getObject(1));
      assertArrayEquals(new byte[] {1, 2}, (byte[]) rs.getObject(2));
    }
  }

  /** A recursion that never settles stops at its {@code :timeout} and writes nothing. */
  @Test void divergentRecursionStopsAtItsTimeout() throws SQLException {
    try (Connection datalog = DriverManager.getConnection("jdbc:mnestic:lang=datalog");
         Statement s = datalog.createStatement()) {
      final long start = System.nanoTime();
      final SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(
          "p[n, s] := n = 0, s = 'x'\np[m, t] := p[n, s], m = n + 1, t = s ++ 'x'\n"
              + "?[n] := p[n, _]\n:create grown {n: Int}\n:timeout 1"));
      final double seconds = (System.nanoTime() - start) / 1e9;
      assertTrue(e.getMessage().contains("[eval::killed]"), e.getMessage());
      assertTrue(seconds < 30, "stopped after " + seconds + " s");
      try (ResultSet rs = s.executeQuery("::relations")) {
        assertTrue(!rs.next(), "nothing was created");
      }
    }
  }

  /** A prepared script binds its $params in order of first appearance, and runs again with new values. */
  @Test void preparedStatementParametersBindDollarNames() throws SQLException {
    try (Connection datalog = DriverManager.getConnection("jdbc:mnestic:lang=datalog");
         PreparedStatement ps = datalog.prepareStatement(
             "?[x, y, z] := x = $low, y = $label ++ '!', z = x + $low + to_int($step)")) {
      assertEquals(3, ps.getParameterMetaData().getParameterCount());
      assertEquals(List.of("x", "y", "z"), List.of(ps.getMetaData().getColumnName(1),
          ps.getMetaData().getColumnName(2), ps.getMetaData().getColumnName(3)));
      ps.setInt(1, 2);
      ps.setString(2, "a");
      ps.setDouble(3, 10.0);
      try (ResultSet rs = ps.executeQuery()) {
        assertEquals(List.of(row(2L, "a!", 14L)), Rows.read(rs));
      }
      ps.setLong(1, 5);
      ps.setString(2, "b");
      ps.setObject(3, 1);
      try (ResultSet rs = ps.executeQuery()) {
        assertEquals(List.of(row(5L, "b!", 11L)), Rows.read(rs));
      }
    }
  }

  @Test void preparedScriptErrors() throws SQLException {
    try (Connection datalog = DriverManager.getConnection("jdbc:mnestic:lang=datalog")) {
      final SQLException parse = assertThrows(SQLException.class,
          () -> datalog.prepareStatement("?[a] := a = $x,\n  a >"));
      assertTrue(messages(parse).contains("2:6: expected an expression, found end of input"),
          messages(parse));
      try (PreparedStatement ps = datalog.prepareStatement("?[a] := a = $x + $y")) {
        ps.setInt(1, 1);
        final SQLException unset = assertThrows(SQLException.class, ps::executeQuery);
        assertTrue(messages(unset).contains("parameter 2 ($y) is not set"), messages(unset));
      }
    }
  }

  /**
   * A recursion that never settles. Each round derives its one new tuple a
   * thousand times over, so that it cannot reach the iteration cap (a million
   * rounds; a round of one tuple takes well under a microsecond when warm)
   * before a timeout or cancel of a second or two stops it.
   */
  private static final String NEVER_SETTLES =
      "p[n] := n = 0\np[m] := p[n], k in int_range(1000), m = n + 1\n?[n] := p[n]";

  /** Statement.setQueryTimeout stops a script whose recursion never settles. */
  @Test void queryTimeoutStopsAScript() throws SQLException {
    try (Connection datalog = DriverManager.getConnection("jdbc:mnestic:lang=datalog");
         Statement s = datalog.createStatement()) {
      s.setQueryTimeout(1);
      final long start = System.nanoTime();
      final SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(NEVER_SETTLES));
      final double seconds = (System.nanoTime() - start) / 1e9;
      assertTrue(messages(e).contains("[eval::killed]"), messages(e));
      assertTrue(seconds < 30, "stopped after " + seconds + " s");
    }
  }

  /** Statement.cancel from another thread stops a running script. */
  @Test void cancelStopsAScript() throws Exception {
    try (Connection datalog = DriverManager.getConnection("jdbc:mnestic:lang=datalog");
         Statement s = datalog.createStatement()) {
      final java.util.concurrent.CompletableFuture<Void> canceller =
          java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
              Thread.sleep(500);
              s.cancel();
            } catch (InterruptedException | SQLException e) {
              throw new IllegalStateException(e);
            }
          });
      final SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(NEVER_SETTLES));
      canceller.get();
      assertTrue(messages(e).contains("[eval::killed]"), messages(e));
    }
  }

  /**
   * {@link #NEVER_SETTLES} up to the parameter {@code $last}: 0 to $last, or, with $last far
   * out, never settling before a cancel.
   */
  private static final String SETTLES_AT = "p[n] := n = 0\n"
      + "p[m] := p[n], k in int_range(1000), m = n + 1, m <= $last\n?[n] := p[n]";
  private static final long FAR = 1_000_000_000_000L;

  /**
   * #14, point 4: cancel() of a running prepared script returns while it still runs and stops
   * it with 57014 (Avatica's waited for the statement's lock, which the execution holds, so
   * it returned only when the script had ended); the next execution is not cancelled.
   */
  @Test void cancelOfAPreparedScriptReturnsAtOnceAndStops() throws Exception {
    try (Connection datalog = DriverManager.getConnection("jdbc:mnestic:lang=datalog");
         PreparedStatement ps = datalog.prepareStatement(SETTLES_AT)) {
      ps.setLong(1, FAR);
      // Bounds the test should cancel() wait after all.
      ps.setQueryTimeout(60);
      final AtomicBoolean ended = new AtomicBoolean();
      final CompletableFuture<Boolean> endedWhenCancelReturned =
          CompletableFuture.supplyAsync(() -> {
            try {
              Thread.sleep(500);
              ps.cancel();
              return ended.get();
            } catch (InterruptedException | SQLException e) {
              throw new IllegalStateException(e);
            }
          });
      final SQLException e = assertThrows(SQLException.class, ps::executeQuery);
      ended.set(true);
      assertFalse(endedWhenCancelReturned.get(), "cancel() waited for the script to end");
      assertEquals("57014", e.getSQLState(), messages(e));
      stillAnswers(ps);
    }
  }

  /**
   * #14, point 4: a cancel() while the execution waits for the statement's lock (held here by
   * the test, as by another thread's use of the statement) is kept: the execution, once it
   * has the lock, stops with 57014 instead of running.
   */
  @Test void cancelWhileWaitingIsKept() throws Exception {
    try (Connection datalog = DriverManager.getConnection("jdbc:mnestic:lang=datalog");
         PreparedStatement ps = datalog.prepareStatement(SETTLES_AT)) {
      ps.setLong(1, FAR);
      ps.setQueryTimeout(60);
      final CompletableFuture<SQLException> execution;
      final Thread[] executing = {null};
      synchronized (ps) {
        execution = CompletableFuture.supplyAsync(() -> {
          executing[0] = Thread.currentThread();
          return assertThrows(SQLException.class, ps::executeQuery);
        });
        while (executing[0] == null || executing[0].getState() != Thread.State.BLOCKED) {
          Thread.sleep(1);
        }
        ps.cancel();
      }
      final SQLException e = execution.get();
      assertEquals("57014", e.getSQLState(), messages(e));
      stillAnswers(ps);
    }
  }

  /** {@code ps} ({@link #SETTLES_AT}) runs on: with $last 10, its 11 rows. */
  private static void stillAnswers(PreparedStatement ps) throws SQLException {
    ps.setLong(1, 10);
    try (ResultSet rs = ps.executeQuery()) {
      int n = 0;
      while (rs.next()) {
        n++;
      }
      assertEquals(11, n);
    }
  }

  /** ::explain gives each stratum's plan and runs nothing. */
  @Test void explainShowsStrataAndPlans() throws SQLException {
    try (Connection datalog = DriverManager.getConnection("jdbc:mnestic:lang=datalog");
         Statement s = datalog.createStatement()) {
      s.executeQuery(":create edge {a: Int, b: Int}");
      final List<List<Object>> rows;
      try (ResultSet rs = s.executeQuery("::explain { tc[a, b] := *edge[a, b]\n"
          + "tc[a, c] := tc[a, b], *edge[b, c]\n?[count(a)] := tc[a, b]\n:create out {n: Int} }")) {
        assertEquals(List.of("stratum", "rules", "plan"), List.of(rs.getMetaData().getColumnName(1),
            rs.getMetaData().getColumnName(2), rs.getMetaData().getColumnName(3)));
        rows = Rows.read(rs);
      }
      final List<String> tc = new ArrayList<>();
      final List<String> entry = new ArrayList<>();
      for (List<Object> row : rows) {
        (row.get(1).equals("tc") ? tc : entry).add((String) row.get(2));
      }
      // the stored relation is read once (from the store's rows), then the fixpoint joins the copy
      assertTrue(tc.stream().anyMatch(l -> l.contains("EnumerableStoreScan(table=[[PUBLIC, edge]])")),
          String.join("\n", tc));
      assertTrue(tc.stream().anyMatch(l -> l.startsWith("EnumerableRecursiveUnion(")),
          String.join("\n", tc));
      assertTrue(tc.stream().anyMatch(l -> l.contains("EnumerableHashJoin")), String.join("\n", tc));
      assertTrue(entry.get(0).startsWith("EnumerableDatalogAggregate(aggregations=[[count]])"),
          String.join("\n", entry));
      try (ResultSet rs = s.executeQuery("::relations")) {
        assertEquals(List.of(List.of("edge")), Rows.read(rs).stream().map(r -> r.subList(0, 1)).toList(),
            "explain created nothing");
      }
    }
  }

  /** With progress=stderr, a script running past a second shows its stratum and round, then erases the line. */
  @Test void progressLineOnStderr() throws Exception {
    final java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    final java.io.PrintStream err = System.err;
    System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
    try (Connection datalog = DriverManager.getConnection("jdbc:mnestic:lang=datalog;progress=stderr");
         Statement s = datalog.createStatement()) {
      assertThrows(SQLException.class, () -> s.executeQuery(NEVER_SETTLES + "\n:timeout 2"));
    } finally {
      System.setErr(err);
    }
    final String shown = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(shown.matches("(?s)\\rmnestic: stratum 1/2 \\[p\\] round \\d+, new p=1.*"), shown);
    assertTrue(shown.endsWith("\r"), "the line is erased at the end");
  }

  private static String messages(Throwable e) {
    final StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getMessage()).append('\n');
    }
    return b.toString();
  }

  @Test void scriptErrorsNameLineAndColumn() throws SQLException {
    try (Connection datalog = DriverManager.getConnection("jdbc:mnestic:lang=datalog");
         Statement s = datalog.createStatement()) {
      final SQLException parse = assertThrows(SQLException.class,
          () -> s.executeQuery("?[a] := a in [1, 2],\n  a >"));
      assertTrue(parse.getMessage().contains("2:6: expected an expression, found end of input"),
          parse.getMessage());
      final SQLException missing = assertThrows(SQLException.class,
          () -> s.executeQuery("?[a] := *nowhere[a]"));
      assertTrue(missing.getMessage().contains("Cannot find requested stored relation 'nowhere'"),
          missing.getMessage());
      final SQLException strata = assertThrows(SQLException.class, () -> s.executeQuery(
          "p[x] <- [[1]]\na[x] := p[x], not a[x]\n?[x] := a[x]"));
      assertTrue(strata.getMessage().contains("Query is unstratifiable [eval::unstratifiable]"),
          strata.getMessage());
    }
  }

  /**
   * CozoDB's tutorial on its air-routes dataset: the relations created as the
   * tutorial creates them, the dataset imported with {@code importRelations},
   * and the recursive shortest distance from LHR to YPO, a min aggregation
   * inside recursion, is 4147.0.
   */
  @Test void airRoutesShortestDistance() throws Exception {
    final Path data = Path.of("../datalog-frontend/src/test/resources/conformance/air-routes",
        "air-routes.json");
    try (Connection datalog = DriverManager.getConnection("jdbc:mnestic:lang=datalog")) {
      for (String create : List.of(
          ":create airport {code: String => icao: String, desc: String, region: String,"
              + " runways: Int, longest: Float, elev: Float, country: String, city: String,"
              + " lat: Float, lon: Float}",
          ":create country {code: String => desc: String}",
          ":create continent {code: String => desc: String}",
          ":create contain {entity: String, contained: String}",
          ":create route {fr: String, to: String => dist: Float}")) {
        datalog.createStatement().executeQuery(create).close();
      }
      new dev.mnestic.datalog.Engine(datalog).importRelations(Files.readString(data));
      try (ResultSet rs = datalog.createStatement().executeQuery("""
          ?[n] := *route{fr: 'LHR'}, n = 1
          """)) {
        assertTrue(rs.next(), "LHR has routes");
      }
      try (ResultSet rs = datalog.createStatement().executeQuery("""
          shortest[b, min(dist)] := *route{fr: 'LHR', to: b, dist}
          shortest[b, min(dist)] := shortest[c, d1], *route{fr: c, to: b, dist: d2},
                                    dist = d1 + d2
          ?[dist] := shortest['YPO', dist]
          """)) {
        assertTrue(rs.next());
        assertEquals(4147.0, rs.getObject(1));
      }
    }
  }
}
