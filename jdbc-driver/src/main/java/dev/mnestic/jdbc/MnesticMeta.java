package dev.mnestic.jdbc;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.Engine;
import dev.mnestic.remote.MnesticDatabaseMetaData;
import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.sql.StandingQueries;
import dev.mnestic.sql.fun.MnesticOperatorTable;
import dev.mnestic.store.SegmentBatch;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;
import dev.mnestic.store.StoreWrites;
import dev.mnestic.value.Values;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.DriverVersion;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteMetaSubclassing;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.lookup.LikePattern;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlTableFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlOperatorTables;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Calcite's connection handling, with transactions taken from the store, and the
 * connection's metadata: the store's tables, columns, keys, indexes and types read from the
 * store at each call (so DDL of any connection, or of HSQLDB itself, shows at once), the
 * standing queries from the store's catalog, and the SQL functions a statement may call.
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
        .setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED)
        .setReadOnly(false);
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
        session.setTransactionIsolation(provided(props.getTransactionIsolation()));
      }
      if (props.isReadOnly() != null) {
        session.setReadOnly(props.isReadOnly());
      }
      return super.connectionSync(ch, props);
    } catch (Throwable e) {
      throw SqlFailures.raise(e);
    }
  }

  /** {@code level} when the store provides it ({@link MnesticDatabaseMetaData#isProvided}). */
  private static int provided(int level) throws SQLException {
    if (!MnesticDatabaseMetaData.isProvided(level)) {
      throw MnesticDatabaseMetaData.notProvided(level);
    }
    return level;
  }

  /**
   * mnestic's own values: product and version, the default isolation its connections run
   * at; Calcite's keywords and JDBC escape functions. The server sends these to thin clients.
   */
  @Override public Map<DatabaseProperty, Object> getDatabaseProperties(ConnectionHandle ch) {
    final Map<DatabaseProperty, Object> properties =
        new EnumMap<>(DatabaseProperty.class);
    properties.putAll(super.getDatabaseProperties(ch));
    final DriverVersion version = MnesticVersion.driverVersion();
    properties.put(DatabaseProperty.GET_DATABASE_PRODUCT_NAME, version.productName);
    properties.put(DatabaseProperty.GET_DATABASE_PRODUCT_VERSION, version.productVersion);
    properties.put(DatabaseProperty.GET_DATABASE_MAJOR_VERSION, version.databaseMajorVersion);
    properties.put(DatabaseProperty.GET_DATABASE_MINOR_VERSION, version.databaseMinorVersion);
    properties.put(DatabaseProperty.GET_DRIVER_NAME, version.name);
    properties.put(DatabaseProperty.GET_DRIVER_VERSION, version.versionString);
    properties.put(DatabaseProperty.GET_DRIVER_MAJOR_VERSION, version.majorVersion);
    properties.put(DatabaseProperty.GET_DRIVER_MINOR_VERSION, version.minorVersion);
    properties.put(DatabaseProperty.GET_DEFAULT_TRANSACTION_ISOLATION,
        Connection.TRANSACTION_READ_COMMITTED);
    return properties;
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
    return run(h, running -> {
      if (Driver.DATALOG.equalsIgnoreCase(
          ((CalciteConnection) connection).getProperties().getProperty(Driver.LANG))) {
        return executeDatalog(h, sql, callback, running);
      }
      return super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback);
    });
  }

  /** An execution of a statement, given the statement it runs as. */
  private interface Execution<T> {
    T run(RunningStatement running) throws Exception;
  }

  /**
   * Runs {@code execution} as an execution of the statement {@code h} ({@link #start}), current
   * on this thread while it runs; its failure is as {@link #failed} states it (an
   * SQLException with its state and a missing statement pass as they are). The statement ends
   * here unless the execution left rows to read ({@link #createIterable} claims it).
   */
  private <T> T run(StatementHandle h, Execution<T> execution)
      throws NoSuchStatementException {
    final RunningStatement running = start(h);
    running.enter();
    try {
      return execution.run(running);
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

  /**
   * As Calcite's (an execution per row), but the batch of an INSERT of parameters that
   * {@link DirectInsertSignature} binds straight into the store goes there, in one
   * transaction, its time and cancel counted as one statement's.
   */
  @Override public ExecuteBatchResult executeBatch(StatementHandle h,
      List<List<TypedValue>> parameterValues) throws NoSuchStatementException {
    try {
      if (preparedSignature(h) instanceof DirectInsertSignature<?> insert) {
        return new ExecuteBatchResult(executeDirect(h, insert, parameterValues));
      }
      return super.executeBatch(h, parameterValues);
    } catch (NoSuchStatementException e) {
      throw e;
    } catch (Throwable e) {
      throw SqlFailures.raise(e);
    }
  }

  /**
   * Executes the rows {@code batch} bound ({@link SegmentBinder}) as one batch of the
   * statement {@code h}, as one statement (its timeout, cancel and memory limit), appended
   * to the table's segment; where the table no longer takes it, or the statement was prepared
   * again as another, the rows ({@code lists}) take the path of {@link #executeBatch}.
   */
  long[] executeBatch(StatementHandle h, SegmentBatch batch,
      Supplier<List<List<TypedValue>>> lists) throws NoSuchStatementException {
    try {
      final long[] counts = preparedSignature(h) instanceof DirectInsertSignature<?>
          ? run(h, running -> StoreWrites.insertBatch(session(), batch)) : null;
      return counts != null ? counts : executeBatch(h, lists.get()).updateCounts;
    } catch (NoSuchStatementException e) {
      throw e;
    } catch (Throwable e) {
      throw SqlFailures.raise(e);
    }
  }

  /**
   * Runs {@code batch} of a {@link DirectInsertSignature} as one statement: its timeout, cancel
   * and memory limit count for the whole batch. A row the plan must write runs as an execution
   * of its own (as Calcite's batches run each row).
   */
  private long[] executeDirect(StatementHandle h, DirectInsertSignature<?> insert,
      List<List<TypedValue>> batch) throws NoSuchStatementException {
    return run(h, running -> insert.executeBatch(session(), batch, running, row -> {
      final ExecuteResult result = execute(h, row, -1);
      return result.resultSets.size() == 1 ? result.resultSets.get(0).updateCount : -1;
    }));
  }

  @Override public ExecuteResult execute(StatementHandle h,
      List<TypedValue> parameterValues, int maxRowsInFirstFrame)
      throws NoSuchStatementException {
    return run(h, running -> {
      if (preparedSignature(h) instanceof DatalogSignature prepared) {
        return executeDatalog(h, prepared, parameterValues, running);
      }
      return super.execute(h, parameterValues, maxRowsInFirstFrame);
    });
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
      /** Closed with the result set: the rows' own iterator is closed too (a followed feed). */
      final class Rows implements Iterator<Object>, AutoCloseable {
        @Override public void close() throws Exception {
          if (i instanceof AutoCloseable closeable) {
            closeable.close();
          }
        }

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
      }
      return new Rows();
    };
  }

  /** The statements started by an execution whose rows are not being read yet, by handle id. */
  private final Map<Integer, RunningStatement> running = new ConcurrentHashMap<>();

  /** Each statement's latest execution, until the statement closes (a result set left unread). */
  private final Map<Integer, RunningStatement> latest = new ConcurrentHashMap<>();

  @Override public void closeStatement(StatementHandle h) {
    try {
      Feeds.close(connection.getCancelFlag(h));
    } catch (NoSuchStatementException e) {
      // closed before: it reads no feed
    }
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
    final AvaticaStatement statement = connection.statementMap.get(h.id);
    final Limits limits = limits();
    AtomicBoolean flag;
    int seconds = limits.seconds;
    try {
      flag = connection.getCancelFlag(h);
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
      Engine engine = HostExtensions.engine((CalciteConnection) connection)
          .stoppedBy(0, running.flag());
      if (Driver.STDERR.equalsIgnoreCase(
          ((CalciteConnection) connection).getProperties().getProperty(Driver.PROGRESS))) {
        engine = engine.showingProgressOn(System.err);
      }
      return DatalogSignature.of(script, engine.run(script, params));
    } catch (DatalogException e) {
      final SQLException stopped = running.error(e);
      if (stopped != null) {
        // The script's own error (eval::killed, where it was) with the stop's SQLSTATE.
        throw SqlFailures.<RuntimeException>sneaky(new SQLException(SqlFailures.cut(
            e.render(script) + " (" + stopped.getMessage() + ")"), stopped.getSQLState(), e));
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
      final Object local = value.toLocal();
      params.put(prepared.parameters.get(i).name,
          Values.of(local instanceof ByteString ? ((ByteString) local).getBytes() : local));
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

  /** Whether {@code name} matches the LIKE pattern {@code pattern} (null: any name). */
  private static boolean matches(Pat pattern, String name) {
    return pattern.s == null || LikePattern.matcher(pattern.s).apply(name);
  }

  /** The standing queries as the store's catalog has them now (another connection's too). */
  private Schema standing() {
    return Standing.queries().schema(((CalciteConnection) connection).getRootSchema());
  }

  /** Names of the standing queries in {@code standing} matching {@code pattern}, in order. */
  private static List<String> standingNames(Schema standing, Pat pattern) {
    final List<String> names = new ArrayList<>();
    for (String name : standing.tables().getNames(LikePattern.any())) {
      if (matches(pattern, name)) {
        names.add(name);
      }
    }
    Collections.sort(names);
    return names;
  }

  /**
   * The schemas: {@value Session#SCHEMA}, the store's tables, {@value StandingQueries#SCHEMA},
   * the standing queries (when they are on the class path), and {@value #BUILT_IN}, the SQL
   * functions (see {@link #getFunctions}).
   */
  @Override public MetaResultSet getSchemas(ConnectionHandle ch, String catalog,
      Pat schemaPattern) {
    final List<Object[]> rows = new ArrayList<>();
    final List<String> schemas = ((CalciteConnection) connection).getRootSchema()
        .subSchemas().get(StandingQueries.SCHEMA) == null ? List.of(Session.SCHEMA, BUILT_IN)
        : List.of(Session.SCHEMA, StandingQueries.SCHEMA, BUILT_IN);
    for (String schema : schemas) {
      if (matches(schemaPattern, schema)) {
        rows.add(new Object[] {schema, null});
      }
    }
    return rows(List.of("TABLE_SCHEM", "TABLE_CATALOG"), List.of(String.class, String.class),
        rows);
  }

  /** The store's tables (type TABLE) and the standing queries (type VIEW). */
  @Override public MetaResultSet getTableTypes(ConnectionHandle ch) {
    return rows(List.of("TABLE_TYPE"), List.of(String.class),
        List.of(new Object[] {TABLE}, new Object[] {VIEW}));
  }

  private static final String TABLE = "TABLE";
  private static final String VIEW = "VIEW";

  /**
   * The store's tables (type {@value #TABLE}) and the standing queries (type {@value #VIEW}), as
   * they are now (DDL of any connection included), ordered as JDBC says: by type, catalog,
   * schema and name.
   */
  @Override public MetaResultSet getTables(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat tableNamePattern, List<String> typeList) {
    final List<Object[]> rows = new ArrayList<>();
    if (matches(schemaPattern, Session.SCHEMA) && (typeList == null || typeList.contains(TABLE))) {
      for (String name : StoreCatalog.tableNames(session(), tableNamePattern.s)) {
        rows.add(new Object[] {null, Session.SCHEMA, name, TABLE, null, null, null, null, null,
            null});
      }
    }
    if (matches(schemaPattern, StandingQueries.SCHEMA)
        && (typeList == null || typeList.contains(VIEW))) {
      for (String name : standingNames(standing(), tableNamePattern)) {
        rows.add(new Object[] {null, StandingQueries.SCHEMA, name, VIEW, null, null, null, null,
            null, null});
      }
    }
    rows.sort(Comparator.comparing((Object[] r) -> (String) r[3])
        .thenComparing(r -> (String) r[1]).thenComparing(r -> (String) r[2]));
    final List<Class<?>> types = new ArrayList<>(Collections.nCopies(10, String.class));
    return rows(TABLE_COLUMNS, types, rows);
  }

  private static final List<String> TABLE_COLUMNS = List.of("TABLE_CAT", "TABLE_SCHEM",
      "TABLE_NAME", "TABLE_TYPE", "REMARKS", "TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME",
      "SELF_REFERENCING_COL_NAME", "REF_GENERATION");

  /** The store's primary key of a table, ordered by column name as JDBC says. */
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
    rows.sort(Comparator.comparing(r -> (String) r[3])); // by COLUMN_NAME, as JDBC says
    return rows(PRIMARY_KEY_COLUMNS, PRIMARY_KEY_TYPES, rows);
  }

  /**
   * The store's indexes of a table: those of its primary key and of its UNIQUE constraints, as
   * the store reports them ({@code approximate} or not: the store's are exact).
   */
  @Override public MetaResultSet getIndexInfo(ConnectionHandle ch, String catalog,
      String schema, String table, boolean unique, boolean approximate) {
    final Session session = session();
    final StoreCatalog.Rows indexes = StoreCatalog.indexInfo(session, "", unique);
    final List<Object[]> rows = new ArrayList<>();
    if (table != null && (schema == null || schema.equalsIgnoreCase(Session.SCHEMA))) {
      final Optional<String> stored = StoreCatalog.findTable(session, table);
      if (stored.isPresent()) {
        for (Object[] row : StoreCatalog.indexInfo(session, stored.get(), unique).rows()) {
          row[0] = null; // TABLE_CAT: the store's catalog is not Calcite's
          row[4] = null; // INDEX_QUALIFIER: the index's catalog, likewise
          rows.add(row);
        }
      }
    }
    return rows(indexes.names(), indexes.types(), rows);
  }

  /**
   * The foreign keys of the store's table {@code table} (the primary keys they reference), as
   * the store reports them, those made through HSQLDB's own driver included.
   */
  @Override public MetaResultSet getImportedKeys(ConnectionHandle ch, String catalog,
      String schema, String table) {
    final String stored = storedTable(schema, table);
    return store("the foreign keys of " + table, FOREIGN_KEY_COLUMNS, FOREIGN_KEY_CATALOGS,
        md -> md.getImportedKeys(null, Session.SCHEMA, stored));
  }

  /** The foreign keys referencing the store's table {@code table}, as the store reports them. */
  @Override public MetaResultSet getExportedKeys(ConnectionHandle ch, String catalog,
      String schema, String table) {
    final String stored = storedTable(schema, table);
    return store("the foreign keys referencing " + table, FOREIGN_KEY_COLUMNS,
        FOREIGN_KEY_CATALOGS, md -> md.getExportedKeys(null, Session.SCHEMA, stored));
  }

  /**
   * The foreign keys of the store's table {@code foreignTable} referencing its table
   * {@code parentTable}, as the store reports them.
   */
  @Override public MetaResultSet getCrossReference(ConnectionHandle ch, String parentCatalog,
      String parentSchema, String parentTable, String foreignCatalog, String foreignSchema,
      String foreignTable) {
    final String parent = storedTable(parentSchema, parentTable);
    final String foreign = storedTable(foreignSchema, foreignTable);
    return store("the foreign keys of " + foreignTable + " referencing " + parentTable,
        FOREIGN_KEY_COLUMNS, FOREIGN_KEY_CATALOGS, md -> md.getCrossReference(null,
            Session.SCHEMA, parent, null, Session.SCHEMA, foreign));
  }

  private static final int FOREIGN_KEY_COLUMNS = 14;
  /** PKTABLE_CAT and FKTABLE_CAT. */
  private static final List<Integer> FOREIGN_KEY_CATALOGS = List.of(0, 4);

  /** The columns that identify a row of the store's table {@code table}, as the store says. */
  @Override public MetaResultSet getBestRowIdentifier(ConnectionHandle ch, String catalog,
      String schema, String table, int scope, boolean nullable) {
    final String stored = storedTable(schema, table);
    return store("the row identifier of " + table, 8, List.of(),
        md -> md.getBestRowIdentifier(null, Session.SCHEMA, stored, scope, nullable));
  }

  /**
   * The store's name of its table {@code table} in the schema {@code schema} (null: any), or
   * "" (no table's: SQL has no empty name) when the store has none.
   */
  private String storedTable(String schema, String table) {
    return table != null && (schema == null || schema.equalsIgnoreCase(Session.SCHEMA))
        ? StoreCatalog.findTable(session(), table).orElse("") : "";
  }

  /**
   * The first {@code columns} columns of the store's own metadata call {@code call}'s rows
   * (reading {@code what}), with the columns {@code catalogs} null: the store's catalog is not
   * Calcite's.
   */
  private MetaResultSet store(String what, int columns, List<Integer> catalogs,
      StoreCatalog.MetaDataCall call) {
    final StoreCatalog.Rows rows = StoreCatalog.metaData(session(), what, columns, call);
    for (Object[] row : rows.rows()) {
      for (int i : catalogs) {
        row[i] = null;
      }
    }
    return rows(rows.names(), rows.types(), rows.rows());
  }

  /**
   * Columns of the store's tables as the store declares them (VARCHAR(8) is
   * 8 long, defaults included), then those of the standing queries, with their
   * types' plain names ({@code TIMESTAMP}, {@code DOUBLE ARRAY}).
   */
  @Override public MetaResultSet getColumns(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat tableNamePattern, Pat columnNamePattern) {
    final StoreCatalog.Rows columns = StoreCatalog.columnMetaData(session(),
        tableNamePattern.s, columnNamePattern.s);
    final List<Object[]> rows = new ArrayList<>();
    if (matches(schemaPattern, Session.SCHEMA)) {
      for (Object[] row : columns.rows()) {
        row[0] = null; // TABLE_CAT: the store's catalog is not Calcite's
        rows.add(row);
      }
    }
    if (matches(schemaPattern, StandingQueries.SCHEMA)) {
      final Schema standing = standing();
      final JavaTypeFactory typeFactory = ((CalciteConnection) connection).getTypeFactory();
      final Map<String, Object[]> types = new HashMap<>();
      for (Object[] type : StoreCatalog.typeInfo(session())) {
        types.put((String) type[0], type);
      }
      for (String name : standingNames(standing, tableNamePattern)) {
        final RelDataType rowType;
        try {
          rowType = standing.tables().get(name).getRowType(typeFactory);
        } catch (RuntimeException e) {
          continue; // its table was dropped: it has no columns until the table is back
        }
        for (RelDataTypeField field : rowType.getFieldList()) {
          if (matches(columnNamePattern, field.getName())) {
            rows.add(standingColumn(columns, name, field, typeFactory, types));
          }
        }
      }
    }
    return rows(columns.names(), columns.types(), rows);
  }

  /**
   * A {@code getColumns} row, laid out as {@code layout}'s, of a standing query's column,
   * described as the store describes a column of its type ({@code types}: the store's
   * {@code getTypeInfo} rows by name; an INTEGER is 32 bits, radix 2).
   */
  private static Object[] standingColumn(StoreCatalog.Rows layout, String table,
      RelDataTypeField field, JavaTypeFactory typeFactory, Map<String, Object[]> types) {
    final RelDataType type = field.getType();
    final SqlTypeName name = type.getSqlTypeName();
    final RelDataType component = type.getComponentType();
    Integer size = null;
    Integer digits = null;
    Integer radix = null;
    if (SqlTypeName.CHAR_TYPES.contains(name) || SqlTypeName.BINARY_TYPES.contains(name)) {
      size = type.getPrecision() > 0 ? type.getPrecision()
          : typeFactory.getTypeSystem().getMaxPrecision(name);
    } else if (SqlTypeName.NUMERIC_TYPES.contains(name) && name != SqlTypeName.DECIMAL
        && types.containsKey(name.getName())) {
      final Object[] stored = types.get(name.getName());
      size = ((Number) stored[2]).intValue(); // PRECISION
      radix = ((Number) stored[17]).intValue(); // NUM_PREC_RADIX
      if (SqlTypeName.INT_TYPES.contains(name)) {
        digits = 0;
      }
    } else if (SqlTypeName.NUMERIC_TYPES.contains(name)) {
      size = type.getPrecision();
      if (name.allowsScale()) {
        digits = type.getScale();
      } else if (SqlTypeName.INT_TYPES.contains(name)) {
        digits = 0;
      }
      radix = 10;
    } else if (name == SqlTypeName.DATE) {
      size = 10; // yyyy-mm-dd
    } else if (name == SqlTypeName.TIME || name == SqlTypeName.TIMESTAMP) {
      // hh:mm:ss or yyyy-mm-dd hh:mm:ss, then a point and the digits of the fraction
      final int fraction = Math.max(type.getPrecision(), 0);
      size = (name == SqlTypeName.TIME ? 8 : 19) + (fraction > 0 ? fraction + 1 : 0);
      digits = fraction;
    }
    final boolean nullable = type.isNullable();
    final Map<String, Object> values = new HashMap<>();
    values.put("TABLE_SCHEM", StandingQueries.SCHEMA);
    values.put("TABLE_NAME", table);
    values.put("COLUMN_NAME", field.getName());
    values.put("DATA_TYPE", name.getJdbcOrdinal());
    values.put("TYPE_NAME", component == null ? name.getSpaceName()
        : component.getSqlTypeName().getSpaceName() + " ARRAY");
    values.put("COLUMN_SIZE", size);
    values.put("DECIMAL_DIGITS", digits);
    values.put("NUM_PREC_RADIX", radix);
    values.put("NULLABLE", nullable ? DatabaseMetaData.columnNullable
        : DatabaseMetaData.columnNoNulls);
    values.put("CHAR_OCTET_LENGTH", SqlTypeName.CHAR_TYPES.contains(name) ? size : null);
    values.put("ORDINAL_POSITION", field.getIndex() + 1);
    values.put("IS_NULLABLE", nullable ? "YES" : "NO");
    values.put("IS_AUTOINCREMENT", "NO");
    values.put("IS_GENERATEDCOLUMN", "NO");
    final Object[] row = new Object[layout.names().size()];
    for (int i = 0; i < row.length; i++) {
      row[i] = as(layout.types().get(i), values.get(layout.names().get(i)));
    }
    return row;
  }

  /** {@code value} as the class the store's metadata gives its column. */
  private static Object as(Class<?> type, Object value) {
    if (value instanceof Integer n) {
      if (type == Short.class) {
        return n.shortValue();
      }
      if (type == Long.class) {
        return n.longValue();
      }
    }
    return value;
  }

  /**
   * The SQL functions a statement may call, Calcite's built-in ones and mnestic's (among them
   * {@code PARETO_MIN}, {@code PARETO_MAX} and, in a query ending {@code WITHIN ... ERROR},
   * {@code APPROX_QUANTILE}), each once, in the schema {@value #BUILT_IN}; none of Calcite's
   * internal operators ({@code $HISTOGRAM}...). Ordered as JDBC says, by name.
   *
   * <p>They are built in, as PostgreSQL's are in its schema {@code pg_catalog}, and so callable
   * unqualified from any schema; SQL does not name {@value #BUILT_IN} (it holds no table, and a
   * function qualified by it resolves in none). A tool that files routines under a schema
   * (SchemaCrawler) shows them there.
   */
  @Override public MetaResultSet getFunctions(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat functionNamePattern) {
    final Map<String, Object[]> functions = new TreeMap<>();
    if (matches(schemaPattern, BUILT_IN)) {
      final SqlOperatorTable operators = SqlOperatorTables.chain(
          ((CalciteConnection) connection).config()
              .fun(SqlOperatorTable.class, SqlStdOperatorTable.instance()),
          MnesticOperatorTable.instance());
      for (SqlOperator op : operators.getOperatorList()) {
        final String name = op.getName();
        if (op instanceof SqlFunction && name.matches("[A-Z][A-Z0-9_]*")
            && op.getSyntax() != SqlSyntax.INTERNAL && matches(functionNamePattern, name)) {
          functions.putIfAbsent(name, function(name, op instanceof SqlAggFunction
                  ? "aggregate function" : "function",
              op instanceof SqlTableFunction ? DatabaseMetaData.functionReturnsTable
                  : DatabaseMetaData.functionNoTable));
        }
      }
      if (matches(functionNamePattern, APPROX_QUANTILE)) {
        functions.put(APPROX_QUANTILE, function(APPROX_QUANTILE, "aggregate function, in a query"
            + " ending WITHIN RANK ERROR or WITHIN RELATIVE ERROR", DatabaseMetaData.functionNoTable));
      }
    }
    return rows(List.of("FUNCTION_CAT", "FUNCTION_SCHEM", "FUNCTION_NAME", "REMARKS",
            "FUNCTION_TYPE", "SPECIFIC_NAME"),
        List.of(String.class, String.class, String.class, String.class, Short.class,
            String.class),
        new ArrayList<>(functions.values()));
  }

  /** The approximate quantile of a standing query's or {@code WITHIN} query's select list. */
  private static final String APPROX_QUANTILE = "APPROX_QUANTILE";

  /** The schema of the built-in SQL functions, in metadata only. */
  public static final String BUILT_IN = "SYSTEM";

  private static Object[] function(String name, String remarks, int type) {
    return new Object[] {null, BUILT_IN, name, remarks, (short) type, name};
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
