package dev.mnestic.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.mnestic.datalog.Engine;

import org.postgresql.PGConnection;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.StringReader;
import java.io.Writer;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Recursive queries timed side by side in one run, on the same rows:
 * mnestic's Datalog (through {@code jdbc:mnestic:...;lang=datalog}), PostgreSQL
 * 15's {@code WITH RECURSIVE} (a throwaway cluster that {@code bin/postgres-local}
 * starts), CozoDB 0.7.6 (cozo-lib-wasm under Node, the same CozoScript), and
 * Calcite's own {@code WITH RECURSIVE} through mnestic's SQL over the same
 * store. Answers are compared: mnestic's must equal the oracles' (PostgreSQL's,
 * else CozoDB's) or the bench fails; a peer answering otherwise is reported
 * as a wrong answer.
 *
 * <p>Reproduce: {@code bench/run RecursionBench [--warmups N] [--runs N]
 * [--cap SECONDS] [--peers mnestic,postgres,cozo,calcite] [WORKLOAD...]},
 * workloads {@code chain[:NODES]}, {@code random[:NODES:EDGES]},
 * {@code samegen[:DEPTH]}, {@code airroutes}; by default all four at the
 * sizes of issue 3; by default 1 warm-up, 3 timed runs and a 120 s cap per
 * run (a peer past it is reported as stopped and not run again). Needs {@code npm ci} in {@code datalog-frontend/src/test/cozo}
 * for CozoDB and the air-routes data in {@code ../shared/data/air-routes}.
 */
public final class RecursionBench {
  private static final Path COZO = Path.of("datalog-frontend/src/test/cozo");
  private static final Path COZO_PEER = Path.of("bench/src/main/js/cozo-peer.mjs");
  private static final Path COZO_LOG = Path.of("bench/target/cozo-peer.log");
  private static final Path POSTGRES_DIR = Path.of("bench/target/postgres");
  private static final Path AIR_ROUTES = Path.of("../shared/data/air-routes/air-routes.json");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> PEERS = List.of("mnestic", "postgres", "cozo", "calcite");

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

  /** A recursive query in each peer's language over one relation. */
  record Workload(String label, Relation relation, String datalog, String sql) {
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
    for (String w : workloads.isEmpty() ? List.of("chain", "random", "samegen", "airroutes") : workloads) {
      chosen.add(workload(w));
    }
    final Harness harness = new Harness(warmups, runs);
    try (Postgres postgres = peers.contains("postgres") ? Postgres.start() : null;
         Cozo cozo = peers.contains("cozo") ? new Cozo() : null) {
      System.out.printf(Locale.ROOT, "medians of %d runs after %d warm-up, peers interleaved;"
          + " ratio = peer / mnestic (above 1: mnestic is faster); cap %d s per run%n%n", runs, warmups, cap);
      System.out.println("| workload | answer | mnestic Datalog (s) | PostgreSQL 15 (s, ratio)"
          + " | CozoDB wasm (s, ratio) | Calcite WITH RECURSIVE (s, ratio) |");
      System.out.println("|---|---|---|---|---|---|");
      for (Workload w : chosen) {
        System.out.println(row(w, harness, cap, peers, postgres, cozo));
      }
    }
  }

  private static String row(Workload w, Harness harness, int cap, Set<String> peers,
      Postgres postgres, Cozo cozo) throws Exception {
    System.err.printf(Locale.ROOT, "%s: loading %d rows%n", w.label(), w.relation().rows().size());
    final String db = "jdbc:mnestic:db=mem:bench-" + UUID.randomUUID();
    try (Connection sql = DriverManager.getConnection(db);
         Connection datalog = DriverManager.getConnection(db + ";lang=datalog")) {
      final Engine engine = new Engine(datalog);
      engine.run(":create " + w.relation().name() + " " + w.relation().schema(), Map.of());
      engine.run(putScript(w.relation()), Map.of("rows", w.relation().rows()));
      if (postgres != null) {
        postgres.load(w.relation());
      }
      if (cozo != null) {
        cozo.load(w.relation());
      }
      final Map<String, Harness.Contender<List<String>>> contenders = new LinkedHashMap<>();
      contenders.put("mnestic", () -> jdbc(datalog, w.datalog(), cap));
      contenders.put("postgres", () -> postgres.run(w.sql(), cap));
      contenders.put("cozo", () -> cozo.run(w.datalog(), cap));
      contenders.put("calcite", () -> calcite(sql, w.sql(), cap));
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
      // The reference answer: PostgreSQL's, else CozoDB's (the oracles), else mnestic's.
      List<String> answer = null;
      for (String peer : List.of("calcite", "mnestic", "cozo", "postgres")) {
        if (outcomes.containsKey(peer) && outcomes.get(peer).result() != null) {
          answer = outcomes.get(peer).result();
        }
      }
      if (outcomes.containsKey("mnestic") && !answer.equals(outcomes.get("mnestic").result())) {
        throw new IllegalStateException(w.label() + ": mnestic answered "
            + outcomes.get("mnestic").result() + ", the oracles " + answer);
      }
      final double mnestic = outcomes.containsKey("mnestic") ? outcomes.get("mnestic").seconds() : Double.NaN;
      final StringBuilder row = new StringBuilder("| " + w.label() + " | " + String.join(", ", answer));
      for (String peer : PEERS) {
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

  private static Workload workload(String spec) throws IOException {
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
        // count distinct edges between distinct nodes, uniformly at random, seed 3
        final Random random = new Random(3);
        final Set<List<Object>> edges = new LinkedHashSet<>();
        while (edges.size() < count) {
          final long a = random.nextInt(nodes);
          final long b = random.nextInt(nodes);
          if (a != b) {
            edges.add(List.of(a, b));
          }
        }
        return transitiveClosure("transitive closure, random graph of " + nodes + " nodes and "
            + count + " edges (seed 3)", new ArrayList<>(edges));
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
      default:
        throw new IllegalArgumentException("unknown workload " + spec
            + "; expected chain[:NODES], random[:NODES:EDGES], samegen[:DEPTH] or airroutes");
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
   * inside WITH RECURSIVE, so the SQL peers run Bellman-Ford: each round
   * holds every reached airport's best distance so far, relaxes every route
   * once (a zero-length loop at each airport keeps the old best), and the
   * recursion ends after the first round that improves nothing.
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
        """
        WITH RECURSIVE best (node, dist, improved) AS (
          SELECT "to", MIN(dist), 1 FROM route WHERE fr = 'LHR' GROUP BY "to"
          UNION ALL
          SELECT DISTINCT node, dist,
              MAX(CASE WHEN former IS NULL OR dist < former THEN 1 ELSE 0 END) OVER ()
          FROM (SELECT e.dst AS node,
                       MIN(b.dist + e.w) OVER (PARTITION BY e.dst) AS dist,
                       MIN(CASE WHEN e.is_loop = 1 THEN b.dist END) OVER (PARTITION BY e.dst) AS former
                FROM best b
                JOIN (SELECT fr AS src, "to" AS dst, dist AS w, 0 AS is_loop FROM route
                      UNION ALL
                      SELECT n, n, CAST(0 AS DOUBLE PRECISION), 1
                      FROM (SELECT fr AS n FROM route UNION SELECT "to" FROM route) airports) e
                  ON e.src = b.node
                WHERE b.improved = 1) relaxed
        )
        SELECT COUNT(*), SUM(dist) FROM (SELECT node, MIN(dist) AS dist FROM best GROUP BY node) shortest
        """);
  }

  private static String putScript(Relation r) {
    return "?" + r.putColumns().replace("{", "[").replace("}", "]").replace(" =>", ",")
        + " <- $rows :put " + r.name() + " " + r.putColumns();
  }

  /** Runs a query through JDBC with the cap as its query timeout; returns its rows as text. */
  private static List<String> jdbc(Connection c, String query, int cap)
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
      // state: "Timeout of '...' ms for query execution is reached"
      if ("HYT00".equals(e.getSQLState()) || "57014".equals(e.getSQLState())
          || String.valueOf(e.getMessage()).contains("[eval::killed]")
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

    List<String> run(String query, int cap) throws SQLException, Harness.Stopped {
      return jdbc(connection, query, cap);
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

    void load(Relation r) throws Exception {
      stop();
      process = new ProcessBuilder("node", COZO_PEER.toString(), COZO.toString())
          .redirectError(COZO_LOG.toFile()).start();
      in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
      out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      request(Map.of("op", "exec", "script", ":create " + r.name() + " " + r.schema()), 0);
      request(Map.of("op", "exec", "script", putScript(r),
          "params", JSON.writeValueAsString(Map.of("rows", r.rows()))), 0);
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
}
