package dev.mnestic.bench;

import dev.mnestic.datalog.Engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Skyline aggregates (issue 4), side by side in one run.
 *
 * <p>{@code frontier MEMORIES ENTITIES}: each entity's frontier over
 * memories scored on 2 and on 4 random objectives, by {@code pareto_max}
 * and by the hand-rolled form (a self-join and a negation), in mnestic,
 * and the hand-rolled form in CozoDB (cozo-lib-wasm under Node; CozoDB
 * 0.7.6 has no pareto_max). The survivor counts must agree.
 *
 * <p>{@code reach NODES EDGES}: the two-objective reach (fewest hops, most
 * strength) from node 0 over a random weighted DAG of layers (an edge goes
 * one or two layers down, so hops vary), by {@code pareto_min} in the
 * recursion, pruning as it goes, against deriving every (hops, strength)
 * a path reaches and taking the frontier afterwards. Reports the tuples
 * each derives (the new tuples of every round, summed) and the time; the
 * frontiers must agree.
 *
 * <p>Reproduce: {@code bench/run ParetoBench frontier 1000000 10000} and
 * {@code bench/run ParetoBench reach 10000 50000}. Needs {@code npm ci} in
 * {@code datalog-frontend/src/test/cozo} for the CozoDB column.
 */
public final class ParetoBench {
  private static final Path COZO = Path.of("datalog-frontend/src/test/cozo");

  private ParetoBench() {
  }

  public static void main(String[] args) throws Exception {
    final int a = Integer.parseInt(args[1]);
    final int b = Integer.parseInt(args[2]);
    try (Connection connection = DriverManager.getConnection(
        "jdbc:mnestic:db=mem:bench-" + UUID.randomUUID())) {
      final Engine engine = new Engine(connection);
      if (args[0].equals("frontier")) {
        frontier(engine, a, b);
      } else {
        reach(engine, a, b);
      }
    }
  }

  // frontier

  private static void frontier(Engine engine, int memories, int entities) throws Exception {
    final Random random = new Random(4);
    final List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < memories; i++) {
      rows.add(List.of((long) i, (long) (i % entities), random.nextDouble(), random.nextDouble(),
          random.nextDouble(), random.nextDouble()));
    }
    engine.run(":create mem {id: Int => e: Int, o1: Float, o2: Float, o3: Float, o4: Float}",
        Map.of());
    engine.run("?[id, e, o1, o2, o3, o4] <- $rows :put mem {id => e, o1, o2, o3, o4}",
        Map.of("rows", rows));
    final String data = json(rows);
    for (int objectives : new int[] {2, 4}) {
      final List<String> o = List.of("o1", "o2", "o3", "o4").subList(0, objectives);
      final String bind = "*mem{id: m, e, " + String.join(", ", o) + "}";
      final String aggregate = "f[e, pareto_max(p)] := " + bind + ", p = ["
          + String.join(", ", o) + "]\n?[count(e)] := f[e, p]";
      final StringBuilder ge = new StringBuilder();
      final StringBuilder gt = new StringBuilder();
      for (String x : o) {
        ge.append(", ").append(x).append("2 >= ").append(x);
        gt.append(gt.length() == 0 ? "" : ", ").append(x).append("2 > ").append(x);
      }
      final String cand = "cand[e, m, " + String.join(", ", o) + "] := " + bind + "\n";
      final String byHand = cand
          + "dominated[e, m] := cand[e, m, " + String.join(", ", o) + "], cand[e, other, "
          + String.join("2, ", o) + "2], other != m" + ge + ", or(" + gt + ")\n"
          + "?[count(m)] := cand[e, m, " + String.join(", ", o) + "], not dominated[e, m]";
      final Harness.Timing<Long> fast = new Harness(1, 3).time(() -> count(engine, aggregate));
      final Harness.Timing<Long> slow = new Harness(0, 1).time(() -> count(engine, byHand));
      final double[] cozo = cozo(data, byHand);
      if (!fast.result().equals(slow.result())
          || cozo != null && fast.result() != (long) cozo[1]) {
        throw new IllegalStateException("survivors differ: pareto_max " + fast.result()
            + ", by hand " + slow.result() + ", CozoDB " + (cozo == null ? "-" : (long) cozo[1]));
      }
      System.out.printf(Locale.ROOT, "| frontier, %d memories, %d entities, %d objectives"
              + " (%d survivors) | %.3f | %.3f (%.1f×) | %s |%n", memories, entities, objectives,
          fast.result(), fast.seconds(), slow.seconds(), slow.seconds() / fast.seconds(),
          cozo == null ? "not run (no node)" : String.format(Locale.ROOT, "%.3f (%.1f×)",
              cozo[0], cozo[0] / fast.seconds()));
    }
  }

  private static long count(Engine engine, String script) throws Exception {
    return ((Number) engine.run(script, Map.of()).rows().get(0).get(0)).longValue();
  }

  private static String json(List<List<Object>> rows) {
    final StringBuilder b = new StringBuilder("[");
    for (List<Object> row : rows) {
      b.append(b.length() > 1 ? "," : "").append('[');
      for (int i = 0; i < row.size(); i++) {
        b.append(i > 0 ? "," : "").append(row.get(i));
      }
      b.append(']');
    }
    return b.append(']').toString();
  }

  /**
   * CozoDB's median seconds over 3 runs of {@code query} (1 when a run takes
   * over a minute) and its count, on the memories in {@code rows}; null
   * without node.
   */
  private static double[] cozo(String rows, String query) throws IOException, InterruptedException {
    final String js = """
        const fs = require('fs');
        const [dir, query] = process.argv.slice(1);
        const pkg = dir + '/node_modules/cozo-lib-wasm/';
        import(pkg + 'cozo_lib_wasm.js').then((m) => {
          m.initSync(fs.readFileSync(pkg + 'cozo_lib_wasm_bg.wasm'));
          const db = m.CozoDb.new();
          const ok = (r) => { const j = JSON.parse(r); if (!j.ok) throw new Error(r); return j; };
          ok(db.run(':create mem {id: Int => e: Int, o1: Float, o2: Float, o3: Float, o4: Float}', '{}', false));
          ok(db.run('?[id, e, o1, o2, o3, o4] <- $rows :put mem {id => e, o1, o2, o3, o4}',
            '{"rows":' + fs.readFileSync(0, 'utf8') + '}', false));
          const times = []; let count = null;
          for (let i = 0; i < 3; i++) {
            const t = performance.now();
            count = ok(db.run(query, '{}', false)).rows[0][0];
            times.push((performance.now() - t) / 1000);
            if (times[0] > 60) break;
          }
          times.sort((a, b) => a - b);
          console.log(times[Math.floor(times.length / 2)] + ' ' + count);
        });
        """;
    final Process p;
    try {
      p = new ProcessBuilder("node", "--max-old-space-size=8192", "-e", js,
          COZO.toAbsolutePath().toString(), query)
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    } catch (IOException e) {
      return null;
    }
    try (OutputStream in = p.getOutputStream()) {
      in.write(rows.getBytes(StandardCharsets.UTF_8));
    }
    final String out;
    try (InputStream o = p.getInputStream()) {
      out = new String(o.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
    if (!p.waitFor(3600, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("CozoDB run failed: " + out);
    }
    final String[] parts = out.split(" ");
    return new double[] {Double.parseDouble(parts[0]), Double.parseDouble(parts[1])};
  }

  // reach

  private static void reach(Engine engine, int nodes, int edges) throws Exception {
    final int layers = 25;
    final int width = nodes / layers;
    final Random random = new Random(5);
    final List<List<Object>> rows = new ArrayList<>();
    final java.util.Set<List<Long>> seen = new java.util.HashSet<>();
    while (rows.size() < edges) {
      final int layer = random.nextInt(layers - 1);
      final int down = layer + 2 < layers && random.nextInt(5) == 0 ? 2 : 1;
      final long from = (long) layer * width + random.nextInt(width);
      final long to = (long) (layer + down) * width + random.nextInt(width);
      if (seen.add(List.of(from, to))) {
        rows.add(List.of(from, to, (long) 1 + random.nextInt(5)));
      }
    }
    engine.run(":create g {src: Int, dst: Int => w: Int}", Map.of());
    engine.run("?[src, dst, w] <- $rows :put g {src, dst => w}", Map.of("rows", rows));
    final String pruned = """
        reach[to, pareto_min(p)] := *g{src: 0, dst: to, w}, p = [1, -w]
        reach[to, pareto_min(p)] := reach[m, q], *g{src: m, dst: to, w},
                                    p = [get(q, 0) + 1, get(q, 1) - w]
        ?[count(to)] := reach[to, p]""";
    final String afterwards = """
        all[to, hops, str] := *g{src: 0, dst: to, w}, hops = 1, str = w
        all[to, hops, str] := all[m, h, s], *g{src: m, dst: to, w}, hops = h + 1, str = s + w
        frontier[to, pareto_min(p)] := all[to, h, s], p = [h, -s]
        ?[count(to)] := frontier[to, p]""";
    final long prunedTuples = tuples(engine, pruned);
    final long allTuples = tuples(engine, afterwards);
    final Harness.Timing<Long> fast = new Harness(1, 3).time(() -> count(engine, pruned));
    final Harness.Timing<Long> slow = new Harness(1, 3).time(() -> count(engine, afterwards));
    if (!fast.result().equals(slow.result())) {
      throw new IllegalStateException("frontiers differ: pruned " + fast.result()
          + ", afterwards " + slow.result());
    }
    System.out.printf(Locale.ROOT, "| two-objective reach, DAG of %d nodes in %d layers, %d edges"
            + " (%d survivors) | %d tuples, %.3f s | %d tuples, %.3f s | %.1f× fewer tuples,"
            + " %.1f× faster |%n", nodes, layers, edges, fast.result(), prunedTuples,
        fast.seconds(), allTuples, slow.seconds(), (double) allTuples / prunedTuples,
        slow.seconds() / fast.seconds());
  }

  /** The tuples the script's fixpoints derive after their seeds: every round's new tuples, summed. */
  private static long tuples(Engine engine, String script) throws Exception {
    final AtomicLong tuples = new AtomicLong();
    engine.reportingRoundsTo((round, deltas) -> {
      for (int d : deltas) {
        tuples.addAndGet(d);
      }
    }).run(script, Map.of());
    return tuples.get();
  }
}
