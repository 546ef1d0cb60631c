package org.apache.calcite.avatica;

import dev.mnestic.remote.MnesticDatabaseMetaData;
import dev.mnestic.remote.TypeMap;

import org.apache.calcite.avatica.remote.MnesticRemoteMeta;
import org.apache.calcite.avatica.remote.AvaticaHttpClient;
import org.apache.calcite.avatica.remote.MetaDataOperation;
import org.apache.calcite.avatica.remote.ProtobufTranslation;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.remote.Service;
import org.apache.calcite.avatica.util.MnesticArray;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.BatchUpdateException;
import java.sql.NClob;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Types;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TimeZone;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Avatica's JDBC 4.1 objects for the thin client of {@code mnestic serve}
 * ({@code dev.mnestic.remote.RemoteDriver}), telling the truth where Avatica's own do not:
 * <ul>
 *   <li>its {@code DatabaseMetaData} is mnestic's ({@link MnesticDatabaseMetaData}; Avatica's
 *       tells of a read-only engine named "Avatica" that upper-cases names, whatever the server
 *       is), and an isolation level the store does not provide is refused here (the protocol
 *       would carry {@code TRANSACTION_NONE}, 0, to the server as no level at all);
 *   <li>{@code cancel()} sets the flag without the statement's lock (Avatica's waits for it,
 *       which an execution holds for its whole request) and asks the server to cancel the
 *       statement's work ({@value #CANCEL}): the execution fails with 57014. It returns once
 *       the server answered, a round trip; while the statement's execution has not reached
 *       the server yet, it asks again every {@value #RETRY_MILLIS} ms, at most
 *       {@value #TRIES} times;
 *   <li>{@code getString} of a binary value gives its hexadecimal digits ({@link ThinResultSet});
 *   <li>{@code setQueryTimeout(n)}: n seconds into an execution the client asks the server
 *       to stop it for its timeout ({@value #TIMEOUT}): it fails with HYT00 (Avatica's
 *       protocol carries no timeout);
 *   <li>{@code getMoreResults} moves to the next result of the execution (a CozoScript's
 *       {@code %return a, b}), which the server sent with the first under a statement id of its
 *       own ({@link MnesticRemoteMeta#nextResult}), as the embedded driver's does (Avatica's
 *       answers false).
 * </ul>
 * The stop requests go to the server's URL with that path, as Avatica's client sends its own
 * (authentication, TLS), each holding a close-statement request that names the statement;
 * the server answers {@value #STOPPED} or {@value #IDLE}. In Avatica's package because its
 * JDBC 4.1 factory is package-private.
 */
public class MnesticRemoteFactory extends AvaticaJdbc41Factory {
  /** The path of a cancel request. */
  public static final String CANCEL = "/cancel";
  /** The path of a request to stop a statement at its query timeout. */
  public static final String TIMEOUT = "/timeout";
  /** The server's answer when it stopped the statement's work. */
  public static final String STOPPED = "stopped";
  /** The server's answer when the statement runs nothing there. */
  public static final String IDLE = "idle";
  static final int TRIES = 10;
  /** What Avatica's client puts before the message of a server's {@code ErrorResponse}. */
  private static final String REMOTE_ERROR = "Remote driver error: ";
  static final long RETRY_MILLIS = 50;

  private static final ProtobufTranslation PROTOBUF = new ProtobufTranslationImpl();
  private static final ScheduledExecutorService TIMER =
      Executors.newSingleThreadScheduledExecutor(r -> {
        final Thread t = new Thread(r, "mnestic-query-timeout");
        t.setDaemon(true);
        return t;
      });

  /** Avatica's remote driver, making its objects with this factory. */
  public static class Driver extends org.apache.calcite.avatica.remote.Driver {
    @Override protected String getFactoryClassName(JdbcVersion jdbcVersion) {
      return MnesticRemoteFactory.class.getName();
    }

    /** Avatica's (which logs in and sets the connection's service), reading rows by frame. */
    @Override public Meta createMeta(AvaticaConnection connection) {
      super.createMeta(connection);
      return new MnesticRemoteMeta(connection, connection.getService());
    }
  }

  @Override public AvaticaConnection newConnection(UnregisteredDriver driver,
      AvaticaFactory factory, String url, Properties info) {
    return new ThinConnection(driver, factory, url, info);
  }

  @Override public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(
      AvaticaConnection connection) {
    return new MnesticDatabaseMetaData(connection);
  }

  @Override public AvaticaResultSet newResultSet(AvaticaStatement statement, QueryState state,
      Meta.Signature signature, TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
    return new ThinResultSet(statement, state, signature,
        newResultSetMetaData(statement, signature), timeZone, firstFrame);
  }

  /**
   * Avatica's result set, whose arrays are {@link MnesticArray}s, as the embedded driver's (also
   * in their {@code getString}), and whose {@code getString} of a BINARY or VARBINARY value is its bytes in hexadecimal, as the
   * embedded driver's and HSQLDB's own driver's are (Avatica's decodes the bytes as UTF-8
   * text, which garbles any that are no text).
   */
  private static final class ThinResultSet extends AvaticaResultSet {
    ThinResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
        ResultSetMetaData metaData, TimeZone timeZone, Meta.Frame firstFrame)
        throws SQLException {
      super(statement, state, signature, metaData, timeZone, firstFrame);
    }

    /**
     * As Avatica's, but a failure of a later frame's request (the server stopped the statement:
     * a followed standing query cancelled or timed out) is the server's SQLException, not
     * Avatica's unchecked one.
     */
    @Override public boolean next() throws SQLException {
      try {
        return super.next();
      } catch (AvaticaClientRuntimeException e) {
        throw ThinConnection.fromServer(e);
      }
    }

    @Override public Object getObject(int columnIndex) throws SQLException {
      final Object o = super.getObject(columnIndex);
      return o instanceof Array ? MnesticArray.of(accessorList.get(columnIndex - 1)) : o;
    }

    /** By {@link #getObject(int)}: Avatica's gives an array column's value as a List. */
    @Override public Object getObject(String columnLabel) throws SQLException {
      return getObject(findColumn(columnLabel));
    }

    @Override public Array getArray(int columnIndex) throws SQLException {
      return super.getArray(columnIndex) == null ? null
          : (Array) MnesticArray.of(accessorList.get(columnIndex - 1));
    }

    @Override public Array getArray(String columnLabel) throws SQLException {
      return getArray(findColumn(columnLabel));
    }

    @Override public String getString(int columnIndex) throws SQLException {
      final int type = getMetaData().getColumnType(columnIndex);
      if (type == Types.ARRAY) {
        checkOpen();
        return MnesticArray.string(accessorList.get(columnIndex - 1));
      }
      if (type != Types.BINARY && type != Types.VARBINARY) {
        return super.getString(columnIndex);
      }
      final byte[] bytes = getBytes(columnIndex);
      return bytes == null ? null : HexFormat.of().formatHex(bytes);
    }

    @Override public String getString(String columnLabel) throws SQLException {
      return getString(findColumn(columnLabel));
    }

    /**
     * Executed as a result after the first of its statement's execution, whose rows after its
     * first frame the server holds under {@code result}'s statement id.
     */
    ThinResultSet later(Meta.StatementHandle result) {
      execute2(MetaImpl.createCursor(signature.cursorFactory,
          FrameRows.later(statement.connection.meta, statement, result, firstFrame)),
          columnMetaDataList);
      return this;
    }
  }

  /**
   * JDBC's {@code getMoreResults(current)} of {@code statement}, as the embedded driver's: the
   * next result its execution answered with ({@link MnesticRemoteMeta#nextResult}) becomes its
   * result set; the one open before is closed unless {@code current} is
   * {@code KEEP_CURRENT_RESULT}. Whether there was a next result.
   */
  private static boolean moreResults(AvaticaStatement statement, int current)
      throws SQLException {
    if (current != java.sql.Statement.CLOSE_CURRENT_RESULT
        && current != java.sql.Statement.KEEP_CURRENT_RESULT
        && current != java.sql.Statement.CLOSE_ALL_RESULTS) {
      throw new SQLException("getMoreResults takes CLOSE_CURRENT_RESULT, KEEP_CURRENT_RESULT"
          + " or CLOSE_ALL_RESULTS, not " + current, "HY024");
    }
    if (statement.openResultSet != null && current != java.sql.Statement.KEEP_CURRENT_RESULT) {
      statement.openResultSet.close();
    }
    statement.updateCount = -1;
    final AvaticaConnection connection = statement.connection;
    final Meta.MetaResultSet next =
        ((MnesticRemoteMeta) connection.meta).nextResult(statement.handle);
    if (next == null) {
      statement.openResultSet = null;
      return false;
    }
    statement.openResultSet = new ThinResultSet(statement, new QueryState(), next.signature,
        connection.factory.newResultSetMetaData(statement, next.signature),
        connection.getTimeZone(), next.firstFrame)
        .later(new Meta.StatementHandle(next.connectionId, next.statementId, null));
    return true;
  }

  /**
   * Avatica's connection, refusing an isolation level the store does not provide, reaching the
   * server's metadata calls Avatica's protocol has no request for, and failing as the server
   * said: with its message, SQLSTATE and vendor code (Avatica's put "while preparing SQL:
   * ..." in place of the reason of a failed prepare, and prefix "Error -104 (23505) : Error
   * while executing SQL ...: Remote driver error: " to the others).
   */
  public static final class ThinConnection extends AvaticaConnection {
    ThinConnection(UnregisteredDriver driver, AvaticaFactory factory, String url,
        Properties info) {
      super(driver, factory, url, info);
    }

    private final TypeMap typeMap = new TypeMap();

    /** The connection's type map (Avatica's refused the call; SchemaCrawler warned). */
    @Override public Map<String, Class<?>> getTypeMap() throws SQLException {
      checkOpen();
      return typeMap.get();
    }

    @Override public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
      checkOpen();
      typeMap.set(map);
    }

    @Override public java.sql.PreparedStatement prepareStatement(String sql, int resultSetType,
        int resultSetConcurrency, int resultSetHoldability) throws SQLException {
      checkOpen();
      try {
        final Meta.StatementHandle h = meta.prepare(handle, sql, -1);
        return factory.newPreparedStatement(this, h, h.signature, resultSetType,
            resultSetConcurrency, resultSetHoldability);
      } catch (AvaticaClientRuntimeException e) {
        throw fromServer(e);
      } catch (RuntimeException e) {
        throw HELPER.createException("while preparing SQL: " + sql, e);
      }
    }

    @Override protected Meta.ExecuteResult prepareAndExecuteInternal(AvaticaStatement statement,
        String sql, long maxRowCount) throws SQLException, NoSuchStatementException {
      try {
        return super.prepareAndExecuteInternal(statement, sql, maxRowCount);
      } catch (AvaticaClientRuntimeException e) {
        throw fromServer(e);
      }
    }

    @Override protected ResultSet executeQueryInternal(AvaticaStatement statement,
        Meta.Signature signature, Meta.Frame firstFrame, QueryState state, boolean isUpdate)
        throws SQLException {
      try {
        return super.executeQueryInternal(statement, signature, firstFrame, state, isUpdate);
      } catch (AvaticaSqlException e) {
        throw fromServer(e);
      }
    }

    /**
     * A batch's failure is a {@link BatchUpdateException}, as JDBC says, with the server's
     * SQLSTATE, vendor code and message (which names the failing row of an INSERT's batch) and
     * no update counts: the server stores nothing of an INSERT's failed batch.
     */
    @Override protected long[] executeBatchUpdateInternal(AvaticaPreparedStatement statement)
        throws SQLException {
      try {
        return super.executeBatchUpdateInternal(statement);
      } catch (AvaticaSqlException e) {
        final SQLException server = fromServer(e);
        throw new BatchUpdateException(server.getMessage(), server.getSQLState(),
            server.getErrorCode(), new long[0], server);
      }
    }

    /** The server's failure {@code e} as the server stated it. */
    private static SQLException fromServer(AvaticaClientRuntimeException e) {
      return new SQLException(serverMessage(e.getMessage()), e.getSqlState(), e.getErrorCode(),
          e);
    }

    /** The server's failure Avatica wrapped in {@code e}, as the server stated it. */
    private static SQLException fromServer(AvaticaSqlException e) {
      return e.getCause() instanceof AvaticaClientRuntimeException server ? fromServer(server)
          : new SQLException(serverMessage(e.getErrorMessage()), e.getSQLState(),
              e.getErrorCode(), e);
    }

    /**
     * {@code message} without what Avatica's client puts before the server's message of an
     * {@code ErrorResponse} ({@code Service.ErrorResponse.toException}).
     */
    private static String serverMessage(String message) {
      final int at = message.indexOf(REMOTE_ERROR);
      return at < 0 ? message : message.substring(at + REMOTE_ERROR.length());
    }

    @Override public void setTransactionIsolation(int level) throws SQLException {
      if (!MnesticDatabaseMetaData.isProvided(level)) {
        throw MnesticDatabaseMetaData.notProvided(level);
      }
      super.setTransactionIsolation(level);
    }

    /**
     * The server connection's answer to the {@code getTables} request with the table types
     * {@code types}: a call of its {@code DatabaseMetaData} that Avatica's protocol has no
     * request for ({@link MnesticDatabaseMetaData#request}).
     */
    public ResultSet serverMetadata(List<String> types) throws SQLException {
      return createResultSet(meta.getTables(handle, null, Meta.Pat.of(null), Meta.Pat.of(null),
              types),
          new QueryState(MetaDataOperation.GET_TABLES, null, null, null,
              types.toArray(new String[0])));
    }
  }

  @Override public AvaticaStatement newStatement(AvaticaConnection connection,
      Meta.StatementHandle h, int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) {
    return new Statement(connection, h, resultSetType, resultSetConcurrency,
        resultSetHoldability);
  }

  @Override public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection,
      Meta.StatementHandle h, Meta.Signature signature, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    return new PreparedStatement(connection, h, signature, resultSetType,
        resultSetConcurrency, resultSetHoldability);
  }

  /** An execution's work. */
  private interface Work<T> {
    T run() throws SQLException;
  }

  /**
   * Runs {@code work}, one execution of {@code statement}, marked as executing; past the
   * statement's query timeout, the server is asked to stop it.
   */
  private static <T> T executing(AvaticaStatement statement, Work<T> work,
      Executing executing) throws SQLException {
    final int millis = statement.getQueryTimeoutMillis();
    final ScheduledFuture<?> timer = millis <= 0 ? null
        : TIMER.schedule(() -> {
          try {
            stop(statement, TIMEOUT, executing);
          } catch (SQLException | RuntimeException e) {
            // The execution ends anyway, with its own error if the server is gone.
          }
        }, millis, TimeUnit.MILLISECONDS);
    executing.running = true;
    try {
      return work.run();
    } finally {
      executing.running = false;
      if (timer != null) {
        timer.cancel(false);
      }
    }
  }

  /** Whether a statement's execution is under way on the client. */
  private static final class Executing {
    volatile boolean running;
  }

  /** Sets the statement's cancel flag and asks the server to cancel its work. */
  private static void cancel(AvaticaStatement statement, Executing executing)
      throws SQLException {
    statement.cancelFlag.set(true);
    stop(statement, CANCEL, executing);
  }

  /**
   * Asks the server to stop the statement's work, at {@code path}; again while the server
   * says it runs nothing and the execution is still under way (its request may not have
   * reached the server yet).
   */
  private static void stop(AvaticaStatement statement, String path, Executing executing)
      throws SQLException {
    final AvaticaConnection connection = statement.connection;
    final ConnectionConfig config = connection.config();
    final AvaticaHttpClient client;
    final byte[] request;
    try {
      client = config.httpClientFactory().getClient(
          new URI(config.url().replaceAll("/+$", "") + path).toURL(), config,
          connection.getKerberosConnection());
      request = PROTOBUF.serializeRequest(
          new Service.CloseStatementRequest(connection.id, statement.handle.id));
    } catch (URISyntaxException | IOException | RuntimeException e) {
      throw new SQLException("cannot ask the server to stop the statement: " + e.getMessage(),
          "08000", e);
    }
    for (int i = 0; i < TRIES; i++) {
      final String answer;
      try {
        answer = new String(client.send(request), StandardCharsets.UTF_8).trim();
      } catch (RuntimeException e) {
        throw new SQLException("cannot ask the server to stop the statement: "
            + e.getMessage(), "08006", e);
      }
      if (!answer.equals(IDLE) || !executing.running) {
        return;
      }
      try {
        Thread.sleep(RETRY_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * Avatica's statement, whose cancel and query timeout reach the server and whose
   * {@code getMoreResults} moves to the execution's next result.
   */
  private static final class Statement extends AvaticaStatement {
    private final Executing executing = new Executing();

    Statement(AvaticaConnection connection, Meta.StatementHandle h, int resultSetType,
        int resultSetConcurrency, int resultSetHoldability) {
      super(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override protected void executeInternal(String sql) throws SQLException {
      executing(this, () -> {
        super.executeInternal(sql);
        return null;
      }, executing);
    }

    @Override protected long[] executeBatchInternal() throws SQLException {
      return executing(this, super::executeBatchInternal, executing);
    }

    @Override public void cancel() throws SQLException {
      checkOpen();
      MnesticRemoteFactory.cancel(this, executing);
    }

    @Override public boolean getMoreResults(int current) throws SQLException {
      checkOpen();
      return moreResults(this, current);
    }
  }

  /**
   * Avatica's JDBC 4.1 prepared statement, whose cancel and query timeout reach the server and
   * whose {@code getMoreResults} moves to the execution's next result.
   */
  private static final class PreparedStatement extends AvaticaPreparedStatement {
    private final Executing executing = new Executing();

    PreparedStatement(AvaticaConnection connection, Meta.StatementHandle h,
        Meta.Signature signature, int resultSetType, int resultSetConcurrency,
        int resultSetHoldability) throws SQLException {
      super(connection, h, signature, resultSetType, resultSetConcurrency,
          resultSetHoldability);
    }

    @Override public ResultSet executeQuery() throws SQLException {
      return executing(this, super::executeQuery, executing);
    }

    @Override public long executeLargeUpdate() throws SQLException {
      return executing(this, super::executeLargeUpdate, executing);
    }

    @Override public boolean execute() throws SQLException {
      return executing(this, super::execute, executing);
    }

    @Override public long[] executeLargeBatch() throws SQLException {
      return executing(this, super::executeLargeBatch, executing);
    }

    @Override public void cancel() throws SQLException {
      checkOpen();
      MnesticRemoteFactory.cancel(this, executing);
    }

    @Override public boolean getMoreResults(int current) throws SQLException {
      checkOpen();
      return moreResults(this, current);
    }

    // JDBC 4.1's setters, as Avatica's own JDBC 4.1 prepared statement has them.

    @Override public void setRowId(int i, RowId x) throws SQLException {
      getSite(i).setRowId(x);
    }

    @Override public void setNString(int i, String value) throws SQLException {
      getSite(i).setNString(value);
    }

    @Override public void setNCharacterStream(int i, Reader value, long length)
        throws SQLException {
      getSite(i).setNCharacterStream(value, length);
    }

    @Override public void setNClob(int i, NClob value) throws SQLException {
      getSite(i).setNClob(value);
    }

    @Override public void setClob(int i, Reader reader, long length) throws SQLException {
      getSite(i).setClob(reader, length);
    }

    @Override public void setBlob(int i, InputStream inputStream, long length) throws SQLException {
      getSite(i).setBlob(inputStream, length);
    }

    @Override public void setNClob(int i, Reader reader, long length) throws SQLException {
      getSite(i).setNClob(reader, length);
    }

    @Override public void setSQLXML(int i, SQLXML xmlObject) throws SQLException {
      getSite(i).setSQLXML(xmlObject);
    }

    @Override public void setAsciiStream(int i, InputStream x, long length) throws SQLException {
      getSite(i).setAsciiStream(x, length);
    }

    @Override public void setBinaryStream(int i, InputStream x, long length) throws SQLException {
      getSite(i).setBinaryStream(x, length);
    }

    @Override public void setCharacterStream(int i, Reader reader, long length)
        throws SQLException {
      getSite(i).setCharacterStream(reader, length);
    }

    @Override public void setAsciiStream(int i, InputStream x) throws SQLException {
      getSite(i).setAsciiStream(x);
    }

    @Override public void setBinaryStream(int i, InputStream x) throws SQLException {
      getSite(i).setBinaryStream(x);
    }

    @Override public void setCharacterStream(int i, Reader reader) throws SQLException {
      getSite(i).setCharacterStream(reader);
    }

    @Override public void setNCharacterStream(int i, Reader value) throws SQLException {
      getSite(i).setNCharacterStream(value);
    }

    @Override public void setClob(int i, Reader reader) throws SQLException {
      getSite(i).setClob(reader);
    }

    @Override public void setBlob(int i, InputStream inputStream) throws SQLException {
      getSite(i).setBlob(inputStream);
    }

    @Override public void setNClob(int i, Reader reader) throws SQLException {
      getSite(i).setNClob(reader);
    }
  }
}
