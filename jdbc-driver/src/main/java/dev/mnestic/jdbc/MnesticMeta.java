package dev.mnestic.jdbc;

import dev.mnestic.datalog.DatalogException;
import dev.mnestic.datalog.Engine;
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
import java.sql.SQLTimeoutException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
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
    try {
      if (Driver.DATALOG.equalsIgnoreCase(
          ((CalciteConnection) connection).getProperties().getProperty(Driver.LANG))) {
        return executeDatalog(h, sql, callback);
      }
      return super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback);
    } catch (NoSuchStatementException e) {
      throw e;
    } catch (Throwable e) {
      throw SqlFailures.raise(e);
    }
  }

  @Override public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    try {
      return super.prepare(ch, sql, maxRowCount);
    } catch (Throwable e) {
      throw SqlFailures.raise(e);
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
    try {
      if (preparedSignature(h) instanceof DatalogSignature prepared) {
        return executeDatalog(h, prepared, parameterValues);
      }
      return super.execute(h, parameterValues, maxRowsInFirstFrame);
    } catch (NoSuchStatementException e) {
      throw e;
    } catch (Throwable e) {
      throw SqlFailures.raiseForPrepared(e);
    }
  }

  /**
   * Rows whose computation fails (a bad cast, a division by zero) fail
   * {@code ResultSet.next()} with an SQLException, as JDBC says, not with
   * whatever the generated code threw. A statement with a query timeout
   * is cancelled when it runs out (Calcite's recursive queries stop at the
   * statement's cancel flag, as does a standing query's sketch pass), and
   * reading its rows then fails with SQLState HYT00 instead of returning what
   * was computed so far.
   */
  @Override public Iterable<Object> createIterable(StatementHandle handle,
      QueryState state, Signature signature, List<TypedValue> parameterValues,
      Frame firstFrame) {
    final Deadline deadline = Deadline.start((AvaticaConnection) connection, handle);
    final Iterable<Object> rows;
    try {
      rows = super.createIterable(handle, state, signature, parameterValues, firstFrame);
    } catch (Throwable e) {
      forgetIfBroken(signature, e);
      // What runs here (a standing query's pass) stops at the cancel flag: after the timeout,
      // its error is the timeout's.
      deadline.stop();
      deadline.check();
      // Also a PreparedStatement's: raised so that Avatica keeps the SQLSTATE.
      throw SqlFailures.raiseForPrepared(e);
    }
    return () -> {
      final Iterator<Object> i;
      try {
        i = rows.iterator();
      } catch (Throwable e) {
        forgetIfBroken(signature, e);
        throw SqlFailures.raise(e);
      }
      return new Iterator<Object>() {
        @Override public boolean hasNext() {
          try {
            final boolean more = i.hasNext();
            deadline.check();
            if (!more) {
              deadline.stop();
            }
            return more;
          } catch (Throwable e) {
            forgetIfBroken(signature, e);
            deadline.stop();
            throw SqlFailures.raise(e);
          }
        }

        @Override public Object next() {
          try {
            final Object row = i.next();
            deadline.check();
            return row;
          } catch (Throwable e) {
            forgetIfBroken(signature, e);
            deadline.stop();
            throw SqlFailures.raise(e);
          }
        }
      };
    };
  }

  /**
   * A statement's query timeout: sets its cancel flag when it passes. Starting one clears the
   * flag an earlier execution's cancel left set.
   */
  private static final class Deadline {
    private static final ScheduledExecutorService TIMER =
        Executors.newSingleThreadScheduledExecutor(r -> {
          final Thread t = new Thread(r, "mnestic-query-timeout");
          t.setDaemon(true);
          return t;
        });
    private static final Deadline NONE = new Deadline(null, 0);

    private final ScheduledFuture<?> timer;
    private final int seconds;
    private final AtomicBoolean expired = new AtomicBoolean();

    private Deadline(ScheduledFuture<?> timer, int seconds) {
      this.timer = timer;
      this.seconds = seconds;
    }

    static Deadline start(AvaticaConnection connection, StatementHandle handle) {
      final AvaticaStatement statement = connection.statementMap.get(handle.id);
      final int seconds;
      final AtomicBoolean cancelFlag;
      try {
        seconds = statement == null ? 0 : statement.getQueryTimeout();
        cancelFlag = connection.getCancelFlag(handle);
      } catch (SQLException | NoSuchStatementException e) {
        return NONE;
      }
      // A cancel stops the execution it lands in, not the statement's next one.
      cancelFlag.set(false);
      if (seconds <= 0) {
        return NONE;
      }
      final Deadline[] self = new Deadline[1];
      final ScheduledFuture<?> timer = TIMER.schedule(() -> {
        self[0].expired.set(true);
        cancelFlag.set(true);
      }, seconds, TimeUnit.SECONDS);
      self[0] = new Deadline(timer, seconds);
      return self[0];
    }

    void check() {
      if (expired.get()) {
        throw SqlFailures.<RuntimeException>sneaky(new SQLTimeoutException(
            "query timed out after " + seconds + " s and was cancelled", "HYT00"));
      }
    }

    void stop() {
      if (timer != null) {
        timer.cancel(false);
      }
    }
  }

  /**
   * Runs a CozoScript script ({@code lang=datalog}) with its parameters, stopped by the
   * statement's query timeout and by its cancel; its result set is the entry rule's rows.
   */
  private DatalogSignature runDatalog(StatementHandle h, String script, Map<String, Object> params) {
    final AvaticaConnection avatica = (AvaticaConnection) connection;
    final AvaticaStatement statement = avatica.statementMap.get(h.id);
    long deadline = 0;
    AtomicBoolean cancelFlag = null;
    try {
      if (statement != null) {
        cancelFlag = avatica.getCancelFlag(h);
        cancelFlag.set(false);
        if (statement.getQueryTimeout() > 0) {
          deadline = System.nanoTime() + statement.getQueryTimeout() * 1_000_000_000L;
        }
      }
      Engine engine = new Engine(connection).stoppedBy(deadline, cancelFlag);
      if (Driver.STDERR.equalsIgnoreCase(
          ((CalciteConnection) connection).getProperties().getProperty(Driver.PROGRESS))) {
        engine = engine.showingProgressOn(System.err);
      }
      return DatalogSignature.of(script, engine.run(script, params));
    } catch (DatalogException e) {
      throw new IllegalStateException(e.render(script), e);
    } catch (SQLException | NoSuchStatementException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private ExecuteResult executeDatalog(StatementHandle h, String script,
      PrepareCallback callback) {
    final DatalogSignature signature = runDatalog(h, script, Map.of());
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
      List<TypedValue> parameterValues) {
    final Map<String, Object> params = new HashMap<>();
    for (int i = 0; i < prepared.parameters.size(); i++) {
      final TypedValue value = i < parameterValues.size() ? parameterValues.get(i) : null;
      if (value == null) {
        throw SqlFailures.<RuntimeException>sneaky(new SQLException("parameter " + (i + 1)
            + " ($" + prepared.parameters.get(i).name + ") is not set", "07002"));
      }
      params.put(prepared.parameters.get(i).name, Values.of(value.toLocal()));
    }
    final DatalogSignature signature = runDatalog(h, prepared.script, params);
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
