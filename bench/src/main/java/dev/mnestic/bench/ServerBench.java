package dev.mnestic.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The remote server under load, against plain HSQLDB 2.7.4's own server
 * (org.hsqldb.server.Server) on a file store with mnestic's settings (MVCC,
 * READ COMMITTED, write_delay=false, cached tables). Each server is its own
 * JVM ({@code -Xmx2g}), started fresh for each run on a fresh store
 * directory; the clients run in this JVM.
 * <ul>
 *   <li>throughput: 32 clients, each on its own connection, each running
 *       {@value #STATEMENTS_EACH} prepared statements (a point read by key,
 *       or an auto-committed INSERT); statements per second over all of them;
 *   <li>reopen after SIGKILL: 8 clients insert auto-committed rows for
 *       {@value #WRITE_SECONDS} s, the server is killed (SIGKILL), then the
 *       store is opened in this JVM and counted: seconds to open and count,
 *       checking that every acknowledged row is there.
 * </ul>
 * Medians of 3 runs after 1 warm-up, the two servers interleaved run by
 * run; only the statements (throughput) or the reopening (reopen) are timed.
 *
 * <p>Reproduce: {@code bench/run ServerBench [throughput|reopen] ['point read'|insert]} (all by
 * default);
 * {@code BENCH_SERVER_JAVA_OPTS} adds JVM options to mnestic's server, e.g. a recording:
 * {@code -XX:StartFlightRecording=filename=bench/target/server-%p.jfr,settings=profile}.
 */
public final class ServerBench {
  private static final int CLIENTS = 32;
  private static final int STATEMENTS_EACH = 200;
  private static final int KEYS = 10_000;
  private static final int WRITERS = 8;
  private static final int WRITE_SECONDS = 5;
  private static final String HSQLDB_SETTINGS = ";hsqldb.tx=mvcc;hsqldb.tx_level=read_committed"
      + ";hsqldb.write_delay=false;hsqldb.default_table_type=cached";
  private static final Path WORK = Path.of("bench/target/server-bench");
  private static final int WARMUPS = 1;
  private static final int RUNS = 3;

  private ServerBench() {
  }

  public static void main(String[] args) throws Exception {
    final String what = args.length > 0 ? args[0] : "both";
    System.out.printf(Locale.ROOT, "%d cores; medians of %d runs after %d warm-up%n%n",
        Runtime.getRuntime().availableProcessors(), RUNS, WARMUPS);
    if (!what.equals("reopen")) {
      System.out.println("| 32 clients, " + STATEMENTS_EACH + " statements each | mnestic serve"
          + " (statements/s) | HSQLDB server (statements/s) | mnestic / HSQLDB |");
      System.out.println("|---|---|---|---|");
      for (String workload : args.length > 1 ? List.of(args[1]) : List.of("point read", "insert")) {
        final double[][] rates = new double[2][RUNS];
        final long[] answers = new long[2];
        for (int round = 0; round < WARMUPS + RUNS; round++) {
          for (Kind kind : Kind.values()) {
            final long[] answer = new long[1];
            final double rate = throughput(kind, workload, answer);
            answers[kind.ordinal()] = answer[0];
            if (round >= WARMUPS) {
              rates[kind.ordinal()][round - WARMUPS] = rate;
            }
          }
          if (answers[0] != answers[1]) {
            throw new IllegalStateException(workload + ": answers differ: " + answers[0]
                + " vs " + answers[1]);
          }
        }
        final double m = median(rates[0]);
        final double h = median(rates[1]);
        System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.2f× |%n", workload, m, h, m / h);
      }
      System.out.println();
    }
    if (!what.equals("throughput")) {
      final double[][] seconds = new double[2][RUNS];
      final long[][] acknowledged = new long[2][RUNS];
      long lost = 0;
      for (int round = 0; round < WARMUPS + RUNS; round++) {
        for (Kind kind : Kind.values()) {
          final long[] counts = new long[2];
          final double s = reopenAfterKill(kind, counts);
          lost += counts[1];
          if (round >= WARMUPS) {
            seconds[kind.ordinal()][round - WARMUPS] = s;
            acknowledged[kind.ordinal()][round - WARMUPS] = counts[0];
          }
        }
      }
      System.out.println("| reopen after SIGKILL under " + WRITERS + " writers | mnestic (s) |"
          + " HSQLDB (s) | rows acknowledged before the kill, mnestic / HSQLDB (medians) |"
          + " acknowledged rows lost (all runs) |");
      System.out.println("|---|---|---|---|---|");
      System.out.printf(Locale.ROOT, "| open the store and count its rows | %.3f | %.3f |"
          + " %d / %d | %d |%n", median(seconds[0]), median(seconds[1]),
          (long) median(Arrays.stream(acknowledged[0]).asDoubleStream().toArray()),
          (long) median(Arrays.stream(acknowledged[1]).asDoubleStream().toArray()), lost);
    }
  }

  private enum Kind { MNESTIC, HSQLDB }

  /** A server in a child JVM, killed (SIGKILL) when closed unless it was already. */
  private static final class Child implements AutoCloseable {
    final Process process;
    final String url;
    final Path dir;

    private Child(Process process, String url, Path dir) {
      this.process = process;
      this.url = url;
      this.dir = dir;
    }

    static Child start(Kind kind) throws Exception {
      Files.createDirectories(WORK);
      final Path dir = Files.createTempDirectory(WORK, kind.name().toLowerCase(Locale.ROOT));
      final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      final String classPath = System.getProperty("java.class.path");
      if (kind == Kind.MNESTIC) {
        final List<String> command = new ArrayList<>(List.of(java, "-Xmx2g"));
        // e.g. a JFR recording of the server, written when it is stopped (close(), SIGTERM)
        final String opts = System.getenv("BENCH_SERVER_JAVA_OPTS");
        if (opts != null && !opts.isBlank()) {
          command.addAll(Arrays.asList(opts.trim().split("\\s+")));
        }
        command.addAll(List.of("-cp", classPath, "dev.mnestic.cli.Main", "serve", "--port", "0",
            "--db", dir.resolve("db").toString()));
        final Process p = new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        final BufferedReader out = new BufferedReader(
            new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String url = out.readLine();
        // Past what the JVM prints first (e.g. that a recording started)
        while (url != null && !url.startsWith("jdbc:")) {
          url = out.readLine();
        }
        if (url == null) {
          throw new IllegalStateException("mnestic serve printed no URL");
        }
        return new Child(p, url, dir);
      }
      final int port;
      try (ServerSocket free = new ServerSocket(0)) {
        port = free.getLocalPort();
      }
      final Process p = new ProcessBuilder(java, "-Xmx2g", "-cp", classPath,
          "org.hsqldb.server.Server", "--database.0",
          "file:" + dir.resolve("db/store") + HSQLDB_SETTINGS, "--dbname.0", "bench",
          "--address", "127.0.0.1", "--port", Integer.toString(port), "--silent", "true",
          "--trace", "false", "--no_system_exit", "true")
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      final String url = "jdbc:hsqldb:hsql://127.0.0.1:" + port + "/bench";
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (true) {
        try (Connection c = DriverManager.getConnection(url, "SA", "")) {
          return new Child(p, url, dir);
        } catch (SQLException e) {
          if (System.nanoTime() > deadline || !p.isAlive()) {
            throw new IllegalStateException("HSQLDB server did not start", e);
          }
          Thread.sleep(100);
        }
      }
    }

    Connection connect() throws SQLException {
      return url.startsWith("jdbc:hsqldb:") ? DriverManager.getConnection(url, "SA", "")
          : DriverManager.getConnection(url);
    }

    /** The store opened in this JVM, as after a restart. */
    Connection reopen() throws SQLException {
      return url.startsWith("jdbc:hsqldb:")
          ? DriverManager.getConnection("jdbc:hsqldb:file:" + dir.resolve("db/store")
              + HSQLDB_SETTINGS + ";shutdown=true", "SA", "")
          : DriverManager.getConnection("jdbc:mnestic:db=" + dir.resolve("db"));
    }

    void kill() throws InterruptedException {
      process.destroyForcibly();
      process.waitFor();
    }

    /** Stops the server (SIGTERM, so that it writes a recording), SIGKILL past 10 s. */
    @Override public void close() throws Exception {
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        kill();
      }
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted((a, b) -> b.compareTo(a)).forEach(f -> f.toFile().delete());
      }
    }
  }

  /**
   * Runs the workload's statements from 32 clients: statements per second;
   * {@code answer[0]} becomes the sum the reads saw, or the rows inserted.
   */
  private static double throughput(Kind kind, String workload, long[] answer)
      throws Exception {
    try (Child server = Child.start(kind)) {
      try (Connection c = server.connect(); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE acct (id INT PRIMARY KEY, v INT)");
        s.execute("CREATE TABLE ev (client INT, seq INT, PRIMARY KEY (client, seq))");
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO acct VALUES (?, ?)")) {
          for (int i = 0; i < KEYS; i++) {
            ps.setInt(1, i);
            ps.setInt(2, i % 7);
            ps.addBatch();
          }
          ps.executeBatch();
        }
      }
      final ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
      try {
        // Connections and prepared statements first: the timing is of statements alone.
        final List<Connection> connections = new ArrayList<>();
        for (int k = 0; k < CLIENTS; k++) {
          connections.add(server.connect());
        }
        final long start = System.nanoTime();
        final List<Future<Long>> results = new ArrayList<>();
        for (int k = 0; k < CLIENTS; k++) {
          final int client = k;
          final Connection c = connections.get(k);
          results.add(pool.submit(() -> workload.equals("insert")
              ? insert(c, client) : pointReads(c, client)));
        }
        long total = 0;
        for (Future<Long> f : results) {
          total += f.get(10, TimeUnit.MINUTES);
        }
        final double seconds = (System.nanoTime() - start) / 1e9;
        for (Connection c : connections) {
          c.close();
        }
        answer[0] = total;
        return CLIENTS * STATEMENTS_EACH / seconds;
      } finally {
        pool.shutdownNow();
      }
    }
  }

  private static long pointReads(Connection c, int client) throws SQLException {
    long sum = 0;
    try (PreparedStatement ps = c.prepareStatement("SELECT v FROM acct WHERE id = ?")) {
      for (int i = 0; i < STATEMENTS_EACH; i++) {
        ps.setInt(1, (client * 7919 + i * 104_729) % KEYS);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          sum += rs.getInt(1);
        }
      }
    }
    return sum;
  }

  private static long insert(Connection c, int client) throws SQLException {
    long rows = 0;
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO ev VALUES (?, ?)")) {
      for (int i = 0; i < STATEMENTS_EACH; i++) {
        ps.setInt(1, client);
        ps.setInt(2, i);
        rows += ps.executeUpdate();
      }
    }
    return rows;
  }

  /**
   * Writers insert until the server is killed; then the timed part, in
   * seconds: opening the store and counting its rows. {@code counts} becomes
   * {rows acknowledged, acknowledged rows missing}.
   */
  private static double reopenAfterKill(Kind kind, long[] counts) throws Exception {
    try (Child server = Child.start(kind)) {
      try (Connection c = server.connect(); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE ev (client INT, seq INT, pad VARCHAR(100),"
            + " PRIMARY KEY (client, seq))");
      }
      final AtomicLong acknowledged = new AtomicLong();
      final AtomicBoolean killed = new AtomicBoolean();
      final List<CompletableFuture<Void>> writers = new ArrayList<>();
      // Prepared before the clock starts: the writers' time goes to writing.
      final List<PreparedStatement> inserts = new ArrayList<>();
      for (int k = 0; k < WRITERS; k++) {
        inserts.add(server.connect().prepareStatement("INSERT INTO ev VALUES (?, ?, ?)"));
      }
      for (int k = 0; k < WRITERS; k++) {
        final int client = k;
        final PreparedStatement insert = inserts.get(k);
        writers.add(CompletableFuture.runAsync(() -> {
          try (PreparedStatement ps = insert) {
            for (int i = 0; !killed.get(); i++) {
              ps.setInt(1, client);
              ps.setInt(2, i);
              ps.setString(3, "x".repeat(100));
              ps.executeUpdate();
              acknowledged.incrementAndGet();
            }
          } catch (SQLException | RuntimeException e) {
            // The server was killed under the statement.
          }
        }));
      }
      Thread.sleep(TimeUnit.SECONDS.toMillis(WRITE_SECONDS));
      killed.set(true);
      server.kill();
      final long acked = acknowledged.get();
      for (CompletableFuture<Void> w : writers) {
        w.get(5, TimeUnit.MINUTES);
      }
      final long start = System.nanoTime();
      final long rows;
      try (Connection c = server.reopen(); Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ev")) {
        rs.next();
        rows = rs.getLong(1);
      }
      counts[0] = acked;
      counts[1] = Math.max(0, acked - rows);
      return (System.nanoTime() - start) / 1e9;
    }
  }

  static {
    System.setProperty("hsqldb.reconfig_logging", "false");
  }

  private static double median(double[] values) {
    Arrays.sort(values);
    return values[values.length / 2];
  }
}
