package dev.mnestic.store;

import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.Function0;
import org.apache.calcite.rel.core.TableModify;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

/**
 * Writes rows computed by Calcite into a table of the store, on the
 * statement's session (so inside its transaction).
 *
 * <p>Rows arrive as Calcite lays out a TableModify's input, in Calcite's
 * internal value representation:
 * <ul>
 *   <li>INSERT: the table's columns;
 *   <li>DELETE: the table's columns of each row to delete;
 *   <li>UPDATE: the table's columns, then the new value of each updated column;
 *   <li>MERGE: whether the row matched, then as UPDATE's, then the row to insert (see
 *     {@link #merge}).
 * </ul>
 * A row to delete or update is found by the table's primary key, or by all
 * its columns ({@code IS NOT DISTINCT FROM}) when it has none. Rows are sent
 * in JDBC batches.
 */
public final class StoreWrites {
  private static final int BATCH = 1000;

  private StoreWrites() {
  }

  /**
   * How many times in all a statement whose UPDATE or DELETE met a row another transaction
   * changed runs, where it may run again (see {@link #modify}); then it fails with SQLSTATE
   * 40001.
   */
  static final int ATTEMPTS = 50;

  /**
   * Applies {@code operation} to {@code table} for each of the rows {@code input} computes;
   * returns the row count. The statement is all-or-nothing: its own transaction in auto-commit
   * mode, otherwise a savepoint inside the open one.
   *
   * <p>An UPDATE, DELETE or MERGE writes rows computed from what the statement read; its writes are
   * guarded ({@link Session#guardWrites}) from the change number before {@code input} reads
   * anything, so that a row another transaction committed a new version of meanwhile is not
   * overwritten with values computed from the old one: the statement is rolled back instead.
   * It then runs again from the start, {@code input} computed afresh from the rows committed
   * by then (as HSQLDB's READ COMMITTED redoes a statement that waited for a row), at most
   * {@value #ATTEMPTS} times in all, with a short random pause from the second conflict on:
   * in auto-commit mode at any isolation level (the statement is its own transaction), and at
   * READ COMMITTED inside an open transaction (each statement sees what is committed when it
   * starts). At REPEATABLE READ or SERIALIZABLE inside an open transaction, and when the
   * attempts run out, it fails with SQLSTATE 40001 and the whole transaction rolled back, as
   * HSQLDB's snapshot isolation fails on its own conflicts (which, in auto-commit mode, also
   * run the statement again).
   */
  public static Enumerable<Long> modify(DataContext root, String table,
      TableModify.Operation operation, String[] updateColumns, Function0<Enumerable<Object[]>> input) {
    final Session session = Session.of(root.getRootSchema());
    try {
      return Linq4j.singletonEnumerable(
          modify(session, table, operation, updateColumns, input));
    } catch (SQLException e) {
      throw new IllegalStateException("writing to " + table + " failed: "
          + e.getMessage(), e);
    }
  }

  private static long modify(Session session, String table, TableModify.Operation operation,
      String[] updateColumns, Function0<Enumerable<Object[]>> input) throws SQLException {
    final TablePolicy policy = checkPolicy(session, table, operation);
    final TableTriggers triggers = TriggeredWrite.runner(session, table, policy, operation);
    final Connection connection = session.getConnection();
    final boolean autoCommit = connection.getAutoCommit();
    final boolean readCommitted =
        connection.getTransactionIsolation() == Connection.TRANSACTION_READ_COMMITTED;
    final boolean guarded = operation != TableModify.Operation.INSERT;
    for (int attempt = 1; ; attempt++) {
      final long since = guarded ? session.changeNumber() : 0;
      final Atomic atomic = new Atomic(connection, autoCommit);
      WriteGuard guard = null;
      Exception failure = null;
      try {
        guard = guarded ? session.guardWrites(table, since) : null;
        final long count = triggers == null
            ? write(session, table, operation, updateColumns, input.apply())
            : TriggeredWrite.write(session, table, operation, updateColumns, input.apply(),
                triggers, guard);
        atomic.succeeded();
        return count;
      } catch (SQLException | RuntimeException e) {
        failure = e;
      } finally {
        if (guard != null) {
          guard.close();
        }
        atomic.close(failure != null && transactionGone(guard, failure));
      }
      final boolean ours = guard != null && guard.conflicted();
      if (!ours && !transactionGone(guard, failure)) {
        if (failure instanceof SQLException) {
          throw (SQLException) failure;
        }
        throw (RuntimeException) failure;
      }
      // HSQLDB's own conflicts roll back the whole transaction: only an auto-committed
      // statement, which is all of its transaction, may run again after one
      if (attempt == ATTEMPTS || !(autoCommit || ours && readCommitted)) {
        if (!autoCommit) {
          connection.rollback();
        }
        throw new SQLException("writing to " + table + " conflicted with another transaction"
            + (attempt > 1 ? " " + attempt + " times" : "") + "; "
            + (autoCommit ? "the statement" : "the transaction") + " was rolled back: "
            + failure.getMessage(), WriteGuard.SERIALIZATION_FAILURE, failure);
      }
      backOff(attempt);
    }
  }

  /**
   * Refuses {@code operation} on {@code table} (stored name) as CozoScript refuses its writes
   * ({@link TablePolicy}): below {@code protected}, SQLSTATE
   * {@value TablePolicy#INSUFFICIENT_PRIVILEGE} with CozoDB's message. Returns the policy.
   */
  private static TablePolicy checkPolicy(Session session, String table,
      TableModify.Operation operation) throws SQLException {
    final TablePolicy policy = TablePolicy.of(session, table);
    if (!policy.allows(TablePolicy.Level.PROTECTED)) {
      throw policy.sqlRefusal(table, operation == TableModify.Operation.DELETE ? "row removal"
          : operation == TableModify.Operation.UPDATE ? "row update" : "row insertion");
    }
    return policy;
  }

  /**
   * Whether {@code failure} is HSQLDB's own serialization failure (SQLSTATE 40001, not the
   * guard's), after which HSQLDB has rolled back the whole transaction: a conflict of its
   * snapshot isolation, or a deadlock.
   */
  private static boolean transactionGone(WriteGuard guard, Exception failure) {
    return !(guard != null && guard.conflicted())
        && WriteGuard.SERIALIZATION_FAILURE.equals(sqlState(failure));
  }

  /** The SQLSTATE of the first SQLException among {@code e} and its causes, or null. */
  private static String sqlState(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException && ((SQLException) t).getSQLState() != null) {
        return ((SQLException) t).getSQLState();
      }
    }
    return null;
  }

  /**
   * Before attempt {@code attempt + 1}: nothing after the first conflict (the row's new version
   * is committed, the next attempt reads it), then a random pause of up to 2^(attempt - 1) ms,
   * at most 64 ms, so that writers of the same rows do not meet again in step, nor spin while
   * the other transaction of one of HSQLDB's own conflicts is still open.
   */
  private static void backOff(int attempt) throws SQLException {
    if (attempt < 2) {
      return;
    }
    try {
      Thread.sleep(ThreadLocalRandom.current().nextInt(1 << Math.min(attempt - 1, 6)) + 1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted before running the statement again", "HY008", e);
    }
  }

  /**
   * An INSERT whose rows are bound straight into the store
   * ({@link EnumerableStoreModify#directInsert}): its table (stored name) and, for each of the
   * table's columns, the parameter whose value it takes ({@code -1}: NULL) and the Java class
   * of that value as the plan holds it (Calcite's internal representation: {@code Long}
   * milliseconds for a TIMESTAMP, {@code Integer} days for a DATE, {@code ByteString} for a
   * binary string, ...).
   */
  public record DirectInsert(String table, int[] parameters, Class<?>[] classes) {
    /**
     * The row of the table's columns that parameter values {@code values} make, as the
     * plan would compute it, or null when a value is not of the class the plan holds (the plan
     * converts it, or fails on it: run the plan for that row instead). {@code values} are in
     * Calcite's internal representation, as the plan reads them.
     */
    public Object[] row(List<Object> values) {
      final Object[] row = new Object[parameters.length];
      for (int i = 0; i < parameters.length; i++) {
        if (parameters[i] < 0) {
          continue;
        }
        final Object value = values.get(parameters[i]);
        if (value != null && value.getClass() != classes[i]) {
          return null;
        }
        row[i] = value;
      }
      return row;
    }
  }

  /** The rows of one batch of a {@link DirectInsert}. */
  public interface BatchRows {
    /** How many rows the batch has. */
    int size();

    /**
     * Row {@code i}, the table's columns as the plan would compute them
     * ({@link DirectInsert#row}), or null when the plan must run for it ({@link #runPlan}).
     */
    Object[] row(int i) throws SQLException;

    /** Runs the planned statement for row {@code i}; returns its update count. */
    long runPlan(int i) throws SQLException;
  }

  /**
   * Inserts a batch of rows into {@code insert}'s table, each row bound straight into the
   * store (HSQLDB's own INSERT, in JDBC batches on the session) or, where {@code rows} says
   * so, written by running the plan for it; returns each row's update count. The batch is
   * all-or-nothing, as one statement ({@link #modify}): its own transaction in auto-commit
   * mode, otherwise a savepoint inside the open one. A row that fails fails the batch with a
   * {@link BatchUpdateException} naming the row's index in the batch (from 0) and carrying
   * the failure's SQLSTATE and vendor code; its update counts are one per row before it, as
   * JDBC counts a batch that stopped at its first failure, each {@code EXECUTE_FAILED}, since
   * nothing of the batch is stored. Into a table with CozoScript put triggers, every row runs
   * its plan, a statement of its own that fires them ({@link TriggeredWrite}). A batch that
   * {@link Segment}'s rule admits is appended whole to the table's segment instead, no HSQLDB
   * row made.
   */
  public static long[] insertBatch(Session session, DirectInsert insert, BatchRows rows)
      throws SQLException {
    // a table with put triggers: each row runs its plan, a statement firing them (modify)
    final boolean triggered = !checkPolicy(session, insert.table(),
        TableModify.Operation.INSERT).put().isEmpty();
    final Connection connection = session.getConnection();
    final Target target = Target.of(session, insert.table());
    if (target.columns.size() != insert.parameters().length) {
      // DDL replaced the table since the statement was planned (its plan would fail too)
      throw new SQLException("table " + insert.table() + " has " + target.columns.size()
          + " columns, the INSERT was prepared for " + insert.parameters().length
          + ": prepare it again", "42000");
    }
    final long[] counts = new long[rows.size()];
    final TableVersions versions = triggered ? null : session.versions();
    final Segment segment = versions == null ? null : versions.segment(insert.table());
    if (segment != null) {
      final Segment.Block block = segment.block(rows);
      if (block != null) {
        return append(session, versions, block);
      }
    }
    final Atomic atomic = new Atomic(connection, connection.getAutoCommit());
    Exception failure = null;
    try (Rows store = Rows.of(session, target, insert)) {
      // store holds the rows first .. i - 1 not yet sent
      int first = 0;
      long direct = 0;
      for (int i = 0; i < counts.length; i++) {
        final Object[] row;
        try {
          row = triggered ? null : rows.row(i);
        } catch (SQLException e) {
          throw failedRow(i, e);
        }
        if (row == null) {
          store.flush(first);
          first = i + 1;
          try {
            counts[i] = rows.runPlan(i);
          } catch (SQLException e) {
            throw failedRow(i, e);
          }
          continue;
        }
        store.add(row);
        counts[i] = 1;
        direct++;
        if (i + 1 - first == DIRECT_BATCH) {
          store.flush(first);
          first = i + 1;
        }
      }
      store.flush(first);
      atomic.succeeded();
      session.countDirectRows(direct);
      return counts;
    } catch (SQLException | RuntimeException e) {
      failure = e;
      throw e;
    } finally {
      atomic.close(failure != null
          && WriteGuard.SERIALIZATION_FAILURE.equals(sqlState(failure)));
    }
  }

  /**
   * Inserts the rows {@code batch} bound ({@link SegmentBatch}) as one batch, appended whole
   * to the table's segment as {@link #insertBatch(Session, DirectInsert, BatchRows)} appends
   * the same rows; returns each row's update count, or null, keeping the rows, when the table
   * no longer takes that segment (DDL changed it, a CozoScript put trigger was added since the
   * batch was bound): the rows then go the plan's path.
   */
  public static long[] insertBatch(Session session, SegmentBatch batch) throws SQLException {
    final String table = batch.insert.table();
    final boolean triggered = !checkPolicy(session, table, TableModify.Operation.INSERT)
        .put().isEmpty();
    final TableVersions versions = session.versions();
    if (triggered || versions == null || versions.segment(table) != batch.segment) {
      return null;
    }
    final Segment.Block block = batch.take();
    return block == null ? new long[0] : append(session, versions, block);
  }

  /**
   * Appends {@code block}, whole, to its table's segment in the session's transaction
   * ({@link Segment}): the session's transaction is started first (a probe of the table), so
   * that its commit, which publishes the block, or rollback, which drops it, passes through
   * {@code versions}; in auto-commit mode the block is committed at once. Returns each row's
   * update count (1).
   */
  private static long[] append(Session session, TableVersions versions, Segment.Block block)
      throws SQLException {
    final Connection connection = session.getConnection();
    final boolean autoCommit = connection.getAutoCommit();
    if (autoCommit) {
      connection.setAutoCommit(false);
    }
    boolean appended = false;
    try {
      session.probe(block.segment.table.getName().name).executeQuery().close();
      versions.append((org.hsqldb.Session) ((org.hsqldb.jdbc.JDBCConnection) connection)
          .getSession(), block);
      appended = true;
      if (autoCommit) {
        connection.commit();
      }
    } finally {
      if (autoCommit) {
        try {
          if (!appended) {
            connection.rollback();
          }
        } finally {
          connection.setAutoCommit(true);
        }
      }
    }
    final long[] counts = new long[block.count];
    Arrays.fill(counts, 1);
    session.countDirectRows(block.count);
    return counts;
  }

  /** Rows a direct insert holds before it sends them to HSQLDB. */
  private static final int DIRECT_BATCH = 4096;

  /**
   * Where a batch's rows go: HSQLDB's INSERT of the target table, to which {@link #add} hands
   * rows of the table's columns (in Calcite's internal representation) and {@link #flush} sends
   * those held. A failing row fails the flush with a {@link BatchUpdateException} naming its
   * index in the batch.
   */
  private interface Rows extends AutoCloseable {
    /**
     * HSQLDB's own INSERT of {@code target}'s rows: its compiled statement run straight on the
     * store's HSQLDB session ({@link SessionRows}) when every column is of a type whose values
     * it converts itself, else HSQLDB's JDBC batches ({@link JdbcRows}).
     */
    static Rows of(Session session, Target target, DirectInsert insert) throws SQLException {
      final Rows rows = SessionRows.of(session, target, insert);
      return rows != null ? rows
          : new JdbcRows(target, session.getConnection().prepareStatement(target.insertSql()));
    }

    void add(Object[] row) throws SQLException;

    /** Sends the rows held, the batch's rows {@code first} on. */
    void flush(int first) throws SQLException;

    @Override void close() throws SQLException;
  }

  /** HSQLDB's JDBC batches of a prepared INSERT. */
  private static final class JdbcRows implements Rows {
    private final Target target;
    private final PreparedStatement ps;
    private int held;

    JdbcRows(Target target, PreparedStatement ps) {
      this.target = target;
      this.ps = ps;
    }

    @Override public void add(Object[] row) throws SQLException {
      target.bindInsert(row, 0).bind(ps);
      ps.addBatch();
      held++;
    }

    @Override public void flush(int first) throws SQLException {
      if (held == 0) {
        return;
      }
      held = 0;
      try {
        ps.executeBatch();
      } catch (BatchUpdateException e) {
        // HSQLDB stops at the first failing row: its counts are those of the rows before it
        throw failedRow(first + e.getUpdateCounts().length, e);
      }
    }

    @Override public void close() throws SQLException {
      ps.close();
    }
  }

  /**
   * HSQLDB's INSERT of {@link #ROWS} rows at once ({@code VALUES (?, ...), (?, ...), ...}),
   * compiled once and executed straight on the store's HSQLDB session, as HSQLDB's JDBC
   * batch executes each of its rows, without its JDBC layer: no copy of the parameters per
   * row, no conversion through {@code java.time} objects, and one statement (its action in
   * the transaction manager, its checks) per {@link #ROWS} rows. Each row still goes through
   * HSQLDB's statement: its types' conversions and limits, constraints, its row actions in the
   * transaction manager ({@link TableVersions} sees every row). Only for tables whose every
   * column has a type whose Calcite value is HSQLDB's own (or a TIMESTAMP, made here as HSQLDB
   * makes it); the store session's HSQLDB session is held for each statement, as its JDBC
   * connection holds it.
   */
  private static final class SessionRows implements Rows {
    /** Rows per statement: fewer actions per row, without a statement too large to compile. */
    static final int ROWS = 64;
    private final org.hsqldb.Session session;
    private final org.hsqldb.types.Type[] types;
    /** Whether each column is a TIMESTAMP (its value: milliseconds). */
    private final boolean[] timestamps;
    private final org.hsqldb.Statement many;
    private final org.hsqldb.Statement one;
    /** The rows held, column after column, row after row. */
    private final Object[] values;
    private int held;

    private SessionRows(org.hsqldb.Session session, org.hsqldb.types.Type[] types,
        boolean[] timestamps, org.hsqldb.Statement many, org.hsqldb.Statement one) {
      this.session = session;
      this.types = types;
      this.timestamps = timestamps;
      this.many = many;
      this.one = one;
      this.values = new Object[DIRECT_BATCH * types.length];
    }

    /** Rows for {@code target}, or null when one of its columns' values needs JDBC's. */
    static SessionRows of(Session store, Target target, DirectInsert insert)
        throws SQLException {
      final org.hsqldb.Session session = (org.hsqldb.Session)
          ((org.hsqldb.jdbc.JDBCConnection) store.getConnection()).getSession();
      final org.hsqldb.types.Type[] types = session.database.schemaManager
          .getUserTable(target.table, Session.SCHEMA).getColumnTypes();
      final boolean[] timestamps = new boolean[types.length];
      for (int i = 0; i < types.length; i++) {
        final Class<?> own = switch (types[i].typeCode) {
        case org.hsqldb.types.Types.SQL_INTEGER -> Integer.class;
        case org.hsqldb.types.Types.SQL_BIGINT -> Long.class;
        case org.hsqldb.types.Types.SQL_DOUBLE -> Double.class;
        case org.hsqldb.types.Types.SQL_BOOLEAN -> Boolean.class;
        case org.hsqldb.types.Types.SQL_CHAR, org.hsqldb.types.Types.SQL_VARCHAR -> String.class;
        case org.hsqldb.types.Types.SQL_TIMESTAMP -> Long.class;
        default -> null;
        };
        if (own == null || insert.parameters()[i] >= 0 && insert.classes()[i] != own) {
          return null;
        }
        timestamps[i] = types[i].typeCode == org.hsqldb.types.Types.SQL_TIMESTAMP;
      }
      final String sql = target.insertSql();
      final String row = sql.substring(sql.lastIndexOf(" ("));
      synchronized (session) {
        try {
          return new SessionRows(session, types, timestamps,
              session.compileStatement(sql + ("," + row).repeat(ROWS - 1)),
              session.compileStatement(sql));
        } catch (org.hsqldb.HsqlException e) {
          throw org.hsqldb.jdbc.JDBCUtil.sqlException(e);
        }
      }
    }

    @Override public void add(Object[] row) {
      final int n = types.length;
      for (int i = 0; i < n; i++) {
        values[held * n + i] = timestamps[i] && row[i] != null
            ? timestampValue(session, types[i], (Long) row[i]) : row[i];
      }
      held++;
    }

    /**
     * Sends the rows held, {@link #ROWS} a statement, the rest one a statement. When a
     * statement of {@link #ROWS} rows fails (HSQLDB has undone it), its rows run one at a time,
     * to name the one at fault.
     */
    @Override public void flush(int first) throws SQLException {
      final int n = types.length;
      int r = 0;
      for (; r + ROWS <= held; r += ROWS) {
        if (execute(many, Arrays.copyOfRange(values, r * n, (r + ROWS) * n)) != null) {
          break;
        }
      }
      for (; r < held; r++) {
        final SQLException failed = execute(one, Arrays.copyOfRange(values, r * n, r * n + n));
        if (failed != null) {
          throw failedRow(first + r, failed);
        }
      }
      held = 0;
    }

    /** Runs {@code statement} with {@code arguments}; returns its failure, or null. */
    private SQLException execute(org.hsqldb.Statement statement, Object[] arguments) {
      final org.hsqldb.result.Result result;
      synchronized (session) {
        result = session.executeCompiledStatement(statement, arguments, 0);
      }
      return result.isError() ? org.hsqldb.jdbc.JDBCUtil.sqlException(result) : null;
    }

    @Override public void close() {
    }
  }

  /** The first millisecond of the Gregorian calendar (see {@link Target#set}). */
  static final long GREGORIAN_MILLIS = Target.GREGORIAN_REFORM.toEpochDay() * 86_400_000L;

  /**
   * A TIMESTAMP's value of {@code type} from its milliseconds as HSQLDB's JDBC makes it of the
   * {@code LocalDateTime} {@link Target#set} binds, or, before the Gregorian reform, of the
   * text it binds.
   */
  static Object timestampValue(org.hsqldb.Session session, org.hsqldb.types.Type type,
      long millis) {
    final long seconds = Math.floorDiv(millis, 1000);
    final int nanos = Math.floorMod(millis, 1000) * 1_000_000;
    if (millis >= GREGORIAN_MILLIS) {
      return new org.hsqldb.types.TimestampData(seconds, nanos);
    }
    return type.convertToType(session, Target.TIMESTAMP_TEXT.format(
        LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC)),
        org.hsqldb.types.Type.SQL_VARCHAR_DEFAULT);
  }

  /** The failure of a batch at its row {@code index}, caused by {@code e}. */
  static BatchUpdateException failedRow(int index, SQLException e) {
    // JDBC's counts of a batch that stopped at its first failure: one per row before it
    final long[] counts = new long[index];
    Arrays.fill(counts, Statement.EXECUTE_FAILED);
    return new BatchUpdateException("batch row " + index
        + " (counting from 0) failed, nothing of the batch was stored: " + e.getMessage(),
        e.getSQLState(), e.getErrorCode(), counts, e);
  }

  /**
   * The condition that a row of {@code table} has the key the parameters give: its primary
   * key's columns, or every column in table order (nulls matching nulls), as SQL's UPDATE and
   * DELETE find a row.
   */
  public static String keyCondition(Session session, String table) {
    return Target.of(session, table).keyCondition();
  }

  static long write(Session session, String table, TableModify.Operation operation,
      String[] updateColumns, Enumerable<Object[]> rows) throws SQLException {
    final Target target = Target.of(session, table);
    return switch (operation) {
    case INSERT -> run(session, target.insertSql(), rows, row -> target.bindInsert(row, 0));
    case DELETE -> run(session, target.deleteSql(), rows, row -> target.bindKey(row, 0, 1));
    case UPDATE -> run(session, target.updateSql(updateColumns), rows,
        row -> target.bindUpdate(row, 0, updateColumns));
    case MERGE -> merge(session, target, updateColumns, rows);
    };
  }

  /**
   * MERGE: each input row is {@code (matched, table's columns, new values of the updated
   * columns, row to insert)}; a matched row updates the target row (found as UPDATE finds
   * it), an unmatched one inserts its last part. Every row is read before the first write, so
   * both branches see the table as it was before the statement. A target row matched by two
   * source rows fails the statement (SQL's cardinality violation, 21000), as in HSQLDB's own
   * MERGE.
   */
  private static long merge(Session session, Target target, String[] updateColumns,
      Enumerable<Object[]> rows) throws SQLException {
    final List<Object[]> matched = new ArrayList<>();
    final List<Object[]> unmatched = new ArrayList<>();
    final java.util.Set<List<Object>> updated = new java.util.HashSet<>();
    for (Object[] row : rows) {
      if (!(Boolean) row[0]) {
        unmatched.add(row);
      } else if (updateColumns.length > 0) {
        if (!updated.add(target.key(row, 1))) {
          throw new SQLException("MERGE into " + target.table + " matched its row "
              + target.key(row, 1) + " with more than one source row", "21000");
        }
        matched.add(row);
      }
    }
    final int inserted = 1 + target.columns.size() + updateColumns.length;
    long count = 0;
    if (!matched.isEmpty()) {
      count += run(session, target.updateSql(updateColumns), Linq4j.asEnumerable(matched),
          row -> target.bindUpdate(row, 1, updateColumns));
    }
    if (!unmatched.isEmpty()) {
      count += run(session, target.insertSql(), Linq4j.asEnumerable(unmatched),
          row -> target.bindInsert(row, inserted));
    }
    return count;
  }

  private static long run(Session session, String sql, Enumerable<Object[]> rows,
      java.util.function.Function<Object[], Binder> binder) throws SQLException {
    long count = 0;
    int pending = 0;
    try (PreparedStatement ps = session.getConnection().prepareStatement(sql);
         Enumerator<Object[]> e = rows.enumerator()) {
      while (e.moveNext()) {
        binder.apply(e.current()).bind(ps);
        ps.addBatch();
        if (++pending == BATCH) {
          count += sum(ps.executeBatch());
          pending = 0;
        }
      }
      if (pending > 0) {
        count += sum(ps.executeBatch());
      }
    }
    return count;
  }

  private static long sum(int[] counts) {
    long total = 0;
    for (int c : counts) {
      total += Math.max(c, 0);
    }
    return total;
  }

  /**
   * Makes one statement's writes all-or-nothing: in auto-commit mode its own
   * transaction, otherwise a savepoint inside the open one.
   */
  private static final class Atomic {
    private final Connection connection;
    private final boolean autoCommit;
    private final Savepoint savepoint;
    private boolean succeeded;

    Atomic(Connection connection, boolean autoCommit) throws SQLException {
      this.connection = connection;
      this.autoCommit = autoCommit;
      if (autoCommit) {
        connection.setAutoCommit(false);
        savepoint = null;
      } else {
        savepoint = connection.setSavepoint();
      }
    }

    void succeeded() {
      succeeded = true;
    }

    /**
     * Commits or rolls back the statement's writes; {@code transactionGone} when HSQLDB has
     * rolled back the whole transaction, savepoint included.
     */
    void close(boolean transactionGone) throws SQLException {
      if (autoCommit) {
        try {
          if (succeeded) {
            connection.commit();
          } else {
            connection.rollback();
          }
        } finally {
          connection.setAutoCommit(true);
        }
      } else if (succeeded) {
        connection.releaseSavepoint(savepoint);
      } else if (!transactionGone) {
        connection.rollback(savepoint);
      }
    }
  }

  /** Sets the parameters of one statement execution. */
  @FunctionalInterface
  interface Binder {
    void bind(PreparedStatement ps) throws SQLException;
  }

  /**
   * A store table's columns (name, JDBC type, declared type) and the columns that identify a
   * row, as HSQLDB's own table holds them (no metadata query per statement).
   */
  static final class Target {
    final String table;
    final List<String> columns;
    final List<Integer> types;
    /** Each column's type as HSQLDB declares it ({@code DECIMAL(12,3)}, {@code TIMESTAMP(3)}). */
    final List<String> definitions;
    /** Indexes into {@link #columns} of the primary key, or of every column. */
    final int[] key;
    final boolean hasPrimaryKey;

    private Target(String table, List<String> columns, List<Integer> types,
        List<String> definitions, int[] key, boolean hasPrimaryKey) {
      this.table = table;
      this.columns = columns;
      this.types = types;
      this.definitions = definitions;
      this.key = key;
      this.hasPrimaryKey = hasPrimaryKey;
    }

    static Target of(Session session, String table) {
      final org.hsqldb.Table t = ((org.hsqldb.Session)
          ((org.hsqldb.jdbc.JDBCConnection) session.getConnection()).getSession())
          .database.schemaManager.getUserTable(table, Session.SCHEMA);
      final List<String> columns = new ArrayList<>();
      final List<Integer> types = new ArrayList<>();
      final List<String> definitions = new ArrayList<>();
      for (int i = 0; i < t.getColumnCount(); i++) {
        final org.hsqldb.types.Type type = t.getColumnTypes()[i];
        columns.add(t.getColumn(i).getName().name);
        types.add(type.getJDBCTypeCode());
        definitions.add(type.getTypeDefinition());
      }
      final int[] key = t.hasPrimaryKey() ? t.getPrimaryKey()
          : java.util.stream.IntStream.range(0, columns.size()).toArray();
      return new Target(table, columns, types, definitions, key, t.hasPrimaryKey());
    }

    String insertSql() {
      return "INSERT INTO " + quote(table) + " ("
          + columns.stream().map(Target::quote).collect(Collectors.joining(", "))
          + ") VALUES (" + String.join(", ", java.util.Collections.nCopies(columns.size(), "?"))
          + ")";
    }

    String deleteSql() {
      return "DELETE FROM " + quote(table) + " WHERE " + keyCondition();
    }

    String updateSql(String[] updateColumns) {
      return "UPDATE " + quote(table) + " SET "
          + Arrays.stream(updateColumns).map(c -> quote(c) + " = ?")
              .collect(Collectors.joining(", "))
          + " WHERE " + keyCondition();
    }

    /**
     * The row's key equal to the parameters; without a primary key, every column not distinct
     * from its parameter, cast to the column's type (HSQLDB types no parameter of IS NOT
     * DISTINCT FROM).
     */
    String keyCondition() {
      return Arrays.stream(key)
          .mapToObj(i -> quote(columns.get(i)) + (hasPrimaryKey ? " = ?"
              : " IS NOT DISTINCT FROM CAST(? AS " + definitions.get(i) + ")"))
          .collect(Collectors.joining(" AND "));
    }

    Binder bindInsert(Object[] row, int offset) {
      return ps -> {
        for (int i = 0; i < columns.size(); i++) {
          set(ps, i + 1, row[offset + i], i);
        }
      };
    }

    /** The values that identify the row of the table's columns at {@code offset}. */
    List<Object> key(Object[] row, int offset) {
      return Arrays.stream(key).mapToObj(i -> row[offset + i]).toList();
    }

    Binder bindKey(Object[] row, int offset, int firstParameter) {
      return ps -> {
        for (int j = 0; j < key.length; j++) {
          set(ps, firstParameter + j, row[offset + key[j]], key[j]);
        }
      };
    }

    /** Binds an UPDATE: the new values follow the table's columns at {@code offset}. */
    Binder bindUpdate(Object[] row, int offset, String[] updateColumns) {
      return ps -> {
        final int n = columns.size();
        for (int j = 0; j < updateColumns.length; j++) {
          set(ps, j + 1, row[offset + n + j], columns.indexOf(updateColumns[j]));
        }
        bindKey(row, offset, updateColumns.length + 1).bind(ps);
      };
    }

    /**
     * Binds a value from Calcite's internal representation as the store's column type. A DATE
     * or TIMESTAMP before the Gregorian reform goes as text: Calcite counts the days of its
     * calendar fields in the proleptic Gregorian calendar, HSQLDB keeps such a value as the
     * Julian calendar's day of the same fields (as its own literals and text do), and takes a
     * {@code LocalDate} as the proleptic day, which HSQLDB would then show (and mnestic read)
     * ten days earlier.
     */
    private void set(PreparedStatement ps, int parameter, Object value, int column)
        throws SQLException {
      if (value == null) {
        ps.setNull(parameter, types.get(column));
        return;
      }
      switch (types.get(column)) {
      case Types.DATE:
        final LocalDate date = LocalDate.ofEpochDay(((Number) value).longValue());
        if (date.isBefore(GREGORIAN_REFORM)) {
          ps.setString(parameter, date.toString());
        } else {
          ps.setObject(parameter, date);
        }
        return;
      case Types.TIME:
        ps.setObject(parameter,
            LocalTime.ofNanoOfDay(((Number) value).longValue() * 1_000_000L));
        return;
      case Types.TIMESTAMP:
        final long millis = ((Number) value).longValue();
        final LocalDateTime timestamp = LocalDateTime.ofEpochSecond(
            Math.floorDiv(millis, 1000), Math.floorMod(millis, 1000) * 1_000_000,
            ZoneOffset.UTC);
        if (timestamp.toLocalDate().isBefore(GREGORIAN_REFORM)) {
          ps.setString(parameter, TIMESTAMP_TEXT.format(timestamp));
        } else {
          ps.setObject(parameter, timestamp);
        }
        return;
      case Types.BINARY:
      case Types.VARBINARY:
      case Types.LONGVARBINARY:
        ps.setBytes(parameter, ((ByteString) value).getBytes());
        return;
      case Types.ARRAY:
        // "VARCHAR(20) ARRAY" holds VARCHAR elements
        final String element =
            definitions.get(column).split("[ (]", 2)[0].toUpperCase(Locale.ROOT);
        ps.setArray(parameter, ps.getConnection()
            .createArrayOf(element, ((List<?>) value).toArray()));
        return;
      default:
        ps.setObject(parameter, value);
      }
    }

    /** The first day of the Gregorian calendar. */
    private static final LocalDate GREGORIAN_REFORM = LocalDate.of(1582, 10, 15);
    private static final java.time.format.DateTimeFormatter TIMESTAMP_TEXT =
        java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS", Locale.ROOT);

    static String quote(String identifier) {
      return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
  }
}
