package dev.mnestic.bench;

import dev.mnestic.cli.Main;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreLocation;

import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.postgresql.PGConnection;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Fast ingest (issue #16): N metric rows {@code (ts TIMESTAMP(3), host VARCHAR(32), v DOUBLE)}
 * loaded into an empty table by each peer, side by side, in the same run:
 * <ul>
 *   <li>{@code batch-mem}, {@code batch-file}: mnestic's embedded driver, a prepared
 *       {@code INSERT INTO m VALUES (?, ?, ?)} with {@code addBatch}, {@code executeBatch}
 *       every 65,536 rows and one commit at the end (rows bound straight into the store), into
 *       an in-memory store and a file store (its log synced at commit);
 *   <li>{@code csv-mem}, {@code csv-file}: {@code mnestic import --csv} of the same rows as a
 *       CSV file (written before the timing), run in this JVM;
 *   <li>{@code hsqldb-mem}, {@code hsqldb-file}: plain HSQLDB JDBC batches on a mnestic
 *       session's own connection, of an in-memory and a file store: the store's own insert
 *       path, what the four above can at best reach;
 *   <li>{@code postgres}: PostgreSQL 15's {@code COPY m FROM STDIN (FORMAT csv)} of the CSV
 *       file through {@code CopyManager} ({@code bin/postgres-local}'s cluster: fsync off);
 *   <li>{@code duckdb}: DuckDB's appender into a file database.
 * </ul>
 * Each run drops and creates the table first (not timed) and counts its rows after (timed).
 *
 * <p>Run: {@code bench/run IngestBench [--rows N[,N...]] [--warmups W] [--runs R]
 * [--peers PEER,...]}, the peers among {@code batch-mem, batch-file, csv-mem, csv-file,
 * hsqldb-mem, hsqldb-file, postgres, duckdb}; the default is all of them, 1,000,000 and
 * 10,000,000 rows, 1 warm-up and 3 runs.
 */
public final class IngestBench {
  private static final Path DIR = Path.of("bench/target/ingest");
  private static final Path POSTGRES_DIR = Path.of("bench/target/postgres");
  private static final List<String> PEERS = List.of("batch-mem", "batch-file", "csv-mem",
      "csv-file", "hsqldb-mem", "hsqldb-file", "postgres", "duckdb");
  private static final int BATCH = 65_536;
  /** The first row's time: 2024-01-01 00:00 UTC; row i is i milliseconds later. */
  private static final long START = 1_704_067_200_000L;
  private static final DateTimeFormatter TEXT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS", Locale.ROOT);

  private IngestBench() {
  }

  static String host(long i) {
    return "host" + i % 100;
  }

  static double value(long i) {
    return (i * 7919 % 100_000) / 8.0;
  }

  /** Row i's time as text and as a Timestamp (the JVM's zone: as the driver reads text). */
  static LocalDateTime time(long i) {
    return LocalDateTime.ofEpochSecond(Math.floorDiv(START + i, 1000),
        Math.floorMod(START + i, 1000) * 1_000_000, ZoneOffset.UTC);
  }

  public static void main(String[] args) throws Exception {
    int warmups = 1;
    int runs = 3;
    List<Long> sizes = List.of(1_000_000L, 10_000_000L);
    Set<String> peers = new LinkedHashSet<>(PEERS);
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--warmups" -> warmups = Integer.parseInt(args[++i]);
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--rows" -> sizes = List.of(args[++i].split(",")).stream().map(Long::parseLong)
            .toList();
        case "--peers" -> {
          peers = new LinkedHashSet<>(List.of(args[++i].split(",")));
          if (!PEERS.containsAll(peers)) {
            throw new IllegalArgumentException("--peers: some of " + PEERS + ", was " + args[i]);
          }
        }
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    Files.createDirectories(DIR);
    final Harness harness = new Harness(warmups, runs);
    System.out.printf(Locale.ROOT, "medians of %d runs after %d warm-up, peers interleaved%n%n",
        runs, warmups);
    System.out.println("| rows | peer | seconds | rows/s |");
    System.out.println("|---|---|---|---|");
    try (Peers p = new Peers(peers)) {
      for (long n : sizes) {
        final Path csv = DIR.resolve("metrics-" + n + ".csv");
        if (!Files.exists(csv)) {
          writeCsv(csv, n);
        }
        final Map<String, Harness.Contender<Long>> contenders = new LinkedHashMap<>();
        for (String peer : peers) {
          contenders.put(peer, p.contender(peer, n, csv));
        }
        final List<Harness.Outcome<Long>> outcomes =
            harness.interleaved(new ArrayList<>(contenders.values()));
        int k = 0;
        for (String peer : contenders.keySet()) {
          final Harness.Outcome<Long> o = outcomes.get(k++);
          if (o.stopped() != null) {
            System.out.printf(Locale.ROOT, "| %,d | %s | %s | |%n", n, peer, o.stopped());
          } else {
            if (o.result() != n) {
              throw new IllegalStateException(peer + " stored " + o.result() + " rows of " + n);
            }
            System.out.printf(Locale.ROOT, "| %,d | %s | %.2f | %,.0f |%n", n, peer,
                o.seconds(), n / o.seconds());
          }
        }
      }
    }
  }

  /** {@code n} rows into {@code csv}, with a header line. */
  static void writeCsv(Path csv, long n) throws IOException {
    try (BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      w.write("ts,host,v\n");
      for (long i = 0; i < n; i++) {
        w.write(TEXT.format(time(i)));
        w.write(',');
        w.write(host(i));
        w.write(',');
        w.write(Double.toString(value(i)));
        w.write('\n');
      }
    }
  }

  /** The peers' stores, open for the whole run (so no run pays for opening or closing one). */
  private static final class Peers implements AutoCloseable {
    private final Connection mem;
    private final Connection file;
    private final Session hsqldbMem;
    private final Session hsqldbFile;
    private final Connection postgres;
    private final Connection duckdb;
    private final String fileDb = DIR.resolve("mnestic").toAbsolutePath().toString();

    Peers(Set<String> peers) throws Exception {
      mem = DriverManager.getConnection("jdbc:mnestic:db=mem:ingest-bench");
      file = DriverManager.getConnection("jdbc:mnestic:db=" + fileDb);
      hsqldbMem = peers.contains("hsqldb-mem") ? Session.open(StoreLocation.privateMemory()) : null;
      hsqldbFile = peers.contains("hsqldb-file")
          ? Session.open(StoreLocation.directory(DIR.resolve("hsqldb"))) : null;
      postgres = peers.contains("postgres") ? startPostgres() : null;
      duckdb = peers.contains("duckdb")
          ? DriverManager.getConnection("jdbc:duckdb:" + DIR.resolve("duck.db")) : null;
    }

    Harness.Contender<Long> contender(String peer, long n, Path csv) {
      return switch (peer) {
        case "batch-mem" -> () -> batch(mem, n);
        case "batch-file" -> () -> batch(file, n);
        case "csv-mem" -> () -> csvImport(mem, "mem:ingest-bench", csv);
        case "csv-file" -> () -> csvImport(file, fileDb, csv);
        case "hsqldb-mem" -> () -> hsqldb(hsqldbMem, n);
        case "hsqldb-file" -> () -> hsqldb(hsqldbFile, n);
        case "postgres" -> () -> copy(csv);
        case "duckdb" -> () -> appender(n);
        default -> throw new IllegalArgumentException(peer);
      };
    }

    /** Drops and creates {@code m} on {@code c} (not timed: Harness times the whole call). */
    private static void create(Connection c, String ts, String v) throws SQLException {
      try (Statement s = c.createStatement()) {
        s.execute("DROP TABLE IF EXISTS m");
        s.execute("CREATE TABLE m (ts " + ts + " NOT NULL, host VARCHAR(32), v " + v + ")");
      }
    }

    /** The rows of {@code table} (as SQL writes its name) on {@code c}. */
    private static long count(Connection c, String table) throws SQLException {
      try (Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
        rs.next();
        return rs.getLong(1);
      }
    }

    /** mnestic's batch INSERT: a TIMESTAMP bound as JDBC's {@code Timestamp}. */
    private static long batch(Connection c, long n) throws SQLException {
      create(c, "TIMESTAMP(3)", "DOUBLE");
      insertBatches(c, "INSERT INTO m VALUES (?, ?, ?)", n,
          (ps, i) -> ps.setTimestamp(1, Timestamp.valueOf(time(i))));
      return count(c, "m");
    }

    private static long csvImport(Connection c, String db, Path csv) throws Exception {
      create(c, "TIMESTAMP(3)", "DOUBLE");
      final ByteArrayOutputStream err = new ByteArrayOutputStream();
      final int status = Main.run(new String[] {"import", "--db", db, "--csv", csv.toString(), "m"},
          InputStream.nullInputStream(), new PrintStream(new ByteArrayOutputStream()),
          new PrintStream(err, true, StandardCharsets.UTF_8));
      if (status != 0) {
        throw new Harness.Stopped("import failed: " + err.toString(StandardCharsets.UTF_8));
      }
      return count(c, "m");
    }

    /** HSQLDB's own JDBC batches: a TIMESTAMP bound as a {@code LocalDateTime}. */
    private static long hsqldb(Session session, long n) throws SQLException {
      final Connection c = session.getConnection();
      try (Statement s = c.createStatement()) {
        s.execute("DROP TABLE IF EXISTS \"m\"");
        s.execute("CREATE TABLE \"m\" (\"ts\" TIMESTAMP(3) NOT NULL, \"host\" VARCHAR(32),"
            + " \"v\" DOUBLE)");
      }
      insertBatches(c, "INSERT INTO \"m\" VALUES (?, ?, ?)", n,
          (ps, i) -> ps.setObject(1, time(i)));
      return count(c, "\"m\"");
    }

    /** Binds row {@code i}'s time as parameter 1 of {@code ps}. */
    @FunctionalInterface
    private interface TimeBinder {
      void bind(PreparedStatement ps, long i) throws SQLException;
    }

    /**
     * Rows 0 .. n - 1 through {@code insert} prepared on {@code c}: {@code executeBatch} every
     * {@link #BATCH} rows, one commit at the end.
     */
    private static void insertBatches(Connection c, String insert, long n, TimeBinder time)
        throws SQLException {
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement(insert)) {
        for (long i = 0; i < n; i++) {
          time.bind(ps, i);
          ps.setString(2, host(i));
          ps.setDouble(3, value(i));
          ps.addBatch();
          if ((i + 1) % BATCH == 0) {
            ps.executeBatch();
          }
        }
        ps.executeBatch();
        c.commit();
      } finally {
        c.setAutoCommit(true);
      }
    }

    private long copy(Path csv) throws SQLException, IOException {
      create(postgres, "TIMESTAMP(3)", "DOUBLE PRECISION");
      try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
        postgres.unwrap(PGConnection.class).getCopyAPI()
            .copyIn("COPY m FROM STDIN (FORMAT csv, HEADER true)", in);
      }
      return count(postgres, "m");
    }

    private long appender(long n) throws SQLException {
      create(duckdb, "TIMESTAMP", "DOUBLE");
      try (DuckDBAppender a = ((DuckDBConnection) duckdb).createAppender("main", "m")) {
        for (long i = 0; i < n; i++) {
          a.beginRow().append(time(i)).append(host(i)).append(value(i)).endRow();
        }
      }
      return count(duckdb, "m");
    }

    private static Connection startPostgres() throws IOException, InterruptedException, SQLException {
      final Process p = new ProcessBuilder("bin/postgres-local", "start", POSTGRES_DIR.toString())
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      final String url = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (p.waitFor() != 0) {
        throw new IllegalStateException("bin/postgres-local start failed");
      }
      return DriverManager.getConnection(url);
    }

    @Override public void close() throws SQLException, IOException {
      mem.close();
      file.close();
      for (Session s : new Session[] {hsqldbMem, hsqldbFile}) {
        if (s != null) {
          s.close();
        }
      }
      if (duckdb != null) {
        duckdb.close();
      }
      if (postgres != null) {
        postgres.close();
        try {
          new ProcessBuilder("bin/postgres-local", "stop", POSTGRES_DIR.toString()).inheritIO()
              .start().waitFor();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}
