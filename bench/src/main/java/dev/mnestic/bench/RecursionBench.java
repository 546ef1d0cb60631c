package dev.mnestic.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
import java.util.concurrent.TimeUnit;

/**
 * Transitive closure, timed side by side in one run: mnestic's Datalog
 * (semi-naive RecursiveUnion) and Calcite's WITH RECURSIVE, both over the
 * same store table, and CozoDB (cozo-lib-wasm under Node, on this machine)
 * over the same edges. Each engine counts the pairs; the counts must agree.
 *
 * <p>Reproduce: {@code bench/run RecursionBench chain 1000} or
 * {@code bench/run RecursionBench random 2000 10000}. Needs {@code npm ci}
 * in {@code datalog-frontend/src/test/cozo} for the CozoDB column.
 */
public final class RecursionBench {
  private static final Path COZO = Path.of("datalog-frontend/src/test/cozo");

  private RecursionBench() {
  }

  public static void main(String[] args) throws Exception {
    final List<int[]> edges = new ArrayList<>();
    final String label;
    if (args[0].equals("chain")) {
      final int n = Integer.parseInt(args[1]);
      for (int i = 0; i < n - 1; i++) {
        edges.add(new int[] {i, i + 1});
      }
      label = "chain of " + n + " nodes";
    } else {
      final int nodes = Integer.parseInt(args[1]);
      final int count = Integer.parseInt(args[2]);
      final Random random = new Random(3);
      for (int i = 0; i < count; i++) {
        edges.add(new int[] {random.nextInt(nodes), random.nextInt(nodes)});
      }
      label = "random graph, " + nodes + " nodes, " + count + " edges";
    }
    final String db = "mem:bench-" + UUID.randomUUID();
    try (Connection sql = DriverManager.getConnection("jdbc:mnestic:db=" + db);
         Connection datalog = DriverManager.getConnection("jdbc:mnestic:db=" + db + ";lang=datalog")) {
      try (Statement s = sql.createStatement()) {
        s.execute("CREATE TABLE edge (src INT NOT NULL, dst INT NOT NULL, PRIMARY KEY (src, dst))");
      }
      sql.setAutoCommit(false);
      try (PreparedStatement ps = sql.prepareStatement("MERGE INTO edge t USING (VALUES (?, ?))"
          + " AS v (src, dst) ON t.src = v.src AND t.dst = v.dst"
          + " WHEN NOT MATCHED THEN INSERT VALUES (v.src, v.dst)")) {
        for (int[] e : edges) {
          ps.setInt(1, e[0]);
          ps.setInt(2, e[1]);
          ps.executeUpdate();
        }
      }
      sql.commit();
      sql.setAutoCommit(true);
      final Harness harness = new Harness(1, 3);
      final Harness.Timing<Long> mnestic = harness.time(() -> count(datalog,
          "tc[a, b] := *edge[a, b]\ntc[a, c] := tc[a, b], *edge[b, c]\n?[count(a)] := tc[a, b]"));
      final Harness.Timing<Long> calcite = harness.time(() -> count(sql,
          "WITH RECURSIVE tc (a, b) AS (SELECT src, dst FROM edge UNION"
              + " SELECT tc.a, e.dst FROM tc JOIN edge e ON tc.b = e.src) SELECT COUNT(*) FROM tc"));
      final double[] cozo = cozo(edges);
      if (!mnestic.result().equals(calcite.result())
          || (cozo != null && mnestic.result() != (long) cozo[1])) {
        throw new IllegalStateException("counts differ: mnestic " + mnestic.result()
            + ", Calcite " + calcite.result() + ", CozoDB " + (cozo == null ? "-" : (long) cozo[1]));
      }
      System.out.printf(Locale.ROOT, "| transitive closure, %s (%d pairs) | %.3f | %.3f (%.1f×) | %s |%n",
          label, mnestic.result(), mnestic.seconds(), calcite.seconds(),
          calcite.seconds() / mnestic.seconds(),
          cozo == null ? "not run (no node)" : String.format(Locale.ROOT, "%.3f (%.1f×)",
              cozo[0], cozo[0] / mnestic.seconds()));
    }
  }

  private static long count(Connection c, String query) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
      rs.next();
      return ((Number) rs.getObject(1)).longValue();
    }
  }

  /** CozoDB's median seconds over 3 runs after 1 warm-up, and its count; null without node. */
  private static double[] cozo(List<int[]> edges) throws IOException, InterruptedException {
    final StringBuilder rows = new StringBuilder("[");
    for (int[] e : edges) {
      rows.append(rows.length() > 1 ? "," : "").append('[').append(e[0]).append(',').append(e[1]).append(']');
    }
    rows.append(']');
    final String js = """
        const fs = require('fs');
        const dir = process.argv[1];
        const pkg = dir + '/node_modules/cozo-lib-wasm/';
        import(pkg + 'cozo_lib_wasm.js').then((m) => {
          m.initSync(fs.readFileSync(pkg + 'cozo_lib_wasm_bg.wasm'));
          const db = m.CozoDb.new();
          const setup = db.run(':create edge {src: Int, dst: Int}', '{}', false);
          const put = db.run('?[src, dst] <- $rows :put edge {src, dst}',
            JSON.stringify({rows: JSON.parse(fs.readFileSync(0, 'utf8'))}), false);
          const q = 'tc[a, b] := *edge[a, b]\\ntc[a, c] := tc[a, b], *edge[b, c]\\n?[count(a)] := tc[a, b]';
          const times = []; let count = null;
          for (let i = 0; i < 4; i++) {
            const t = performance.now();
            const r = JSON.parse(db.run(q, '{}', false));
            if (!r.ok) throw new Error(JSON.stringify(r));
            if (i > 0) times.push((performance.now() - t) / 1000);
            count = r.rows[0][0];
          }
          times.sort((a, b) => a - b);
          console.log(times[1] + ' ' + count);
        });
        """;
    final Process p;
    try {
      p = new ProcessBuilder("node", "-e", js, COZO.toAbsolutePath().toString())
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    } catch (IOException e) {
      return null;
    }
    try (OutputStream in = p.getOutputStream()) {
      in.write(rows.toString().getBytes(StandardCharsets.UTF_8));
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
}
