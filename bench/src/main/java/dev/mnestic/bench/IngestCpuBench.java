package dev.mnestic.bench;

import dev.mnestic.cli.Main;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreLocation;

import org.hsqldb.Table;
import org.hsqldb.persist.PersistentStore;
import org.hsqldb.types.TimestampData;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
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
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where the CPU of a bulk load of N metric rows goes (issue #16, fast ingest), by phase, as ns
 * per row of the calling thread's CPU time, and of the whole process's (garbage collection,
 * JIT): wall time on a busy machine mostly measures the load, CPU time far less. The rows are
 * {@link IngestBench}'s, into an in-memory store, one transaction:
 * <ul>
 *   <li>{@code batch}: mnestic's embedded batch INSERT ({@code addBatch} per row,
 *       {@code executeBatch} every 65,536 rows), as {@link IngestBench}'s {@code batch-mem};
 *   <li>{@code csv}: {@code mnestic import --csv} of the same rows (written to a file first,
 *       not timed), as {@link IngestBench}'s {@code csv-mem}: its whole run is the "send"
 *       phase; the file is read and parsed on a thread of its own, whose CPU is among the
 *       other threads';
 *   <li>{@code hsqldb-jdbc}: HSQLDB's own JDBC batches on a mnestic session's connection, as
 *       {@code hsqldb-mem};
 *   <li>{@code hsqldb-rows}: HSQLDB's internal insert of one row ({@code Table.insertSingleRow},
 *       package-private, called by reflection: what HSQLDB's INSERT statement does per row
 *       after evaluating its expressions; type limits, NOT NULL, the row, its index node and
 *       its MVCC row action), in one HSQLDB action per 65,536 rows on the session's HSQLDB
 *       session: the least any path that keeps HSQLDB's rows can cost.
 * </ul>
 * Phases: make the rows and bind them ({@code addBatch}), send them ({@code executeBatch},
 * or the inserts), commit, and {@code SELECT COUNT(*)} afterwards. Medians of the runs after
 * the first (a warm-up). Also the bytes the calling thread allocated per row (a CSV import's
 * reading thread not included).
 *
 * <p>Reproduce: {@code bench/run IngestCpuBench [ROWS [RUNS]]} (defaults 1,000,000 and 4).
 */
public final class IngestCpuBench {
  private static final int BATCH = 65_536;
  private static final List<String> PEERS =
      List.of("batch", "csv", "hsqldb-jdbc", "hsqldb-rows");
  private static final com.sun.management.ThreadMXBean THREAD =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final com.sun.management.OperatingSystemMXBean PROCESS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private IngestCpuBench() {
  }

  /** CPU nanoseconds of the calling thread spent in each phase of one load, and in all. */
  private static final class Phases {
    long make;
    long send;
    long commit;
    long count;
    long process;
    /** Bytes the calling thread allocated. */
    long allocated;

    private long mark;

    void start() {
      mark = THREAD.getCurrentThreadCpuTime();
    }

    /** The calling thread's CPU since the last mark, which moves to now. */
    long lap() {
      final long now = THREAD.getCurrentThreadCpuTime();
      final long lap = now - mark;
      mark = now;
      return lap;
    }
  }

  public static void main(String[] args) throws Exception {
    final long n = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000L;
    final int runs = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    if (runs < 2) {
      throw new IllegalArgumentException("at least 2 runs (1 warm-up), not " + runs);
    }
    System.out.printf(Locale.ROOT, "%,d rows, ns of CPU per row, medians of %d runs after 1"
        + " warm-up%n%n", n, runs - 1);
    System.out.println("| peer | make + bind | send | commit | COUNT(*) | calling thread"
        + " | other threads (GC, JIT) | process | bytes allocated (calling thread) |");
    System.out.println("|---|---|---|---|---|---|---|---|---|");
    final Path csv = Path.of("bench/target/ingest/metrics-" + n + ".csv");
    if (!Files.exists(csv)) {
      Files.createDirectories(csv.getParent());
      IngestBench.writeCsv(csv, n);
    }
    try (Connection mnestic = DriverManager.getConnection("jdbc:mnestic:db=mem:ingest-cpu");
         Session store = Session.open(StoreLocation.privateMemory())) {
      for (String peer : PEERS) {
        final long[][] phases = new long[7][runs - 1];
        for (int run = 0; run < runs; run++) {
          System.gc();
          final Phases p = new Phases();
          final long process = PROCESS.getProcessCpuTime();
          final long thread = THREAD.getCurrentThreadCpuTime();
          final long allocated = THREAD.getCurrentThreadAllocatedBytes();
          final long rows = switch (peer) {
            case "batch" -> batch(mnestic, n, p);
            case "csv" -> csvImport(mnestic, csv, p);
            case "hsqldb-jdbc" -> hsqldbJdbc(store.getConnection(), n, p);
            case "hsqldb-rows" -> hsqldbRows(store.getConnection(), n, p);
            default -> throw new IllegalArgumentException(peer);
          };
          final long threadAll = THREAD.getCurrentThreadCpuTime() - thread;
          final long allocatedAll = THREAD.getCurrentThreadAllocatedBytes() - allocated;
          final long processAll = PROCESS.getProcessCpuTime() - process;
          if (rows != n) {
            throw new IllegalStateException(peer + " stored " + rows + " rows of " + n);
          }
          if (run > 0) {
            final long[] values = {p.make, p.send, p.commit, p.count, threadAll,
                processAll - threadAll, allocatedAll};
            for (int k = 0; k < values.length; k++) {
              phases[k][run - 1] = values[k] / n;
            }
          }
        }
        final long[] m = Arrays.stream(phases).mapToLong(IngestCpuBench::median).toArray();
        System.out.printf(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %,d |%n",
            peer, m[0], m[1], m[2], m[3], m[4], m[5], m[4] + m[5], m[6]);
      }
    }
  }

  private static long median(long[] values) {
    final long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static void create(Connection c, String table) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + table);
      s.execute("CREATE TABLE " + table + " (\"ts\" TIMESTAMP(3) NOT NULL, \"host\" VARCHAR(32),"
          + " \"v\" DOUBLE)");
    }
  }

  private static long count(Connection c, String table, Phases p) throws SQLException {
    p.start();
    try (Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      rs.next();
      final long count = rs.getLong(1);
      p.count = p.lap();
      return count;
    }
  }

  /** mnestic's embedded batch INSERT, as {@link IngestBench}'s {@code batch-mem}. */
  private static long batch(Connection c, long n, Phases p) throws SQLException {
    create(c, "\"m\"");
    send(c, "INSERT INTO \"m\" VALUES (?, ?, ?)", n, p,
        (ps, i) -> ps.setTimestamp(1, Timestamp.valueOf(IngestBench.time(i))));
    return count(c, "\"m\"", p);
  }

  /** {@code mnestic import --csv} of {@code csv}, as {@link IngestBench}'s {@code csv-mem}. */
  private static long csvImport(Connection c, Path csv, Phases p) throws SQLException {
    create(c, "\"m\"");
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    p.start();
    final int status = Main.run(new String[] {"import", "--db", "mem:ingest-cpu", "--csv",
        csv.toString(), "m"}, InputStream.nullInputStream(),
        new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    p.send = p.lap();
    if (status != 0) {
      throw new IllegalStateException("import failed: " + err.toString(StandardCharsets.UTF_8));
    }
    return count(c, "\"m\"", p);
  }

  /** HSQLDB's own JDBC batches, as {@link IngestBench}'s {@code hsqldb-mem}. */
  private static long hsqldbJdbc(Connection c, long n, Phases p) throws SQLException {
    create(c, "\"m\"");
    send(c, "INSERT INTO \"m\" VALUES (?, ?, ?)", n, p,
        (ps, i) -> ps.setObject(1, IngestBench.time(i)));
    return count(c, "\"m\"", p);
  }

  @FunctionalInterface
  private interface TimeBinder {
    void bind(PreparedStatement ps, long i) throws SQLException;
  }

  private static void send(Connection c, String insert, long n, Phases p, TimeBinder time)
      throws SQLException {
    c.setAutoCommit(false);
    try (PreparedStatement ps = c.prepareStatement(insert)) {
      p.start();
      for (long i = 0; i < n; i++) {
        time.bind(ps, i);
        ps.setString(2, IngestBench.host(i));
        ps.setDouble(3, IngestBench.value(i));
        ps.addBatch();
        if ((i + 1) % BATCH == 0 || i == n - 1) {
          p.make += p.lap();
          ps.executeBatch();
          p.send += p.lap();
        }
      }
      c.commit();
      p.commit = p.lap();
    } finally {
      c.setAutoCommit(true);
    }
  }

  /**
   * HSQLDB's internal insert of each row ({@code Table.insertSingleRow}) on the HSQLDB session
   * of {@code c}, one action per {@link #BATCH} rows, as HSQLDB's own statement runs it.
   */
  private static long hsqldbRows(Connection c, long n, Phases p) throws Exception {
    create(c, "\"m\"");
    final org.hsqldb.Session session =
        (org.hsqldb.Session) ((org.hsqldb.jdbc.JDBCConnection) c).getSession();
    final Table table = session.database.schemaManager.getUserTable("m", Session.SCHEMA);
    final Method insert = Table.class.getDeclaredMethod("insertSingleRow",
        org.hsqldb.Session.class, PersistentStore.class, Object[].class, int[].class);
    insert.setAccessible(true);
    final org.hsqldb.Statement action =
        session.compileStatement("INSERT INTO \"m\" VALUES (?, ?, ?)");
    c.setAutoCommit(false);
    try {
      final PersistentStore store = table.getRowStore(session);
      final Object[][] rows = new Object[BATCH][];
      p.start();
      for (long first = 0; first < n; first += BATCH) {
        final int size = (int) Math.min(BATCH, n - first);
        for (int r = 0; r < size; r++) {
          final long i = first + r;
          final LocalDateTime t = IngestBench.time(i);
          rows[r] = new Object[] {new TimestampData(t.toEpochSecond(ZoneOffset.UTC), t.getNano()),
              IngestBench.host(i), IngestBench.value(i)};
        }
        p.make += p.lap();
        synchronized (session) {
          session.sessionContext.currentStatement = action;
          session.beginAction(action);
          try {
            for (int r = 0; r < size; r++) {
              insert.invoke(table, session, store, rows[r], null);
            }
          } catch (InvocationTargetException e) {
            throw new SQLException("row insert failed", e.getCause());
          } finally {
            session.endAction(org.hsqldb.result.Result.updateZeroResult);
            session.sessionContext.currentStatement = null;
          }
        }
        p.send += p.lap();
      }
      c.commit();
      p.commit = p.lap();
    } finally {
      c.setAutoCommit(true);
    }
    return count(c, "\"m\"", p);
  }
}
