package dev.mnestic.server;

import dev.mnestic.jdbc.Driver;
import dev.mnestic.jdbc.Feeds;
import dev.mnestic.remote.MnesticDatabaseMetaData;
import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.sql.StandingQueries;

import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.SqlType;
import org.apache.calcite.avatica.jdbc.JdbcMeta;
import org.apache.calcite.avatica.jdbc.JdbcMetaSubclassing;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.apache.calcite.avatica.remote.Service.ErrorResponse;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.CalciteConnection;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Avatica's {@link JdbcMeta} with the server's rules for clients:
 * <ul>
 *   <li>a client may send only the connection properties of {@link #ACCEPTED};
 *       any other (Calcite's {@code model}, {@code schemaFactory}, ...) refuses
 *       the connection with SQLSTATE 08001, so no client names a model, a
 *       class, a JDBC URL or a path;
 *   <li>every statement has the server's statement timeout, or the lower one
 *       the client's {@code statementTimeout} asks for, through the statement's
 *       query timeout (Avatica's protocol carries no query timeout; mnestic's
 *       thin client asks for a stop at its statement's, {@link #stop});
 *   <li>at most {@code maxStatements} statements execute at once server-wide
 *       (an execution or a fetch of rows); one more fails with SQLSTATE 53000;
 *   <li>a statement the client closes, or whose connection it closes or lets
 *       expire, is cancelled first, so its work stops;
 *   <li>{@link #stop} cancels every running statement and refuses new ones.
 * </ul>
 */
final class ClientMeta extends JdbcMetaSubclassing {
  /**
   * The connection properties a client may send: {@code lang}, a
   * {@code statementTimeout} no longer than the server's, and {@code user}
   * and {@code password}, which SQL tools send and the store ignores.
   * (The thin client keeps Avatica's own properties to itself.)
   */
  static final Set<String> ACCEPTED = Set.of(
      Driver.LANG, Driver.STATEMENT_TIMEOUT, Driver.FOLLOW_LATENESS, "user", "password");

  /**
   * The longest a request for a followed standing query's rows waits for one to be ready, in
   * milliseconds: then it answers with no rows and the client asks again, so no client holds a
   * server thread longer (beside one evaluation of the query).
   */
  static final long FOLLOW_WAIT_MILLIS = 1000;

  private final int statementTimeout;
  private final long statementMemory;
  /** What every client's scripts may read ({@link Driver#ALLOW_READ}): a directory, or none. */
  private final String allowRead;
  private final int maxStatements;
  /** Permits to execute, one per running statement; null when unlimited. */
  private final Semaphore executing;
  /** The statements executing now, each with its client's ids and the thread running it. */
  private final Map<Statement, Run> running = new ConcurrentHashMap<>();
  private volatile boolean stopping;

  /**
   * @param url the store's {@code jdbc:mnestic:} URL
   * @param cacheProperties Avatica's connection and statement cache settings
   * @param statementTimeout the server's statement timeout in seconds, 0 for none
   * @param statementMemory the heap one statement may hold, in bytes, 0 for no limit
   * @param maxStatements the most statements executing at once, 0 for no limit
   */
  ClientMeta(String url, Properties cacheProperties, int statementTimeout,
      long statementMemory, int maxStatements, String allowRead) throws SQLException {
    super(url, cacheProperties);
    this.allowRead = allowRead;
    this.statementTimeout = statementTimeout;
    this.statementMemory = statementMemory;
    this.maxStatements = maxStatements;
    this.executing = maxStatements > 0 ? new Semaphore(maxStatements) : null;
  }

  @Override public void openConnection(ConnectionHandle ch, Map<String, String> info) {
    final Map<String, String> embedded = new HashMap<>();
    for (Map.Entry<String, String> e : (info != null ? info : Map.<String, String>of())
        .entrySet()) {
      final String name = e.getKey();
      final String value = e.getValue();
      if (!ACCEPTED.contains(name)) {
        throw refused("connection property '" + name + "' is not accepted by this server;"
            + " a client may set lang (sql or datalog) and statementTimeout (seconds, at most"
            + " the server's) and followLateness (milliseconds), and user and password are"
            + " ignored");
      }
      if (name.equals(Driver.LANG)) {
        if (!value.equalsIgnoreCase("sql") && !value.equalsIgnoreCase(Driver.DATALOG)) {
          throw refused("connection property lang must be sql or datalog, was '" + value + "'");
        }
        embedded.put(name, value);
      } else if (name.equals(Driver.STATEMENT_TIMEOUT)) {
        embedded.put(name, Integer.toString(clientTimeout(value)));
      } else if (name.equals(Driver.FOLLOW_LATENESS)) {
        try {
          final Properties lateness = new Properties();
          lateness.setProperty(name, value);
          embedded.put(name, Long.toString(Driver.followLateness(lateness)));
        } catch (IllegalArgumentException bad) {
          throw refused("connection property " + bad.getMessage());
        }
      }
    }
    if (statementTimeout > 0) {
      embedded.putIfAbsent(Driver.STATEMENT_TIMEOUT, Integer.toString(statementTimeout));
    }
    if (statementMemory > 0) {
      embedded.put(Driver.STATEMENT_MEMORY, Long.toString(statementMemory));
    }
    embedded.put(Driver.ALLOW_READ, allowRead);
    super.openConnection(ch, embedded);
  }

  /** The client's {@code statementTimeout}, which may only lower the server's. */
  private int clientTimeout(String value) {
    final int seconds;
    try {
      seconds = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw refused("connection property statementTimeout must be a whole number of seconds,"
          + " was '" + value + "'");
    }
    if (seconds <= 0 || statementTimeout > 0 && seconds > statementTimeout) {
      throw refused("connection property statementTimeout must be 1 to "
          + (statementTimeout > 0 ? statementTimeout + " (the server's limit)" : "2147483647")
          + " seconds, was " + value);
    }
    return seconds;
  }

  /**
   * Opens the embedded connection with only the properties
   * {@link #openConnection} put together: Avatica's own cache settings, which
   * {@link JdbcMeta} merges in, are not connection properties.
   */
  @Override protected Connection createConnection(String url, Properties info)
      throws SQLException {
    final Properties embedded = new Properties();
    for (String name : List.of(Driver.LANG, Driver.STATEMENT_TIMEOUT, Driver.STATEMENT_MEMORY,
        Driver.FOLLOW_LATENESS, Driver.ALLOW_READ)) {
      if (info.getProperty(name) != null) {
        embedded.setProperty(name, info.getProperty(name));
      }
    }
    return super.createConnection(url, embedded);
  }

  /**
   * The tables, or, when the table types are a request of
   * {@link MnesticDatabaseMetaData#request}, that call of the connection's metadata (one of
   * {@link MnesticDatabaseMetaData#SERVER_CALLS}): a mnestic thin client asks so for what
   * Avatica's protocol has no request for.
   */
  @Override public MetaResultSet getTables(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat tableNamePattern, List<String> typeList) {
    final Method call = MnesticDatabaseMetaData.serverCall(typeList);
    if (call == null) {
      return super.getTables(ch, catalog, schemaPattern, tableNamePattern, typeList);
    }
    try {
      return metaResultSet(ch, (ResultSet) call.invoke(getConnection(ch.id).getMetaData(),
          MnesticDatabaseMetaData.arguments(call, typeList)));
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(e.getCause());
    } catch (SQLException | IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override public StatementHandle createStatement(ConnectionHandle ch) {
    return limited(super.createStatement(ch));
  }

  @Override public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    return limited(super.prepare(ch, sql, maxRowCount));
  }

  /** Gives the new statement its connection's statement timeout as its query timeout. */
  private StatementHandle limited(StatementHandle h) {
    final Statement statement = statement(h.id);
    try {
      final String timeout = statement.getConnection().unwrap(CalciteConnection.class)
          .getProperties().getProperty(Driver.STATEMENT_TIMEOUT);
      if (timeout != null) {
        statement.setQueryTimeout(Integer.parseInt(timeout));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot set the statement timeout", e);
    }
    return h;
  }

  @Override public ExecuteResult prepareAndExecute(StatementHandle h, String sql,
      long maxRowCount, int maxRowsInFirstFrame, PrepareCallback callback)
      throws NoSuchStatementException {
    return wire(running(h, () -> super.prepareAndExecute(h, sql, maxRowCount,
        maxRowsInFirstFrame, callback)));
  }

  @Override public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      int maxRowsInFirstFrame) throws NoSuchStatementException {
    return wire(running(h, () -> super.execute(h, parameterValues,
        maxRowsInFirstFrame)));
  }

  /** {@code result} as a client reads it: {@link #nestedArrays}, then {@link WireDates}. */
  private static ExecuteResult wire(ExecuteResult result) {
    for (MetaResultSet rs : nestedArrays(result).resultSets) {
      if (rs.signature != null && rs.firstFrame != null) {
        final List<ColumnMetaData.AvaticaType> types = new ArrayList<>();
        for (ColumnMetaData c : rs.signature.columns) {
          types.add(wireType(c.type.id, c.type.name));
        }
        WireDates.proleptic(rs.firstFrame.rows, types);
      }
    }
    return result;
  }

  @Override protected Frame fetched(Frame frame, ResultSetMetaData metaData)
      throws SQLException {
    final List<ColumnMetaData.AvaticaType> types = new ArrayList<>();
    for (int i = 1; i <= metaData.getColumnCount(); i++) {
      types.add(wireType(metaData.getColumnType(i), metaData.getColumnTypeName(i)));
    }
    WireDates.proleptic(frame.rows, types);
    return frame;
  }

  /**
   * The type of a column of type {@code id} named {@code name}: for an array, its elements'
   * by the name, as {@link #nestedArrays} types them (the first frame's element type is the
   * first non-null array's, unknown when there is none).
   */
  private static ColumnMetaData.AvaticaType wireType(int id, String name) {
    return id == Types.ARRAY ? typeNamed(name) : ColumnMetaData.scalar(id, name,
        ColumnMetaData.Rep.OBJECT);
  }

  /**
   * {@code result} with the columns of arrays of arrays (such as a PARETO_MIN result) typed as
   * a thin client can read them. Avatica's server types an array's elements by the first
   * array's {@code getBaseType()}, a scalar type, which for an array of arrays is ARRAY, and the
   * thin client then failed ("ScalarType cannot be cast to ArrayType"); the elements are typed
   * as arrays, by the type name, down to the innermost ones (Java objects).
   */
  private static ExecuteResult nestedArrays(ExecuteResult result) {
    for (MetaResultSet rs : result.resultSets) {
      final List<ColumnMetaData> columns = rs.signature != null ? rs.signature.columns : null;
      for (int i = 0; columns != null && i < columns.size(); i++) {
        final ColumnMetaData c = columns.get(i);
        if (c.type instanceof ColumnMetaData.ArrayType array
            && array.getComponent().id == Types.ARRAY
            && !(array.getComponent() instanceof ColumnMetaData.ArrayType)) {
          columns.set(i, new ColumnMetaData(c.ordinal, c.autoIncrement, c.caseSensitive,
              c.searchable, c.currency, c.nullable, c.signed, c.displaySize, c.label,
              c.columnName, c.schemaName, c.precision, c.scale, c.tableName, c.catalogName,
              typeNamed(c.type.name), c.readOnly, c.writable, c.definitelyWritable,
              c.columnClassName));
        }
      }
    }
    return result;
  }

  /**
   * The type whose SQL name is {@code name}: an array for each trailing " ARRAY", else the
   * scalar type it names (as Avatica's server types a flat array's elements), else a Java
   * object.
   */
  private static ColumnMetaData.AvaticaType typeNamed(String name) {
    if (name.endsWith(" ARRAY")) {
      return ColumnMetaData.array(
          typeNamed(name.substring(0, name.length() - " ARRAY".length())), name,
          ColumnMetaData.Rep.ARRAY);
    }
    final String base = name.replaceFirst("\\(.*", "").trim();
    for (SqlType type : SqlType.values()) {
      if (type.name().equals(base)) {
        return ColumnMetaData.scalar(type.id, name, ColumnMetaData.Rep.serialRepOf(type));
      }
    }
    return ColumnMetaData.scalar(Types.JAVA_OBJECT, name, ColumnMetaData.Rep.OBJECT);
  }

  /**
   * A followed standing query's frame holds the rows ready, waiting at most
   * {@link #FOLLOW_WAIT_MILLIS} for the first; any other result's, the rows asked for.
   */
  @Override protected int frameRows(Statement statement, int requested) throws SQLException {
    final AtomicBoolean flag = cancelFlag(statement);
    final StandingQueries.Feed feed = flag == null ? null : Feeds.of(flag);
    if (feed == null || requested == 0) {
      return requested;
    }
    final int ready;
    try {
      ready = feed.await(FOLLOW_WAIT_MILLIS);
    } catch (RuntimeException e) {
      if (flag.get()) {
        // stopped: as the driver states it (57014, HYT00), not as the result set's next would
        // (Avatica's "Statement canceled", which knows no SQLSTATE)
        throw RunningStatement.stopped(flag);
      }
      return 1; // the result set's next fails as the driver states the failure
    }
    return requested < 0 ? ready : Math.min(ready, requested);
  }

  /** The cancel flag of {@code statement}, the server's; null once it is closed. */
  private static AtomicBoolean cancelFlag(Statement statement) {
    try {
      final AvaticaStatement s = statement.unwrap(AvaticaStatement.class);
      return s.connection.getCancelFlag(s.handle);
    } catch (SQLException | NoSuchStatementException e) {
      return null;
    }
  }

  @Override public Frame fetch(StatementHandle h, long offset, int fetchMaxRowCount)
      throws NoSuchStatementException, MissingResultsException {
    return running(h, () -> super.fetch(h, offset, fetchMaxRowCount));
  }

  @Override public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h,
      List<String> sqlCommands) throws NoSuchStatementException {
    return running(h, () -> super.prepareAndExecuteBatch(h, sqlCommands));
  }

  @Override public ExecuteBatchResult executeBatch(StatementHandle h,
      List<List<TypedValue>> parameterValues) throws NoSuchStatementException {
    return running(h, () -> super.executeBatch(h, parameterValues));
  }

  @Override public ExecuteBatchResult executeBatchProtobuf(StatementHandle h,
      List<org.apache.calcite.avatica.proto.Requests.UpdateBatch> updateBatches)
      throws NoSuchStatementException {
    return running(h, () -> super.executeBatchProtobuf(h, updateBatches));
  }

  /** A statement executing: its connection's and its own id, and the thread that runs it. */
  private record Run(String connectionId, int statementId, Thread thread) {
  }

  /** Work on one statement: counted against the limit, cancelled by a stop. */
  private interface Work<T> {
    T run() throws NoSuchStatementException, MissingResultsException;
  }

  @SuppressWarnings("unchecked")
  private <T, E extends Exception> T running(StatementHandle h, Work<T> work) throws E {
    if (stopping) {
      throw new AvaticaRuntimeException("the server is stopping", ErrorResponse.UNKNOWN_ERROR_CODE,
          "57P01", AvaticaSeverity.ERROR);
    }
    if (executing != null && !executing.tryAcquire()) {
      throw new AvaticaRuntimeException("the server already executes " + maxStatements
          + " statements at once, its limit (mnestic serve --max-statements); try again later",
          ErrorResponse.UNKNOWN_ERROR_CODE, "53000", AvaticaSeverity.ERROR);
    }
    final Statement statement = statement(h.id);
    try {
      if (statement != null) {
        running.put(statement, new Run(h.connectionId, h.id, Thread.currentThread()));
        if (stopping) {
          cancel(statement);
        }
      }
      return work.run();
    } catch (NoSuchStatementException | MissingResultsException e) {
      throw (E) e;
    } finally {
      if (statement != null) {
        running.remove(statement);
      }
      if (executing != null) {
        executing.release();
      }
    }
  }

  @Override public void closeStatement(StatementHandle h) {
    final Statement statement = statement(h.id);
    if (statement != null && running.containsKey(statement)) {
      cancel(statement);
    }
    super.closeStatement(h);
  }

  @Override public void closeConnection(ConnectionHandle ch) {
    running.forEach((statement, run) -> {
      if (run.connectionId.equals(ch.id)) {
        cancel(statement);
      }
    });
    super.closeConnection(ch);
  }

  /**
   * Stops the work of the client's statement (connection {@code connectionId}, statement
   * {@code statementId}) if it executes: a cancel (57014) or its query timeout (HYT00), as
   * the thin client of {@link org.apache.calcite.avatica.MnesticRemoteFactory} asks.
   *
   * @return whether it executed
   */
  boolean stop(String connectionId, int statementId, RunningStatement.Cause why) {
    for (Map.Entry<Statement, Run> e : running.entrySet()) {
      final Run run = e.getValue();
      if (run.statementId == statementId && run.connectionId.equals(connectionId)) {
        if (why == RunningStatement.Cause.TIMEOUT) {
          try {
            final AvaticaStatement statement = e.getKey().unwrap(AvaticaStatement.class);
            RunningStatement.stop(statement.connection.getCancelFlag(statement.handle), why,
                "query timed out (the client's query timeout) and was cancelled");
          } catch (SQLException | NoSuchStatementException closed) {
            return false;
          }
        } else {
          cancel(e.getKey());
        }
        return true;
      }
    }
    return false;
  }

  /** Cancels the statement {@code thread} executes, if any: its client is gone. */
  void cancelWorkOf(Thread thread) {
    running.forEach((statement, run) -> {
      if (run.thread == thread) {
        cancel(statement);
      }
    });
  }

  /**
   * Housekeeping, every few hundred milliseconds: closes the connections and statements
   * idle past the idle timeout (Avatica's caches expire entries only when next used, so a
   * vanished client's connection, and its transaction, would stay open without it); and
   * first marks those executing as used, so that a statement running longer than the idle
   * timeout is not closed under its client.
   */
  void tick() {
    running.values().forEach(run -> {
      getConnectionCache().getIfPresent(run.connectionId);
      getStatementCache().getIfPresent(run.statementId);
    });
    getStatementCache().cleanUp();
    getConnectionCache().cleanUp();
  }

  /** Refuses new statements and cancels the running ones. */
  void stop() {
    stopping = true;
    running.keySet().forEach(ClientMeta::cancel);
  }

  /** Closes every client connection, rolling back what each had not committed. */
  void closeAll() {
    getConnectionCache().invalidateAll();
    getConnectionCache().cleanUp();
  }

  /**
   * Sets the statement's cancel flag (57014). Not {@code Statement.cancel()}: Avatica's waits
   * for the statement's lock, which a prepared statement's execution holds throughout.
   */
  private static void cancel(Statement statement) {
    try {
      final AvaticaStatement s = statement.unwrap(AvaticaStatement.class);
      s.connection.getCancelFlag(s.handle).set(true);
    } catch (SQLException | NoSuchStatementException e) {
      // Already closed: nothing runs on it.
    }
  }

  private static AvaticaRuntimeException refused(String message) {
    return new AvaticaRuntimeException(message, ErrorResponse.UNKNOWN_ERROR_CODE, "08001",
        AvaticaSeverity.ERROR);
  }
}
