package dev.mnestic.jdbc;

import dev.mnestic.datalog.DatalogException;
import dev.mnestic.datalog.Engine;
import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;
import dev.mnestic.value.Values;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteMetaSubclassing;
import org.apache.calcite.schema.lookup.LikePattern;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Calcite's metadata and connection handling, with transactions, primary
 * keys and type information taken from the store.
 */
final class MnesticMeta extends CalciteMetaSubclassing {
  private static final List<String> PRIMARY_KEY_COLUMNS = List.of(
      "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
  private static final List<Class<?>> PRIMARY_KEY_TYPES = List.of(
      String.class, String.class, String.class, String.class, Short.class, String.class);
  private static final List<Class<?>> TYPE_INFO_TYPES = List.of(
      String.class, Integer.class, Integer.class, String.class, String.class,
      String.class, Short.class, Boolean.class, Short.class, Boolean.class,
      Boolean.class, Boolean.class, String.class, Short.class, Short.class,
      Integer.class, Integer.class, Integer.class);

  private MnesticMeta(AvaticaConnection connection) {
    super(connection);
    connProps.setAutoCommit(true)
        .setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    connProps.setDirty(false);
  }

  static MnesticMeta create(AvaticaConnection connection) {
    return new MnesticMeta(connection);
  }

  private Session session() {
    return Session.of(((CalciteConnection) connection).getRootSchema());
  }

  @Override public ConnectionProperties connectionSync(ConnectionHandle ch,
      ConnectionProperties props) {
    try {
      final Session session = session();
      if (props.isAutoCommit() != null) {
        session.setAutoCommit(props.isAutoCommit());
      }
      if (props.getTransactionIsolation() != null) {
        session.setTransactionIsolation(props.getTransactionIsolation());
      }
      return super.connectionSync(ch, props);
    } catch (Throwable e) {
      throw SqlFailures.raise(e);
    }
  }

  @Override public void commit(ConnectionHandle ch) {
    try {
      session().commit();
    } catch (Throwable e) {
      throw SqlFailures.raise(e);
    }
  }

  @Override public void rollback(ConnectionHandle ch) {
    try {
      session().rollback();
    } catch (Throwable e) {
      throw SqlFailures.raise(e);
    }
  }

  @Override public ExecuteResult prepareAndExecute(StatementHandle h, String sql,
      long maxRowCount, int maxRowsInFirstFrame, PrepareCallback callback)
      throws NoSuchStatementException {
    final RunningStatement running = start(h);
    running.enter();
    try {
      if (Driver.DATALOG.equalsIgnoreCase(
          ((CalciteConnection) connection).getProperties().getProperty(Driver.LANG))) {
        return executeDatalog(h, sql, callback, running);
      }
      return super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback);
    } catch (NoSuchStatementException e) {
      throw e;
    } catch (Throwable e) {
      throw failed(running, e);
    } finally {
      running.exit();
      unclaimed(h, running);
    }
  }

  @Override public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h,
      List<String> sqlCommands) throws NoSuchStatementException {
    try {
      return super.prepareAndExecuteBatch(h, sqlCommands);
    } catch (NoSuchStatementException e) {
      throw e;
    } catch (Throwable e) {
      throw SqlFailures.raise(e);
    }
  }

  @Override public ExecuteBatchResult executeBatch(StatementHandle h,
      List<List<TypedValue>> parameterValues) throws NoSuchStatementException {
    try {
      return super.executeBatch(h, parameterValues);
    } catch (NoSuchStatementException e) {
      throw e;
    } catch (Throwable e) {
      throw SqlFailures.raise(e);
    }
  }

  @Override public ExecuteResult execute(StatementHandle h,
      List<TypedValue> parameterValues, int maxRowsInFirstFrame)
      throws NoSuchStatementException {
    final RunningStatement running = start(h);
    running.enter();
    try {
      if (preparedSignature(h) instanceof DatalogSignature prepared) {
        return executeDatalog(h, prepared, parameterValues, running);
      }
      return super.execute(h, parameterValues, maxRowsInFirstFrame);
    } catch (NoSuchStatementException e) {
      throw e;
    } catch (Throwable e) {
      throw failed(running, e);
    } finally {
      running.exit();
      unclaimed(h, running);
    }
  }

  /**
   * Preparing a statement (planning and code generation) is stopped by the connection's
   * {@value Driver#STATEMENT_TIMEOUT} (its {@code setQueryTimeout} comes after) and
   * {@value Driver#STATEMENT_MEMORY}.
   */
  @Override public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    final Limits limits = limits();
    try (RunningStatement running =
        RunningStatement.start(new AtomicBoolean(), limits.seconds, limits.bytes).enter()) {
      try {
        return super.prepare(ch, sql, maxRowCount);
      } catch (Throwable e) {
        throw failed(running, e);
      } finally {
        running.exit();
      }
    }
  }

  /**
   * Rows whose computation fails (a bad cast, a division by zero) fail
   * {@code ResultSet.next()} with an SQLException, as JDBC says, not with
   * whatever the generated code threw. The statement started by its execution stops
   * reading rows when it is stopped ({@link RunningStatement}: its timeout, its cancel, its
   * memory), and reading them then fails with the stop's SQLSTATE instead of returning what
   * was computed so far; it ends with its last row.
   */
  @Override public Iterable<Object> createIterable(StatementHandle handle,
      QueryState state, Signature signature, List<TypedValue> parameterValues,
      Frame firstFrame) {
    final RunningStatement claimed = running.remove(handle.id);
    final RunningStatement stmt = claimed != null ? claimed : start(handle);
    final Iterable<Object> rows;
    try {
      rows = super.createIterable(handle, state, signature, parameterValues, firstFrame);
    } catch (Throwable e) {
      forgetIfBroken(signature, e);
      throw SqlFailures.<RuntimeException>sneaky(sqlException(stmt, e));
    }
    return () -> {
      final Iterator<Object> i;
      try {
        i = rows.iterator();
      } catch (Throwable e) {
        forgetIfBroken(signature, e);
        throw failed(stmt, e);
      }
      return new Iterator<Object>() {
        @Override public boolean hasNext() {
          try {
            final boolean more = i.hasNext();
            stmt.check();
            if (!more) {
              stmt.close();
            }
            return more;
          } catch (Throwable e) {
            forgetIfBroken(signature, e);
            throw SqlFailures.<RuntimeException>sneaky(sqlException(stmt, e));
          }
        }

        @Override public Object next() {
          try {
            final Object row = i.next();
            stmt.check();
            return row;
          } catch (Throwable e) {
            forgetIfBroken(signature, e);
            throw SqlFailures.<RuntimeException>sneaky(sqlException(stmt, e));
          }
        }
      };
    };
  }

  /** The statements started by an execution whose rows are not being read yet, by handle id. */
  private final Map<Integer, RunningStatement> running = new ConcurrentHashMap<>();

  /** Each statement's latest execution, until the statement closes (a result set left unread). */
  private final Map<Integer, RunningStatement> latest = new ConcurrentHashMap<>();

  @Override public void closeStatement(StatementHandle h) {
    final RunningStatement s = latest.remove(h.id);
    if (s != null) {
      s.close();
    }
    running.remove(h.id);
    super.closeStatement(h);
  }

  /**
   * Starts an execution of the statement {@code h}: its cancel flag cleared, stopped after its
   * timeout (the smaller of its query timeout and the connection's
   * {@value Driver#STATEMENT_TIMEOUT}) or past the connection's {@value Driver#STATEMENT_MEMORY}.
   */
  private RunningStatement start(StatementHandle h) {
    final AvaticaConnection avatica = (AvaticaConnection) connection;
    final AvaticaStatement statement = avatica.statementMap.get(h.id);
    final Limits limits = limits();
    AtomicBoolean flag;
    int seconds = limits.seconds;
    try {
      flag = avatica.getCancelFlag(h);
      final int own = statement == null ? 0 : statement.getQueryTimeout();
      if (own > 0 && (seconds == 0 || own < seconds)) {
        seconds = own;
      }
    } catch (SQLException | NoSuchStatementException e) {
      flag = new AtomicBoolean();
    }
    final RunningStatement s = RunningStatement.start(flag, seconds, limits.bytes);
    running.put(h.id, s);
    final RunningStatement before = latest.put(h.id, s);
    if (before != null) {
      before.close();
    }
    return s;
  }

  /** Ends an execution that left no rows to read (DDL, an error): nothing claimed it. */
  private void unclaimed(StatementHandle h, RunningStatement s) {
    if (running.remove(h.id, s)) {
      s.close();
    }
  }

  /** A connection's limits on each statement: seconds and bytes, 0 for none. */
  private record Limits(int seconds, long bytes) {
  }

  private Limits limits;

  private Limits limits() {
    if (limits == null) {
      limits = limits(((CalciteConnection) connection).getProperties());
    }
    return limits;
  }

  /**
   * The connection properties {@value Driver#STATEMENT_TIMEOUT} and
   * {@value Driver#STATEMENT_MEMORY}.
   *
   * @throws IllegalArgumentException naming the property and its bad value
   */
  static Limits limits(java.util.Properties properties) {
    return new Limits((int) nonNegative(properties, Driver.STATEMENT_TIMEOUT, Integer.MAX_VALUE),
        nonNegative(properties, Driver.STATEMENT_MEMORY, Long.MAX_VALUE));
  }

  private static long nonNegative(java.util.Properties properties, String key, long max) {
    final String value = properties.getProperty(key);
    if (value == null || value.isBlank()) {
      return 0;
    }
    try {
      final long n = Long.parseLong(value.trim());
      if (n >= 0 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // the message below says what is expected
    }
    throw new IllegalArgumentException(key + " must be a whole number from 0 (no limit) to "
        + max + ", not '" + value + "'");
  }

  /**
   * What a statement's failure becomes: the stop's SQLException (timeout, cancel, memory) when
   * it was stopped, 53200 when it ran out of heap; else {@link SqlFailures#of}. The statement ends.
   */
  private static RuntimeException failed(RunningStatement s, Throwable e) {
    throw SqlFailures.<RuntimeException>sneaky(sqlException(s, e));
  }

  /** {@link #failed}'s SQLException, for a caller that throws it itself. */
  private static SQLException sqlException(RunningStatement s, Throwable e) {
    s.close();
    if (e instanceof SQLException made && made.getSQLState() != null) {
      return made; // already what the caller gets (a script's eval::killed, with its state)
    }
    final SQLException stopped = s.error(e);
    if (stopped != null) {
      return stopped;
    }
    if (e instanceof OutOfMemoryError oom) {
      return RunningStatement.outOfMemory(oom);
    }
    return SqlFailures.of(e);
  }

  /**
   * Runs a CozoScript script ({@code lang=datalog}) with its parameters, stopped as any
   * statement is ({@link RunningStatement}); its result set is the entry rule's rows.
   */
  private DatalogSignature runDatalog(String script, Map<String, Object> params,
      RunningStatement running) {
    try {
      Engine engine = new Engine(connection).stoppedBy(0, running.flag());
      if (Driver.STDERR.equalsIgnoreCase(
          ((CalciteConnection) connection).getProperties().getProperty(Driver.PROGRESS))) {
        engine = engine.showingProgressOn(System.err);
      }
      return DatalogSignature.of(script, engine.run(script, params));
    } catch (DatalogException e) {
      final SQLException stopped = running.error(e);
      if (stopped != null) {
        // The script's own error (eval::killed, where it was) with the stop's SQLSTATE.
        throw SqlFailures.<RuntimeException>sneaky(new SQLException(e.render(script) + " ("
            + stopped.getMessage() + ")", stopped.getSQLState(), e));
      }
      throw new IllegalStateException(e.render(script), e);
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private ExecuteResult executeDatalog(StatementHandle h, String script,
      PrepareCallback callback, RunningStatement running) {
    final DatalogSignature signature = runDatalog(script, Map.of(), running);
    try {
      synchronized (callback.getMonitor()) {
        callback.clear();
        callback.assign(signature, null, -1);
      }
      callback.execute();
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
    return new ExecuteResult(
        List.of(MetaResultSet.create(h.connectionId, h.id, false, signature, null)));
  }

  /** A prepared script run with the values bound to its {@code $name} parameters. */
  private ExecuteResult executeDatalog(StatementHandle h, DatalogSignature prepared,
      List<TypedValue> parameterValues, RunningStatement running) {
    final Map<String, Object> params = new HashMap<>();
    for (int i = 0; i < prepared.parameters.size(); i++) {
      final TypedValue value = i < parameterValues.size() ? parameterValues.get(i) : null;
      if (value == null) {
        throw SqlFailures.<RuntimeException>sneaky(new SQLException("parameter " + (i + 1)
            + " ($" + prepared.parameters.get(i).name + ") is not set", "07002"));
      }
      params.put(prepared.parameters.get(i).name, Values.of(value.toLocal()));
    }
    final DatalogSignature signature = runDatalog(prepared.script, params, running);
    return new ExecuteResult(
        List.of(MetaResultSet.create(h.connectionId, h.id, false, signature, null)));
  }

  /** A signature whose generated code failed to initialize cannot run again: out of the plan cache. */
  private void forgetIfBroken(Signature signature, Throwable e) {
    if (e instanceof ExceptionInInitializerError) {
      PlanCache.forget((CalciteConnection) connection, signature);
    }
  }

  @Override public MetaResultSet getPrimaryKeys(ConnectionHandle ch,
      String catalog, String schema, String table) {
    final List<Object[]> rows = new ArrayList<>();
    if (table != null && (schema == null || schema.equalsIgnoreCase(Session.SCHEMA))) {
      final Session session = session();
      final Optional<String> stored = StoreCatalog.findTable(session, table);
      if (stored.isPresent()) {
        for (Object[] key : StoreCatalog.primaryKey(session, stored.get())) {
          rows.add(new Object[] {null, Session.SCHEMA, stored.get(), key[0], key[1], key[2]});
        }
      }
    }
    return rows(PRIMARY_KEY_COLUMNS, PRIMARY_KEY_TYPES, rows);
  }

  /**
   * Columns of the store's tables as the store declares them (VARCHAR(8) is
   * 8 long, defaults included); Calcite's own schemas as Calcite sees them.
   */
  @Override public MetaResultSet getColumns(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat tableNamePattern, Pat columnNamePattern) {
    if (schemaPattern.s != null && !LikePattern.matcher(schemaPattern.s)
        .apply(Session.SCHEMA)) {
      return super.getColumns(ch, catalog, schemaPattern, tableNamePattern, columnNamePattern);
    }
    final StoreCatalog.Rows columns = StoreCatalog.columnMetaData(session(),
        tableNamePattern.s, columnNamePattern.s);
    final List<Object[]> rows = new ArrayList<>();
    for (Object[] row : columns.rows()) {
      row[0] = null; // TABLE_CAT: the store's catalog is not Calcite's
      rows.add(row);
    }
    return rows(columns.names(), columns.types(), rows);
  }

  @Override public MetaResultSet getTypeInfo(ConnectionHandle ch) {
    return rows(TYPE_INFO_COLUMNS, TYPE_INFO_TYPES, StoreCatalog.typeInfo(session()));
  }

  private MetaResultSet rows(List<String> names, List<Class<?>> types,
      List<Object[]> rows) {
    final List<ColumnMetaData> columns = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      columns.add(columnMetaData(names.get(i), i, types.get(i), true));
    }
    final List<Object> frameRows = new ArrayList<>(rows);
    return createResultSet(Collections.emptyMap(), columns,
        Meta.CursorFactory.ARRAY, new Meta.Frame(0, true, frameRows));
  }
}
