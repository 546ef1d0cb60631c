package dev.mnestic.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.mnestic.datalog.Engine;
import dev.mnestic.jdbc.BellmanFordSql;

import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import org.postgresql.PGConnection;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.StringReader;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recursive queries timed side by side in one run, on the same rows: mnestic's Datalog (through
 * {@code jdbc:mnestic:...;lang=datalog}), PostgreSQL 15 (a throwaway cluster that
 * {@code bin/postgres-local} starts), DuckDB 2.0 in this process ({@code jdbc:duckdb:}, in
 * memory, its rows loaded through its appender), CozoDB 0.7.6 (cozo-lib-wasm under Node, the
 * same CozoScript), and Calcite's own {@code WITH RECURSIVE} through mnestic's SQL over the same
 * store. The SQL peers run one {@code WITH RECURSIVE} query where SQL can say the rules (one
 * recursive relation read once per rule), else a semi-naive evaluation their client drives
 * ({@link SemiNaiveSql}: Andersen's points-to and CSPA). Answers are compared: mnestic's must
 * equal the oracles' (PostgreSQL's, else CozoDB's, else DuckDB's) or the bench fails; a peer
 * answering otherwise is reported as a wrong answer. Beside mnestic's time, the most its heap
 * held.
 *
 * <p>Reproduce: {@code bench/run RecursionBench [--warmups N] [--runs N] [--cap SECONDS]
 * [--peers mnestic,postgres,duckdb,cozo,calcite] [WORKLOAD...]}, workloads
 * {@code chain[:NODES]}, {@code random[:NODES:EDGES]}, {@code samegen[:DEPTH]},
 * {@code airroutes}, {@code reach[:NODES:EDGES]} (from one source, 1M edges by default),
 * {@code reachtc[:NODES:EDGES]} (the same as {@code tc[0, y]} of the whole closure: a bound
 * first argument, which the magic-set rewrite turns into reach's derivations),
 * {@code triangles[:NODES:EDGES]}, {@code andersen[:VARIABLES]}, {@code cspa[:VARIABLES]}; by
 * default all of them; by default 1 warm-up, 3 timed runs and a 120 s cap per run (a peer past
 * it is reported as stopped and not run again). Needs {@code npm ci} in
 * {@code datalog-frontend/src/test/cozo} for CozoDB and the air-routes data in
 * {@code ../shared/data/air-routes}.
 */
public final class RecursionBench {
  private static final Path COZO = Path.of("datalog-frontend/src/test/cozo");
  private static final Path COZO_PEER = Path.of("bench/src/main/js/cozo-peer.mjs");
  private static final Path COZO_LOG = Path.of("bench/target/cozo-peer.log");
  private static final Path POSTGRES_DIR = Path.of("bench/target/postgres");
  private static final Path AIR_ROUTES = Path.of("../shared/data/air-routes/air-routes.json");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> DEFAULT_WORKLOADS = List.of("chain", "random", "samegen",
      "airroutes", "reach", "reachtc", "triangles", "andersen", "cspa");
  private static final List<String> PEERS =
      List.of("mnestic", "postgres", "duckdb", "cozo", "calcite");

  private RecursionBench() {
  }

  /**
   * A stored relation as every peer gets it: CozoDB's schema (also what
   * mnestic's Datalog creates, so SQL sees the same table), the columns of
   * its {@code :put}, PostgreSQL's CREATE TABLE, and the rows.
   */
  record Relation(String name, String schema, String putColumns, String postgresTable,
      List<List<Object>> rows) {
  }

  /**
   * A recursive query in each peer's language over its relations: CozoScript, and for the SQL
   * peers either one query ({@link Sql#query}) or, where SQL's WITH RECURSIVE cannot say it (a
   * rule reading the recursive relation twice, or several relations recursive together), a
   * semi-naive evaluation the client drives ({@link Sql#rounds}).
   */
  record Workload(String label, List<Relation> relations, String datalog, Sql sql) {
    Workload(String label, Relation relation, String datalog, String sql) {
      this(label, List.of(relation), datalog, Sql.query(sql));
    }

    int rows() {
      return relations.stream().mapToInt(r -> r.rows().size()).sum();
    }
  }

  /** What the SQL peers run: one query, or rounds of a client-driven semi-naive evaluation. */
  record Sql(String query, SemiNaiveSql rounds) {
    static Sql query(String query) {
      return new Sql(query, null);
    }

    static Sql rounds(SemiNaiveSql rounds) {
      return new Sql(null, rounds);
    }

    List<String> run(Connection c, int cap) throws Exception {
      return query != null ? jdbc(c, query, cap) : rounds.run(c, cap);
    }
  }

  public static void main(String[] args) throws Exception {
    int warmups = 1;
    int runs = 3;
    int cap = 120;
    Set<String> peers = new LinkedHashSet<>(PEERS);
    final List<String> workloads = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--warmups" -> warmups = Integer.parseInt(args[++i]);
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--cap" -> cap = Integer.parseInt(args[++i]);
        case "--peers" -> {
          peers = new LinkedHashSet<>(List.of(args[++i].split(",")));
          if (!PEERS.containsAll(peers)) {
            throw new IllegalArgumentException("--peers: some of " + PEERS + ", was " + args[i]);
          }
        }
        default -> workloads.add(args[i]);
      }
    }
    final List<Workload> chosen = new ArrayList<>();
    for (String w : workloads.isEmpty() ? DEFAULT_WORKLOADS : workloads) {
      chosen.add(workload(w));
    }
    final Harness harness = new Harness(warmups, runs);
    try (Postgres postgres = peers.contains("postgres") ? Postgres.start() : null;
         Connection duckdb = peers.contains("duckdb") ? DriverManager.getConnection("jdbc:duckdb:") : null;
         Cozo cozo = peers.contains("cozo") ? new Cozo() : null) {
      System.out.printf(Locale.ROOT, "medians of %d runs after %d warm-up, peers interleaved;"
          + " ratio = peer / mnestic (above 1: mnestic is faster); cap %d s per run; peak heap:"
          + " the most the JVM's heap pools held in any of mnestic's runs%n%n", runs, warmups, cap);
      System.out.println("| workload | answer | mnestic Datalog (s) | mnestic peak heap (MB)"
          + " | PostgreSQL 15 (s, ratio) | DuckDB 2.0 (s, ratio) | CozoDB wasm (s, ratio)"
          + " | Calcite WITH RECURSIVE (s, ratio) |");
      System.out.println("|---|---|---|---|---|---|---|---|");
      for (Workload w : chosen) {
        System.out.println(row(w, harness, cap, peers, postgres, duckdb, cozo));
      }
    }
  }

  private static String row(Workload w, Harness harness, int cap, Set<String> peers,
      Postgres postgres, Connection duckdb, Cozo cozo) throws Exception {
    System.err.printf(Locale.ROOT, "%s: loading %d rows%n", w.label(), w.rows());
    final String db = "jdbc:mnestic:db=mem:bench-" + UUID.randomUUID();
    try (Connection sql = DriverManager.getConnection(db);
         Connection datalog = DriverManager.getConnection(db + ";lang=datalog")) {
      final Engine engine = new Engine(datalog);
      for (Relation r : w.relations()) {
        engine.run(":create " + r.name() + " " + r.schema(), Map.of());
        engine.run(putScript(r), Map.of("rows", r.rows()));
        if (postgres != null) {
          postgres.load(r);
        }
        if (duckdb != null) {
          loadDuckdb(duckdb, r);
        }
      }
      if (cozo != null) {
        cozo.load(w.relations());
      }
      final PeakHeap heap = new PeakHeap();
      final Map<String, Harness.Contender<List<String>>> contenders = new LinkedHashMap<>();
      contenders.put("mnestic", () -> heap.during(() -> jdbc(datalog, w.datalog(), cap)));
      contenders.put("postgres", () -> postgres.run(w.sql(), cap));
      contenders.put("duckdb", () -> w.sql().run(duckdb, cap));
      contenders.put("cozo", () -> cozo.run(w.datalog(), cap));
      if (w.sql().query() != null) {
        // Calcite's WITH RECURSIVE; a client-driven evaluation would time HSQLDB's temporary tables
        contenders.put("calcite", () -> calcite(sql, w.sql().query(), cap));
      }
      contenders.keySet().retainAll(peers);
      System.err.printf(Locale.ROOT, "%s: timing %s%n", w.label(), contenders.keySet());
      final List<String> names = List.copyOf(contenders.keySet());
      final List<Harness.Contender<List<String>>> logged = new ArrayList<>();
      for (String name : names) {
        final Harness.Contender<List<String>> c = contenders.get(name);
        logged.add(() -> {
          final long start = System.nanoTime();
          try {
            return c.run();
          } finally {
            System.err.printf(Locale.ROOT, "  %s %.3f s%n", name, (System.nanoTime() - start) / 1e9);
          }
        });
      }
      final Map<String, Harness.Outcome<List<String>>> outcomes = new LinkedHashMap<>();
      final List<Harness.Outcome<List<String>>> timed = harness.interleaved(logged);
      for (int i = 0; i < names.size(); i++) {
        outcomes.put(names.get(i), timed.get(i));
      }
      // The reference answer: PostgreSQL's, else CozoDB's, else DuckDB's (the oracles), else mnestic's.
      List<String> answer = null;
      for (String peer : List.of("calcite", "mnestic", "duckdb", "cozo", "postgres")) {
        if (outcomes.containsKey(peer) && outcomes.get(peer).result() != null) {
          answer = outcomes.get(peer).result();
        }
      }
      if (outcomes.containsKey("mnestic") && outcomes.get("mnestic").result() != null
          && !answer.equals(outcomes.get("mnestic").result())) {
        throw new IllegalStateException(w.label() + ": mnestic answered "
            + outcomes.get("mnestic").result() + ", the oracles " + answer);
      }
      final double mnestic = outcomes.containsKey("mnestic") ? outcomes.get("mnestic").seconds() : Double.NaN;
      final StringBuilder row = new StringBuilder("| " + w.label() + " | "
          + (answer == null ? "none (every peer stopped)" : String.join(", ", answer)));
      for (String peer : PEERS) {
        if (peer.equals("postgres")) {
          row.append(outcomes.containsKey("mnestic") && outcomes.get("mnestic").stopped() == null
              ? String.format(Locale.ROOT, " | %.0f", heap.megabytes()) : " | ");
        }
        final Harness.Outcome<List<String>> o = outcomes.get(peer);
        if (o == null) {
          row.append(" | not run");
        } else if (o.result() != null && !o.result().equals(answer)) {
          row.append(" | wrong answer: ").append(String.join(", ", o.result()));
        } else if (o.stopped() != null) {
          row.append(" | ").append(o.stopped());
        } else if (peer.equals("mnestic") || Double.isNaN(mnestic)) {
          row.append(String.format(Locale.ROOT, " | %.3f", o.seconds()));
        } else {
          row.append(String.format(Locale.ROOT, " | %.3f (%.2f×)", o.seconds(), o.seconds() / mnestic));
        }
      }
      return row.append(" |").toString();
    }
  }

  static Workload workload(String spec) throws IOException {
    final String[] p = spec.split(":");
    switch (p[0]) {
      case "chain": {
        final int n = p.length > 1 ? Integer.parseInt(p[1]) : 1000;
        final List<List<Object>> edges = new ArrayList<>();
        for (long i = 0; i < n - 1; i++) {
          edges.add(List.of(i, i + 1));
        }
        return transitiveClosure("transitive closure, chain of " + n + " nodes", edges);
      }
      case "random": {
        final int nodes = p.length > 1 ? Integer.parseInt(p[1]) : 2000;
        final int count = p.length > 2 ? Integer.parseInt(p[2]) : 10_000;
        return transitiveClosure("transitive closure, random graph of " + nodes + " nodes and "
            + count + " edges (seed 3)", randomEdges(nodes, count, 3, false));
      }
      case "samegen": {
        final int depth = p.length > 1 ? Integer.parseInt(p[1]) : 12;
        // depth levels, the root on level 1: nodes 1 .. 2^depth - 1, node i's children 2i and 2i + 1
        final List<List<Object>> edges = new ArrayList<>();
        for (long i = 2; i < 1L << depth; i++) {
          edges.add(List.of(i / 2, i));
        }
        return new Workload("same generation, binary tree of depth " + depth + " ("
            + ((1L << depth) - 1) + " nodes)", edge(edges),
            "sg[x, y] := *edge[p, x], *edge[p, y]\n"
                + "sg[x, y] := *edge[a, x], sg[a, b], *edge[b, y]\n"
                + "?[count(x)] := sg[x, y]",
            "WITH RECURSIVE sg (x, y) AS ("
                + "SELECT a.dst, b.dst FROM edge a JOIN edge b ON a.src = b.src"
                + " UNION SELECT a.dst, b.dst FROM sg JOIN edge a ON a.src = sg.x"
                + " JOIN edge b ON b.src = sg.y) SELECT COUNT(*) FROM sg");
      }
      case "airroutes":
        return airRoutes();
      case "reach": {
        final int nodes = p.length > 1 ? Integer.parseInt(p[1]) : 100_000;
        final int count = p.length > 2 ? Integer.parseInt(p[2]) : 1_000_000;
        return new Workload("reachability from node 0, random graph of " + nodes + " nodes and "
            + count + " edges (seed 5)", edge(randomEdges(nodes, count, 5, false)),
            "reach[y] := *edge[0, y]\nreach[y] := reach[x], *edge[x, y]\n?[count(y)] := reach[y]",
            "WITH RECURSIVE reach (y) AS (SELECT dst FROM edge WHERE src = 0"
                + " UNION SELECT e.dst FROM reach r JOIN edge e ON e.src = r.y)"
                + " SELECT COUNT(*) FROM reach");
      }
      case "reachtc": {
        final int nodes = p.length > 1 ? Integer.parseInt(p[1]) : 100_000;
        final int count = p.length > 2 ? Integer.parseInt(p[2]) : 1_000_000;
        // the closure's first argument bound by the query: the magic-set rewrite derives only
        // the pairs from node 0 (the same answer as reach's)
        return new Workload("reachability from node 0 as tc[0, y] of the transitive closure,"
            + " random graph of " + nodes + " nodes and " + count + " edges (seed 5)",
            edge(randomEdges(nodes, count, 5, false)),
            "tc[a, b] := *edge[a, b]\ntc[a, c] := tc[a, b], *edge[b, c]\n?[count(y)] := tc[0, y]",
            "WITH RECURSIVE tc (a, b) AS (SELECT src, dst FROM edge WHERE src = 0"
                + " UNION SELECT t.a, e.dst FROM tc t JOIN edge e ON e.src = t.b)"
                + " SELECT COUNT(*) FROM tc WHERE a = 0");
      }
      case "triangles": {
        final int nodes = p.length > 1 ? Integer.parseInt(p[1]) : 20_000;
        final int count = p.length > 2 ? Integer.parseInt(p[2]) : 200_000;
        return new Workload("triangles, random undirected graph of " + nodes + " nodes and "
            + count + " edges (seed 7, each edge once, smaller node first)",
            edge(randomEdges(nodes, count, 7, true)),
            "tri[a, b, c] := *edge[a, b], *edge[b, c], *edge[a, c]\n?[count(a)] := tri[a, b, c]",
            "SELECT COUNT(*) FROM edge ab JOIN edge bc ON bc.src = ab.dst"
                + " JOIN edge ac ON ac.src = ab.src AND ac.dst = bc.dst");
      }
      case "andersen":
        return andersen(p.length > 1 ? Integer.parseInt(p[1]) : 50_000);
      case "cspa":
        return cspa(p.length > 1 ? Integer.parseInt(p[1]) : 20_000);
      default:
        throw new IllegalArgumentException("unknown workload " + spec + "; expected chain[:NODES],"
            + " random[:NODES:EDGES], samegen[:DEPTH], airroutes, reach[:NODES:EDGES],"
            + " reachtc[:NODES:EDGES],"
            + " triangles[:NODES:EDGES], andersen[:VARIABLES] or cspa[:VARIABLES]");
    }
  }

  /**
   * {@code count} distinct edges between distinct nodes below {@code nodes}, uniformly at random;
   * {@code undirected}: each edge once, its smaller node first.
   */
  private static List<List<Object>> randomEdges(int nodes, int count, long seed, boolean undirected) {
    final Random random = new Random(seed);
    final Set<List<Object>> edges = new LinkedHashSet<>();
    while (edges.size() < count) {
      final long a = random.nextInt(nodes);
      final long b = random.nextInt(nodes);
      if (a != b) {
        edges.add(undirected ? List.of(Math.min(a, b), Math.max(a, b)) : List.of(a, b));
      }
    }
    return new ArrayList<>(edges);
  }

  /** A relation of pairs of integers, both key columns, e.g. a statement of a points-to input. */
  private static Relation pairs(String name, String first, String second, List<List<Object>> rows) {
    return new Relation(name, "{" + first + ": Int, " + second + ": Int}",
        "{" + first + ", " + second + "}", "CREATE TABLE " + name + " (" + first
            + " BIGINT NOT NULL, " + second + " BIGINT NOT NULL, PRIMARY KEY (" + first + ", "
            + second + "))", rows);
  }

  /** {@code count} distinct random pairs of numbers below {@code range}. */
  private static List<List<Object>> randomPairs(Random random, int range, int count) {
    final Set<List<Object>> pairs = new LinkedHashSet<>();
    while (pairs.size() < count) {
      pairs.add(List.of((long) random.nextInt(range), (long) random.nextInt(range)));
    }
    return new ArrayList<>(pairs);
  }

  /**
   * Andersen's inclusion-based points-to analysis, the classic four rules, on a generated
   * program of {@code vars} variables (seed 11): {@code vars} address-of statements
   * ({@code p = &a}), {@code vars / 2} copies ({@code p = q}), {@code vars / 32} loads
   * ({@code p = *q}) and {@code vars / 32} stores ({@code *p = q}), each between random
   * variables; variables and the locations they point to are one set of numbers (fewer copies
   * than variables keeps the copy graph below its giant component, as in real programs, where
   * points-to sets stay small). The answer: how many points-to facts.
   */
  private static Workload andersen(int vars) {
    final Random random = new Random(11);
    final List<Relation> input = List.of(
        pairs("address_of", "p", "a", randomPairs(random, vars, vars)),
        pairs("assign", "p", "q", randomPairs(random, vars, vars / 2)),
        pairs("load", "p", "q", randomPairs(random, vars, vars / 32)),
        pairs("store", "p", "q", randomPairs(random, vars, vars / 32)));
    return new Workload("Andersen points-to, " + vars + " variables (generated, seed 11)", input,
        """
        pt[p, a] := *address_of[p, a]
        pt[p, a] := *assign[p, q], pt[q, a]
        pt[p, a] := *load[p, q], pt[q, r], pt[r, a]
        pt[r, a] := *store[p, q], pt[p, r], pt[q, a]
        ?[count(p)] := pt[p, a]""",
        Sql.rounds(new SemiNaiveSql(List.of(new SemiNaiveSql.Idb("pt", "p BIGINT, a BIGINT")),
            List.of(
                new SemiNaiveSql.Rule("pt", "SELECT p, a FROM address_of"),
                new SemiNaiveSql.Rule("pt", "SELECT s.p, x.a FROM assign s JOIN {pt} x ON x.p = s.q"),
                new SemiNaiveSql.Rule("pt", "SELECT l.p, y.a FROM load l JOIN {pt} x ON x.p = l.q"
                    + " JOIN {pt} y ON y.p = x.a"),
                new SemiNaiveSql.Rule("pt", "SELECT x.a, y.a FROM store s JOIN {pt} x ON x.p = s.p"
                    + " JOIN {pt} y ON y.p = s.q")),
            "SELECT COUNT(*) FROM {pt}")));
  }

  /**
   * Context-sensitive points-to analysis as Graspan and RecStep state it (CSPA: value flow,
   * memory aliases and value aliases, three relations recursive together) on a generated
   * program of {@code vars} variables (seed 13): {@code vars / 2} assignments and
   * {@code vars / 8} dereferences between random variables. The answer: how many facts of each
   * relation.
   */
  private static Workload cspa(int vars) {
    final Random random = new Random(13);
    final List<Relation> input = List.of(
        pairs("assign", "x", "y", randomPairs(random, vars, vars / 2)),
        pairs("dereference", "x", "y", randomPairs(random, vars, vars / 8)));
    return new Workload("CSPA, " + vars + " variables (generated, seed 13)", input,
        """
        value_flow[y, x] := *assign[y, x]
        value_flow[x, y] := *assign[x, z], memory_alias[z, y]
        value_flow[x, y] := value_flow[x, z], value_flow[z, y]
        value_flow[x, x] := *assign[x, y]
        value_flow[x, x] := *assign[y, x]
        memory_alias[x, w] := *dereference[y, x], value_alias[y, z], *dereference[z, w]
        memory_alias[x, x] := *assign[y, x]
        memory_alias[x, x] := *assign[x, y]
        value_alias[x, y] := value_flow[z, x], value_flow[z, y]
        value_alias[x, y] := value_flow[z, x], memory_alias[z, w], value_flow[w, y]
        ?[kind, count(x)] := value_flow[x, y], kind = 'value_flow'
        ?[kind, count(x)] := memory_alias[x, y], kind = 'memory_alias'
        ?[kind, count(x)] := value_alias[x, y], kind = 'value_alias'""",
        Sql.rounds(new SemiNaiveSql(List.of(
            new SemiNaiveSql.Idb("value_flow", "x BIGINT, y BIGINT"),
            new SemiNaiveSql.Idb("memory_alias", "x BIGINT, y BIGINT"),
            new SemiNaiveSql.Idb("value_alias", "x BIGINT, y BIGINT")),
            List.of(
                new SemiNaiveSql.Rule("value_flow", "SELECT x, y FROM assign"),
                new SemiNaiveSql.Rule("value_flow",
                    "SELECT a.x, m.y FROM assign a JOIN {memory_alias} m ON m.x = a.y"),
                new SemiNaiveSql.Rule("value_flow",
                    "SELECT f.x, g.y FROM {value_flow} f JOIN {value_flow} g ON g.x = f.y"),
                new SemiNaiveSql.Rule("value_flow", "SELECT x, x FROM assign"),
                new SemiNaiveSql.Rule("value_flow", "SELECT y, y FROM assign"),
                new SemiNaiveSql.Rule("memory_alias", "SELECT d.y, e.y FROM dereference d"
                    + " JOIN {value_alias} v ON v.x = d.x JOIN dereference e ON e.x = v.y"),
                new SemiNaiveSql.Rule("memory_alias", "SELECT y, y FROM assign"),
                new SemiNaiveSql.Rule("memory_alias", "SELECT x, x FROM assign"),
                new SemiNaiveSql.Rule("value_alias",
                    "SELECT f.y, g.y FROM {value_flow} f JOIN {value_flow} g ON g.x = f.x"),
                new SemiNaiveSql.Rule("value_alias", "SELECT f.y, g.y FROM {value_flow} f"
                    + " JOIN {memory_alias} m ON m.x = f.x JOIN {value_flow} g ON g.x = m.y")),
            "SELECT 'memory_alias', COUNT(*) FROM {memory_alias}"
                + " UNION ALL SELECT 'value_alias', COUNT(*) FROM {value_alias}"
                + " UNION ALL SELECT 'value_flow', COUNT(*) FROM {value_flow} ORDER BY 1")));
  }

  /** DuckDB's table of {@code r}, loaded through its appender. */
  private static void loadDuckdb(Connection duckdb, Relation r) throws SQLException {
    try (Statement s = duckdb.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + r.name());
      s.execute(r.postgresTable());
    }
    try (DuckDBAppender a = ((DuckDBConnection) duckdb).createAppender(DuckDBConnection.DEFAULT_SCHEMA, r.name())) {
      for (List<Object> row : r.rows()) {
        a.beginRow();
        for (Object v : row) {
          if (v instanceof Long l) {
            a.append(l);
          } else if (v instanceof Double d) {
            a.append(d);
          } else {
            a.append((String) v);
          }
        }
        a.endRow();
      }
    }
  }

  private static Relation edge(List<List<Object>> edges) {
    return new Relation("edge", "{src: Int, dst: Int}", "{src, dst}",
        "CREATE TABLE edge (src BIGINT NOT NULL, dst BIGINT NOT NULL, PRIMARY KEY (src, dst))", edges);
  }

  private static Workload transitiveClosure(String label, List<List<Object>> edges) {
    return new Workload(label, edge(edges),
        "tc[a, b] := *edge[a, b]\ntc[a, c] := tc[a, b], *edge[b, c]\n?[count(a)] := tc[a, b]",
        "WITH RECURSIVE tc (a, b) AS (SELECT src, dst FROM edge"
            + " UNION SELECT tc.a, e.dst FROM tc JOIN edge e ON tc.b = e.src) SELECT COUNT(*) FROM tc");
  }

  /**
   * The shortest distance from LHR to every airport it reaches, as CozoDB's
   * tutorial asks it (a min aggregation inside the recursion); the answer is
   * how many airports and the sum of their distances. SQL cannot aggregate
   * inside WITH RECURSIVE, so the SQL peers run Bellman-Ford
   * ({@link BellmanFordSql}, which jdbc-driver's RecursiveStepOracleTest
   * checks against PostgreSQL).
   */
  private static Workload airRoutes() throws IOException {
    final JsonNode route = JSON.readTree(AIR_ROUTES.toFile()).path("route");
    final List<List<Object>> rows = new ArrayList<>();
    for (JsonNode r : route.path("rows")) {
      rows.add(List.of(r.get(0).asText(), r.get(1).asText(), r.get(2).asDouble()));
    }
    return new Workload("shortest distance from LHR, air-routes", new Relation("route",
        "{fr: String, to: String => dist: Float}", "{fr, to => dist}",
        "CREATE TABLE route (fr TEXT NOT NULL, \"to\" TEXT NOT NULL, dist DOUBLE PRECISION NOT NULL,"
            + " PRIMARY KEY (fr, \"to\"))", rows),
        "shortest[b, min(dist)] := *route{fr: 'LHR', to: b, dist}\n"
            + "shortest[b, min(dist)] := shortest[c, d1], *route{fr: c, to: b, dist: d2},"
            + " dist = d1 + d2\n"
            + "?[count(b), sum(dist)] := shortest[b, dist]",
        BellmanFordSql.shortestDistances("LHR", "SELECT COUNT(*), SUM(dist) FROM (SELECT node,"
            + " MIN(dist) AS dist FROM best GROUP BY node) shortest"));
  }

  static String putScript(Relation r) {
    return "?" + r.putColumns().replace("{", "[").replace("}", "]").replace(" =>", ",")
        + " <- $rows :put " + r.name() + " " + r.putColumns();
  }

  /** Runs a query through JDBC with the cap as its query timeout; returns its rows as text. */
  static List<String> jdbc(Connection c, String query, int cap)
      throws SQLException, Harness.Stopped {
    try (Statement s = c.createStatement()) {
      s.setQueryTimeout(cap);
      try (ResultSet rs = s.executeQuery(query)) {
        final List<String> answer = new ArrayList<>();
        while (rs.next()) {
          for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
            answer.add(text(rs.getObject(i)));
          }
        }
        return answer;
      }
    } catch (SQLException e) {
      // 57014: PostgreSQL's query_canceled; mnestic's Datalog: eval::killed; HYT00: mnestic's
      // SQL timeout; Calcite's own (when WITH RECURSIVE reads the store) comes without a
      // state: "Timeout of '...' ms for query execution is reached"; DuckDB's: "INTERRUPT
      // Error: Interrupted!"
      if ("HYT00".equals(e.getSQLState()) || "57014".equals(e.getSQLState())
          || String.valueOf(e.getMessage()).contains("[eval::killed]")
          || String.valueOf(e.getMessage()).contains("INTERRUPT")
          || String.valueOf(e.getMessage()).contains("Timeout of '")) {
        throw new Harness.Stopped("stopped at the " + cap + " s cap");
      }
      throw e;
    } catch (OutOfMemoryError e) {
      // What the query held is garbage once its stack is gone; the other peers run on.
      throw new Harness.Stopped("failed: OutOfMemoryError (" + e.getMessage() + ", -Xmx"
          + Math.round(Runtime.getRuntime().maxMemory() / (double) (1L << 30)) + "g)");
    }
  }

  /**
   * Calcite's WITH RECURSIVE checks its query timeout only when it reads
   * the store, so one long round (the random graph's run out of memory
   * after 30 minutes) passes any cap: the query runs on a thread of its own,
   * stopped at the cap.
   */
  @SuppressWarnings("deprecation")
  private static List<String> calcite(Connection c, String query, int cap) throws Exception {
    final FutureTask<List<String>> task = new FutureTask<>(() -> jdbc(c, query, cap));
    final Thread thread = new Thread(task, "calcite-peer");
    thread.start();
    try {
      return task.get(cap, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      // Thread.stop: Calcite's rounds check no cancel flag either; what it held becomes garbage.
      thread.stop();
      thread.join();
      throw new Harness.Stopped("stopped at the " + cap + " s cap");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  /** A value as every peer's answer is compared: integral numbers as integers. */
  private static String text(Object v) {
    if (v instanceof Number n) {
      final double d = n.doubleValue();
      return d == Math.rint(d) && Math.abs(d) < 1e15
          ? Long.toString((long) d) : String.format(Locale.ROOT, "%.6f", d);
    }
    return String.valueOf(v);
  }

  /** A PostgreSQL 15 cluster started by {@code bin/postgres-local}, stopped at the end. */
  private static final class Postgres implements AutoCloseable {
    private final Connection connection;

    private Postgres(Connection connection) {
      this.connection = connection;
    }

    static Postgres start() throws IOException, InterruptedException, SQLException {
      final Process p = new ProcessBuilder("bin/postgres-local", "start", POSTGRES_DIR.toString())
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      final String url = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (p.waitFor() != 0) {
        throw new IllegalStateException("bin/postgres-local start failed");
      }
      return new Postgres(DriverManager.getConnection(url));
    }

    void load(Relation r) throws SQLException, IOException {
      try (Statement s = connection.createStatement()) {
        s.execute("DROP TABLE IF EXISTS " + r.name());
        s.execute(r.postgresTable());
      }
      final StringBuilder csv = new StringBuilder();
      for (List<Object> row : r.rows()) {
        for (int i = 0; i < row.size(); i++) {
          final Object v = row.get(i);
          csv.append(i > 0 ? "," : "")
              .append(v instanceof String str ? '"' + str.replace("\"", "\"\"") + '"' : v);
        }
        csv.append('\n');
      }
      connection.unwrap(PGConnection.class).getCopyAPI()
          .copyIn("COPY " + r.name() + " FROM STDIN (FORMAT csv)", new StringReader(csv.toString()));
      try (Statement s = connection.createStatement()) {
        s.execute("ANALYZE " + r.name());
      }
    }

    List<String> run(Sql sql, int cap) throws Exception {
      return sql.run(connection, cap);
    }

    @Override public void close() throws Exception {
      connection.close();
      final Process p = new ProcessBuilder("bin/postgres-local", "stop", POSTGRES_DIR.toString())
          .inheritIO().start();
      p.waitFor();
    }
  }

  /**
   * CozoDB in a Node process ({@code cozo-peer.mjs}), started for each
   * relation loaded, killed when a run passes the cap.
   */
  private static final class Cozo implements AutoCloseable {
    private final ExecutorService reader = Executors.newSingleThreadExecutor(r -> {
      final Thread t = new Thread(r, "cozo-reply");
      t.setDaemon(true);
      return t;
    });
    private Process process;
    private Writer in;
    private BufferedReader out;

    Cozo() {
      if (!Files.isDirectory(COZO.resolve("node_modules/cozo-lib-wasm"))) {
        throw new IllegalStateException("no CozoDB: run npm ci in " + COZO
            + " (or leave cozo out of --peers)");
      }
    }

    void load(List<Relation> relations) throws Exception {
      stop();
      process = new ProcessBuilder("node", COZO_PEER.toString(), COZO.toString())
          .redirectError(COZO_LOG.toFile()).start();
      in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
      out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      for (Relation r : relations) {
        request(Map.of("op", "exec", "script", ":create " + r.name() + " " + r.schema()), 0);
        request(Map.of("op", "exec", "script", putScript(r),
            "params", JSON.writeValueAsString(Map.of("rows", r.rows()))), 0);
      }
    }

    List<String> run(String script, int cap) throws Exception {
      if (process == null) {
        throw new Harness.Stopped("not restarted");
      }
      final List<String> answer = new ArrayList<>();
      for (JsonNode row : request(Map.of("op", "query", "script", script), cap).path("rows")) {
        for (JsonNode v : row) {
          answer.add(text(v.isNumber() ? v.numberValue() : v.isTextual() ? v.asText() : v.toString()));
        }
      }
      return answer;
    }

    /** Sends one request and waits for its reply ({@code cap} seconds, 0: no limit). */
    private JsonNode request(Map<String, String> request, int cap) throws Exception {
      in.write(JSON.writeValueAsString(request) + "\n");
      in.flush();
      final Future<String> reply = reader.submit(out::readLine);
      final String line;
      try {
        line = cap > 0 ? reply.get(cap, TimeUnit.SECONDS) : reply.get();
      } catch (TimeoutException e) {
        stop();
        throw new Harness.Stopped("stopped at the " + cap + " s cap");
      }
      if (line == null) {
        stop();
        throw new Harness.Stopped("failed: " + lastError());
      }
      final JsonNode result = JSON.readTree(line);
      if (!result.path("ok").asBoolean()) {
        throw new IllegalStateException("CozoDB failed on " + request + ": " + line);
      }
      return result;
    }

    /** The last error line the Node process wrote, e.g. {@code RuntimeError: unreachable}. */
    private static String lastError() throws IOException {
      String error = "the Node process died";
      for (String line : Files.readAllLines(COZO_LOG)) {
        if (line.contains("Error")) {
          error = line.trim() + " (" + COZO_LOG + ")";
        }
      }
      return error;
    }

    private void stop() throws InterruptedException {
      if (process != null) {
        process.destroyForcibly().waitFor();
        process = null;
      }
    }

    @Override public void close() throws InterruptedException {
      stop();
      reader.shutdownNow();
    }
  }

  /** The most the JVM's heap pools held while something ran, over all its runs. */
  private static final class PeakHeap {
    private final List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP).toList();
    private long most;

    <T> T during(Callable<T> work) throws Exception {
      pools.forEach(MemoryPoolMXBean::resetPeakUsage);
      try {
        return work.call();
      } finally {
        most = Math.max(most, pools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum());
      }
    }

    double megabytes() {
      return most / 1e6;
    }
  }

  /**
   * A Datalog program run by a SQL client, semi-naively, where one WITH RECURSIVE cannot say it:
   * each recursive relation {@code X} is a table of all facts so far ({@code f_X}), of the last
   * round's new facts ({@code d_X}) and of this round's ({@code n_X}); a rule reading recursive
   * relations ({@code {X}} in its SELECT) runs once per such reading, that one reading the last
   * round's new facts and the others all facts; a round adds what its rules derive beyond
   * {@code f_X}; the evaluation ends after a round that adds nothing. {@code answer} reads the
   * results ({@code {X}}: all facts of X).
   */
  record SemiNaiveSql(List<Idb> idbs, List<Rule> rules, String answer) {
    private static final Pattern READ = Pattern.compile("\\{(\\w+)}");

    /** A recursive relation and its columns, as CREATE TABLE lists them. */
    record Idb(String name, String columns) {
    }

    /** A rule: the relation it derives facts of, and a SELECT of them. */
    record Rule(String head, String select) {
    }

    List<String> run(Connection c, int cap) throws Exception {
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(cap);
      for (Idb x : idbs) {
        for (String prefix : List.of("f_", "d_", "n_")) {
          update(c, "DROP TABLE IF EXISTS " + prefix + x.name(), deadline);
          update(c, "CREATE TEMPORARY TABLE " + prefix + x.name() + " (" + x.columns() + ")",
              deadline);
        }
      }
      for (Idb x : idbs) {
        final List<String> base = new ArrayList<>();
        for (Rule r : rules) {
          if (r.head().equals(x.name()) && !READ.matcher(r.select()).find()) {
            base.add(r.select());
          }
        }
        if (!base.isEmpty()) {
          update(c, "INSERT INTO d_" + x.name() + " " + String.join(" UNION ", base), deadline);
          update(c, "INSERT INTO f_" + x.name() + " SELECT * FROM d_" + x.name(), deadline);
        }
      }
      while (true) {
        long added = 0;
        for (Idb x : idbs) {
          final List<String> variants = new ArrayList<>();
          for (Rule r : rules) {
            if (r.head().equals(x.name())) {
              variants.addAll(variants(r.select()));
            }
          }
          if (variants.isEmpty()) {
            continue;
          }
          added += update(c, "INSERT INTO n_" + x.name() + " SELECT * FROM ("
              + String.join(" UNION ", variants) + ") t EXCEPT SELECT * FROM f_" + x.name(),
              deadline);
        }
        if (added == 0) {
          break;
        }
        for (Idb x : idbs) {
          update(c, "INSERT INTO f_" + x.name() + " SELECT * FROM n_" + x.name(), deadline);
          update(c, "DELETE FROM d_" + x.name(), deadline);
          update(c, "INSERT INTO d_" + x.name() + " SELECT * FROM n_" + x.name(), deadline);
          update(c, "DELETE FROM n_" + x.name(), deadline);
          update(c, "ANALYZE f_" + x.name(), deadline);
          update(c, "ANALYZE d_" + x.name(), deadline);
        }
      }
      return jdbc(c, READ.matcher(answer).replaceAll("f_$1"), remaining(deadline));
    }

    /**
     * The SELECTs a rule runs in a round: one per reading of a recursive relation, that reading
     * of the last round's new facts ({@code d_X}), the others of all facts ({@code f_X}); none
     * for a rule reading no recursive relation (it ran in the first round).
     */
    private List<String> variants(String select) {
      final List<String> variants = new ArrayList<>();
      final Matcher m = READ.matcher(select);
      final int readings = (int) m.results().count();
      for (int i = 0; i < readings; i++) {
        final int delta = i;
        final int[] at = {0};
        variants.add(READ.matcher(select).replaceAll(r -> (at[0]++ == delta ? "d_" : "f_") + r.group(1)));
      }
      return variants;
    }

    private static int remaining(long deadline) throws Harness.Stopped {
      final long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new Harness.Stopped("stopped at the cap");
      }
      return (int) Math.max(1, TimeUnit.NANOSECONDS.toSeconds(left));
    }

    private static long update(Connection c, String sql, long deadline) throws Exception {
      try (Statement s = c.createStatement()) {
        s.setQueryTimeout(remaining(deadline));
        return s.executeUpdate(sql);
      } catch (SQLException e) {
        if ("57014".equals(e.getSQLState()) || String.valueOf(e.getMessage()).contains("INTERRUPT")) {
          throw new Harness.Stopped("stopped at the cap");
        }
        throw e;
      }
    }
  }
}
