package dev.mnestic.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static dev.mnestic.jdbc.Rows.query;
import static dev.mnestic.jdbc.Rows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stored relation's packed copy, and the index a recursion builds over it, are kept with the
 * table's version and given to later statements while the table is unchanged
 * ({@code StoreReads.longs}): every answer of a recursion over the relation equals the exact
 * reachability computed here from the edges written, through random writes of both front doors
 * (CozoScript {@code :put}, {@code :rm}, {@code :replace}; SQL INSERT, UPDATE, DELETE), scripts
 * and SQL transactions rolled back, and a writer committing while the recursion runs.
 */
class KeptCopyTest {
  private static final String REACH = "reach[y] := *e[%1$d, y]\n"
      + "reach[y] := reach[x], *e[x, y]\n?[y] := reach[y]";

  /** The nodes reads start from. */
  private static final int SOURCES = 4;

  private static String memory() {
    return "jdbc:mnestic:db=mem:kept-copy-" + UUID.randomUUID();
  }

  /** The nodes reached from {@code from} by one edge or more. */
  private static Set<Long> reach(Set<List<Long>> edges, long from) {
    final Map<Long, List<Long>> next = new HashMap<>();
    edges.forEach(e -> next.computeIfAbsent(e.get(0), k -> new ArrayList<>()).add(e.get(1)));
    final Set<Long> seen = new HashSet<>();
    final Deque<Long> todo = new ArrayDeque<>(next.getOrDefault(from, List.of()));
    while (!todo.isEmpty()) {
      final long n = todo.pop();
      if (seen.add(n)) {
        todo.addAll(next.getOrDefault(n, List.of()));
      }
    }
    return seen;
  }

  /** The nodes the recursion reaches from {@code from}, read through {@code datalog}. */
  private static Set<Long> reached(Connection datalog, long from) throws SQLException {
    return nodes(query(datalog, String.format(REACH, from)));
  }

  private static Set<Long> nodes(List<List<Object>> rows) {
    return rows.stream().map(row -> ((Number) row.get(0)).longValue())
        .collect(Collectors.toSet());
  }

  private static String cozo(Set<List<Long>> edges) {
    return edges.stream().map(e -> "[" + e.get(0) + ", " + e.get(1) + "]")
        .collect(Collectors.joining(", ", "[", "]"));
  }

  private static String sql(Set<List<Long>> edges) {
    return edges.stream().map(e -> "(" + e.get(0) + ", " + e.get(1) + ")")
        .collect(Collectors.joining(", "));
  }

  private static Set<List<Long>> randomEdges(Random random, int nodes, int count) {
    final Set<List<Long>> edges = new HashSet<>();
    for (int k = 0; k < count; k++) {
      edges.add(List.of((long) random.nextInt(nodes), (long) random.nextInt(nodes)));
    }
    return edges;
  }

  @Test void writesOfBothFrontDoorsAndRollbacksAreSeen() throws SQLException {
    final String url = memory();
    final Random random = new Random(41);
    final int nodes = 40;
    try (Connection sql = DriverManager.getConnection(url);
         Connection datalog = DriverManager.getConnection(url + ";lang=datalog");
         Connection other = DriverManager.getConnection(url + ";lang=datalog")) {
      query(datalog, ":create e {a: Int, b: Int}");
      final Set<List<Long>> model = randomEdges(random, nodes, 60);
      query(datalog, "?[a, b] <- " + cozo(model) + " :put e {a, b}");
      for (int step = 0; step < 24; step++) {
        final Set<List<Long>> some = randomEdges(random, nodes, 1 + random.nextInt(6));
        final String did;
        switch (random.nextInt(8)) {
          case 0 -> {
            query(datalog, "?[a, b] <- " + cozo(some) + " :put e {a, b}");
            model.addAll(some);
            did = ":put";
          }
          case 1 -> {
            some.addAll(model.stream().limit(random.nextInt(4)).toList());
            query(datalog, "?[a, b] <- " + cozo(some) + " :rm e {a, b}");
            model.removeAll(some);
            did = ":rm";
          }
          case 2 -> {
            some.removeAll(model);
            if (some.isEmpty()) {
              continue;
            }
            update(sql, "INSERT INTO e VALUES " + sql(some));
            model.addAll(some);
            did = "INSERT";
          }
          case 3 -> {
            final List<Long> gone = model.iterator().next();
            update(sql, "DELETE FROM e WHERE a = " + gone.get(0) + " AND b = " + gone.get(1));
            model.remove(gone);
            did = "DELETE";
          }
          case 4 -> {
            final List<Long> moved = model.iterator().next();
            final List<Long> to = List.of(moved.get(0), (long) random.nextInt(nodes));
            if (model.contains(to)) {
              continue;
            }
            update(sql, "UPDATE e SET b = " + to.get(1) + " WHERE a = " + moved.get(0)
                + " AND b = " + moved.get(1));
            model.remove(moved);
            model.add(to);
            did = "UPDATE";
          }
          case 5 -> {
            // a script that writes, reads its own rows in a recursion, then fails: taken back
            final long from = random.nextInt(SOURCES);
            assertThrows(SQLException.class, () -> query(datalog, "{?[a, b] <- " + cozo(some)
                + " :put e {a, b}}\n{" + String.format(REACH, from) + "}\n"
                + "{?[x] <- [[1]] :assert none}"));
            // the same writes and read, committed
            model.addAll(some);
            assertEquals(reach(model, from), nodes(query(datalog, "{?[a, b] <- " + cozo(some)
                + " :put e {a, b}}\n{" + String.format(REACH, from) + "}")));
            did = "script rolled back, then committed";
          }
          case 6 -> {
            // an SQL transaction others do not see, rolled back
            sql.setAutoCommit(false);
            try {
              update(sql, "DELETE FROM e");
              update(sql, "INSERT INTO e VALUES " + sql(some));
              final long from = random.nextInt(SOURCES);
              assertEquals(reach(model, from), reached(other, from), "others' view");
              sql.rollback();
            } finally {
              sql.setAutoCommit(true);
            }
            did = "SQL transaction rolled back";
          }
          default -> {
            query(datalog, "?[a, b] <- " + cozo(some) + " :replace e {a: Int, b: Int}");
            model.clear();
            model.addAll(some);
            did = ":replace";
          }
        }
        for (int q = 0; q < 2; q++) {
          // a few sources: a script run again replays its kept evaluation, as the bench's runs
          final long from = random.nextInt(SOURCES);
          final Set<Long> expected = reach(model, from);
          // the first read may make the copy, the second and the other connection's reuse it
          assertEquals(expected, reached(datalog, from), "step " + step + " after " + did);
          assertEquals(expected, reached(datalog, from), "again, step " + step);
          assertEquals(expected, reached(other, from), "another connection, step " + step);
        }
      }
    }
  }

  /**
   * A writer committing one edge a statement while the recursion runs from node 0 again and
   * again on another connection: each answer is the reachability over the edges committed at
   * some moment during its statement.
   */
  @Test void aConcurrentWriterIsSeenAsOfOneMoment() throws Exception {
    final String url = memory();
    final Random random = new Random(43);
    final int nodes = 60;
    final List<List<Long>> writes = new ArrayList<>();
    final Set<List<Long>> initial = randomEdges(random, nodes, 80);
    while (writes.size() < 60) {
      final List<Long> e = List.of((long) random.nextInt(nodes), (long) random.nextInt(nodes));
      if (!initial.contains(e) && !writes.contains(e)) {
        writes.add(e);
      }
    }
    try (Connection sql = DriverManager.getConnection(url);
         Connection datalog = DriverManager.getConnection(url + ";lang=datalog")) {
      query(datalog, ":create e {a: Int, b: Int}");
      query(datalog, "?[a, b] <- " + cozo(initial) + " :put e {a, b}");
      final AtomicInteger committed = new AtomicInteger();
      final CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
        try {
          for (List<Long> e : writes) {
            update(sql, "INSERT INTO e VALUES (" + e.get(0) + ", " + e.get(1) + ")");
            committed.incrementAndGet();
          }
        } catch (SQLException ex) {
          throw new IllegalStateException(ex);
        }
      });
      int reads = 0;
      while (!writer.isDone() || reads < 3) {
        final int before = committed.get();
        final Set<Long> got = reached(datalog, 0);
        // one more may have committed without being counted yet
        final int after = Math.min(writes.size(), committed.get() + 1);
        boolean matched = false;
        for (int k = before; k <= after && !matched; k++) {
          final Set<List<Long>> edges = new HashSet<>(initial);
          edges.addAll(writes.subList(0, k));
          matched = reach(edges, 0).equals(got);
        }
        assertTrue(matched, "read " + reads + " between " + before + " and " + after
            + " writes: " + got);
        reads++;
      }
      writer.join();
      final Set<List<Long>> all = new HashSet<>(initial);
      all.addAll(writes);
      assertEquals(reach(all, 0), reached(datalog, 0));
    }
  }
}
