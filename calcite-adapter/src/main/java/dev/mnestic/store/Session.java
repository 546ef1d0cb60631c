package dev.mnestic.store;

import org.apache.calcite.adapter.jdbc.JdbcConvention;
import org.apache.calcite.adapter.jdbc.JdbcSchema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Schemas;

import org.hsqldb.DatabaseURL;
import org.hsqldb.Table;
import org.hsqldb.TableBase;
import org.hsqldb.jdbc.JDBCConnection;
import org.hsqldb.lib.HsqlArrayList;
import org.hsqldb.persist.HsqlProperties;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * One client's connection to the store.
 *
 * <p>A session owns one HSQLDB connection and is the {@link DataSource} of the
 * Calcite schema {@value #SCHEMA} that it attaches to a root schema. Every
 * statement of one mnestic connection therefore runs on the same HSQLDB
 * connection, inside the same transaction: {@link #commit()} and
 * {@link #rollback()} end it.
 */
public final class Session implements DataSource, AutoCloseable {
  /** Name of the Calcite schema (and of the HSQLDB schema) holding every table of the store. */
  public static final String SCHEMA = "PUBLIC";

  static {
    // Keep HSQLDB from reconfiguring java.util.logging of the host process.
    System.setProperty("hsqldb.reconfig_logging", "false");
  }

  private final StoreLocation location;
  private final SessionConnection connection;
  /** The statements {@link #prepared} keeps, by text. */
  private final Map<String, PreparedStatement> prepared = new HashMap<>();
  /** Rows this session's batches bound straight into the store ({@link StoreWrites#insertBatch}). */
  private final AtomicLong directRows = new AtomicLong();
  /** The store's table versions: null when they could not be installed. */
  private final TableVersions versions;
  /** What runs CozoScript triggers for this session's SQL writes; null: none wired. */
  private volatile TableTriggers triggers;

  private Session(StoreLocation location, SessionConnection connection) {
    this.location = location;
    this.connection = connection;
    this.versions = TableVersions.install((org.hsqldb.Session) connection.getSession());
  }

  /** How long opening waits out the lock of a process that died holding it (its heartbeat is 10 s). */
  private static final long STALE_LOCK_WAIT_NANOS = 15_000_000_000L;

  /**
   * Opens a session on the store at {@code location}, creating the store if
   * it does not exist. A file store whose lock a killed process left behind
   * opens once the lock's heartbeat has gone stale; a store another live
   * process holds fails with that process's lock named.
   */
  public static Session open(StoreLocation location) throws SQLException {
    final HsqlProperties properties =
        DatabaseURL.parseURL(location.hsqldbUrl(), true, false);
    properties.setProperty("user", "SA");
    properties.setProperty("password", "");
    final long giveUp = System.nanoTime() + STALE_LOCK_WAIT_NANOS;
    SessionConnection c = null;
    while (c == null) {
      try {
        c = new SessionConnection(properties);
      } catch (SQLException e) {
        final boolean locked = e.getMessage() != null
            && e.getMessage().contains("lock acquisition failure");
        if (!locked) {
          throw new SQLException("cannot open " + location + ": " + e.getMessage(),
              e.getSQLState(), e);
        }
        if (System.nanoTime() > giveUp) {
          throw inUse(location, e);
        }
        try {
          Thread.sleep(250);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new SQLException("interrupted opening " + location, interrupted);
        }
      }
    }
    c.setAutoCommit(true);
    return new Session(location, c);
  }

  /**
   * The failure to open {@code location} while another live process holds it, from HSQLDB's
   * {@code locked} (whose message is a dump of its lock file's state): the store, its lock file
   * and when the holder last wrote it. Not chained to {@code locked}, so a caller showing the
   * deepest SQLException's message (the CLI) shows this one.
   */
  private static SQLException inUse(StoreLocation location, SQLException locked) {
    final Matcher file = Pattern.compile("\\[file =([^,]+),").matcher(locked.getMessage());
    final Matcher heartbeat = Pattern.compile("read: (\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d)")
        .matcher(locked.getMessage());
    return new SQLException(location + " is in use by another process"
        + (file.find() ? ": its lock file " + file.group(1) + " was last written" : "")
        + (heartbeat.find() ? " at " + heartbeat.group(1) : "")
        + " by the process holding the store (a mnestic serve, sql or run, or a program or tool"
        + " with the embedded driver), which rewrites it every 10 s while it runs; stop that"
        + " process, or connect through its server (mnestic serve)", "08001");
  }

  /**
   * The session's HSQLDB connection. Calcite's JDBC adapter closes the
   * connection it used after every query, directly and through
   * {@code resultSet.getStatement().getConnection()}; HSQLDB hands out this
   * very object there, so its {@code close()} does nothing and
   * {@link #closeFully()} ends it.
   */
  private static final class SessionConnection extends JDBCConnection {
    SessionConnection(HsqlProperties properties) throws SQLException {
      super(properties);
    }

    @Override public void close() {
    }

    @Override public void closeFully() {
      try {
        super.close();
      } catch (SQLException e) {
        throw new IllegalStateException("closing the store connection failed", e);
      }
    }
  }

  /**
   * Adds the schema {@value #SCHEMA}, whose tables are the store's tables, to
   * {@code root}. Queries over it are planned by Calcite; what it pushes into
   * HSQLDB runs on this session's connection.
   */
  public SchemaPlus attachTo(SchemaPlus root) {
    final JdbcConvention convention = new StoreConvention(StoreSchema.DIALECT,
        Schemas.subSchemaExpression(root, SCHEMA, JdbcSchema.class), SCHEMA);
    final SchemaPlus plus = root.add(SCHEMA, new StoreSchema(this, convention));
    // Tables come and go through DDL of this and other sessions: look them up live.
    plus.setCacheEnabled(false);
    return plus;
  }

  /**
   * Has {@code triggers} run the CozoScript triggers of this session's SQL writes (the driver
   * wires the Datalog front end's runner when it opens a connection).
   */
  public void runTriggersWith(TableTriggers triggers) {
    this.triggers = triggers;
  }

  /** What runs CozoScript triggers for this session's SQL writes, or null. */
  TableTriggers triggers() {
    return triggers;
  }

  /** Returns the session attached to {@code root} by {@link #attachTo}. */
  public static Session of(SchemaPlus root) {
    final SchemaPlus schema = root.subSchemas().get(SCHEMA);
    if (schema == null) {
      throw new IllegalStateException("no store schema in this connection");
    }
    return (Session) schema.unwrap(JdbcSchema.class).getDataSource();
  }

  /**
   * {@code sql} prepared on the session's connection, once per text: the statements mnestic
   * itself runs on every statement of a connection (the probe of a table's read, the standing
   * query catalog's read) are not compiled by HSQLDB again each time.
   */
  public synchronized PreparedStatement prepared(String sql) throws SQLException {
    PreparedStatement statement = prepared.get(sql);
    if (statement == null) {
      statement = connection.prepareStatement(sql);
      prepared.put(sql, statement);
    }
    return statement;
  }

  /**
   * {@code SELECT 1 FROM table WHERE FALSE}: running it starts a statement on the session as
   * HSQLDB starts one ({@link StoreSnapshot}).
   */
  PreparedStatement probe(String table) throws SQLException {
    return prepared(probeSql(table));
  }

  /** The text of {@link #probe}'s statement for {@code table}. */
  static String probeSql(String table) {
    return "SELECT 1 FROM \"" + SCHEMA + "\".\"" + table.replace("\"", "\"\"")
        + "\" WHERE FALSE";
  }

  /**
   * How many rows batches of any session appended to the store's segments ({@link Segment}),
   * committed or not; 0 where there are none (a file store).
   */
  public long segmentRows() {
    final TableVersions v = versions();
    return v == null ? 0 : v.appendedRows();
  }

  /**
   * How many tables of the store have a segment ({@link Segment}); a dropped table's is
   * forgotten at the next DDL statement or the next table's first segment; 0 where there are
   * none (a file store).
   */
  public int segmentTables() {
    final TableVersions v = versions();
    return v == null ? 0 : v.segmentTables();
  }

  /**
   * How many rows of the store's segments were moved into HSQLDB's rows before a statement
   * that touched their table (see {@link Segment}); 0 where there are none (a file store).
   */
  public long foldedRows() {
    final TableVersions v = versions();
    return v == null ? 0 : v.foldedRows();
  }

  /**
   * The store's table versions, or null (see {@link TableVersions#install}); null too once
   * they are no longer the store's transaction manager (HSQLDB's own {@code SET DATABASE
   * TRANSACTION CONTROL} put another in its place), so that no read trusts versions that
   * stopped counting.
   */
  TableVersions versions() {
    return versions != null && versions.isInstalled() ? versions : null;
  }

  /**
   * How many whole-table reads of the store, by any session, were served from what an earlier
   * read of the same committed rows left ({@link StoreSnapshot}) instead of from the rows;
   * -1 when reads are not shared in this store.
   */
  public long sharedReads() {
    return versions == null ? -1 : versions.sharedReads();
  }

  /**
   * How many rows this session's INSERT batches bound straight into the store, without running
   * the statement's plan per row ({@link StoreWrites#insertBatch}), committed or not.
   */
  public long directRows() {
    return directRows.get();
  }

  void countDirectRows(long rows) {
    directRows.addAndGet(rows);
  }

  /**
   * How many writes of the store, by any session, met a row that another transaction had
   * changed since they read it ({@link #guardWrites}) and failed or ran again; -1 when writes
   * cannot be guarded in this store.
   */
  public long writeConflicts() {
    final TableVersions installed = TableVersions.of((org.hsqldb.Session) connection.getSession());
    return installed == null ? -1 : installed.writeConflicts();
  }

  /**
   * The store's change number now, which a statement takes before it reads anything, to
   * {@link #guardWrites guard} the writes it computes from what it read.
   */
  public long changeNumber() throws SQLException {
    return guardian().getSystemChangeNumber();
  }

  /**
   * The names of the store's tables (the base tables of schema {@value #SCHEMA}), sorted, read
   * from HSQLDB's catalog itself: what {@code DatabaseMetaData.getTables} answers for them, where
   * HSQLDB fills a system table of every table anew at each call (about a millisecond, and a
   * replayed Datalog query asked twice a run).
   */
  public List<String> tableNames() {
    final List<String> names = new ArrayList<>();
    final HsqlArrayList<Table> tables = ((org.hsqldb.Session) connection.getSession())
        .getDatabase().schemaManager.getAllTables(false);
    for (int i = 0; i < tables.size(); i++) {
      final Table t = tables.get(i);
      final int type = t.getTableType();
      if (t.getSchemaName().name.equals(SCHEMA) && (type == TableBase.MEMORY_TABLE
          || type == TableBase.CACHED_TABLE || type == TableBase.TEXT_TABLE)) {
        names.add(t.getName().name);
      }
    }
    Collections.sort(names);
    return names;
  }

  /**
   * The store's schema version: HSQLDB's schema change stamp (the transaction manager's change
   * number at the latest DDL of any session), which grows with every DDL.
   */
  public long schemaVersion() {
    return ((org.hsqldb.Session) connection.getSession()).getDatabase().schemaManager
        .getSchemaChangeTimestamp();
  }

  /**
   * Guards this session's writes to {@code table} (its stored name) against lost updates until
   * the guard is closed (see {@link WriteGuard}): a row it deletes or updates must not have
   * been committed by another transaction after change number {@code since}
   * ({@link #changeNumber}, taken before the statement read anything).
   */
  public WriteGuard guardWrites(String table, long since) throws SQLException {
    final org.hsqldb.Session s = (org.hsqldb.Session) connection.getSession();
    return guardian().guard(s, s.database.schemaManager.getUserTable(table, SCHEMA), since);
  }

  /**
   * The store's transaction manager, which guards writes; without it (HSQLDB's own {@code SET
   * DATABASE TRANSACTION CONTROL} put another in its place) no write can be kept from
   * overwriting another's, and writes computed from what they read are refused.
   */
  private TableVersions guardian() throws SQLException {
    final TableVersions installed =
        TableVersions.of((org.hsqldb.Session) connection.getSession());
    if (installed == null) {
      throw new SQLException("the store's transaction manager is not mnestic's (HSQLDB's SET"
          + " DATABASE TRANSACTION CONTROL replaced it, or a transaction was open when this"
          + " session opened the store): UPDATE, DELETE and Datalog writes cannot be guarded"
          + " against lost updates; reopen the store", "55000");
    }
    return installed;
  }

  public StoreLocation location() {
    return location;
  }

  public void commit() throws SQLException {
    connection.commit();
  }

  public void rollback() throws SQLException {
    connection.rollback();
  }

  public boolean getAutoCommit() throws SQLException {
    return connection.getAutoCommit();
  }

  /** Sets auto-commit; turning it on commits the open transaction, as JDBC says. */
  public void setAutoCommit(boolean autoCommit) throws SQLException {
    connection.setAutoCommit(autoCommit);
  }

  /**
   * Makes the session read-only, or writable again: while it is read-only every write (DML,
   * DDL, a script's writes) fails with SQLSTATE 25006.
   */
  public void setReadOnly(boolean readOnly) throws SQLException {
    connection.setReadOnly(readOnly);
  }

  public void setTransactionIsolation(int level) throws SQLException {
    connection.setTransactionIsolation(level);
  }

  public int getTransactionIsolation() throws SQLException {
    return connection.getTransactionIsolation();
  }

  /** Rolls back whatever is uncommitted and closes the HSQLDB connection. */
  @Override public void close() throws SQLException {
    if (connection.isClosed()) {
      return;
    }
    try {
      if (!connection.getAutoCommit()) {
        connection.rollback();
      }
    } finally {
      connection.closeFully();
    }
  }

  // DataSource

  @Override public Connection getConnection() {
    return connection;
  }

  @Override public Connection getConnection(String username, String password) {
    return connection;
  }

  @Override public PrintWriter getLogWriter() {
    return null;
  }

  @Override public void setLogWriter(PrintWriter out) {
  }

  @Override public void setLoginTimeout(int seconds) {
  }

  @Override public int getLoginTimeout() {
    return 0;
  }

  @Override public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw new SQLException("not a wrapper for " + iface);
  }

  @Override public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
