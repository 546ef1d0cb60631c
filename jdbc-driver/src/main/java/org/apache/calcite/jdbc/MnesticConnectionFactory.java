package org.apache.calcite.jdbc;

import dev.mnestic.jdbc.ColumnLengths;
import dev.mnestic.jdbc.DatalogSignature;
import dev.mnestic.jdbc.HostExtensions;
import dev.mnestic.jdbc.MnesticConnection;
import dev.mnestic.jdbc.SegmentBinder;
import dev.mnestic.remote.MnesticDatabaseMetaData;
import dev.mnestic.remote.TypeMap;
import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.value.Aggregators;
import dev.mnestic.value.FixedRule;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.UnregisteredDriver;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.avatica.util.ArrayFactoryImpl;
import org.apache.calcite.avatica.util.DateTimeUtils;
import org.apache.calcite.avatica.util.MnesticArray;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;

import java.sql.Array;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.sql.Wrapper;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * Calcite's JDBC 4.1 objects, with statements whose {@code cancel()} never waits, and a
 * connection whose {@code prepareStatement} and prepared statements' executions fail as a
 * statement's execution does: Calcite's connection prepares without its Meta, and Avatica's
 * runs a prepared statement, each wrapping any failure in an SQLException without a SQLSTATE,
 * which the driver ({@link Failures}) turns into the one a caller should see. In Calcite's
 * package because CalciteConnectionImpl is
 * package-private (as {@link CalciteMetaSubclassing}).
 */
public class MnesticConnectionFactory extends CalciteFactory {
  /**
   * What the driver of this factory's connections says a failure is, for a caller: an
   * SQLException with its SQLSTATE. The driver implements it; each connection asks its own.
   */
  public interface Failures {
    SQLException of(Throwable cause);
  }

  private final CalciteJdbc41Factory calcite = new CalciteJdbc41Factory();

  public MnesticConnectionFactory() {
    super(4, 1);
  }

  @Override public AvaticaConnection newConnection(UnregisteredDriver driver,
      AvaticaFactory factory, String url, Properties info, CalciteSchema rootSchema,
      JavaTypeFactory typeFactory) {
    return new Connection((Driver) driver, factory, url, info, rootSchema, typeFactory);
  }

  /** mnestic's truthful metadata (Avatica's describes a read-only engine without transactions). */
  @Override public AvaticaDatabaseMetaData newDatabaseMetaData(AvaticaConnection connection) {
    return new MnesticDatabaseMetaData(connection);
  }

  @Override public AvaticaStatement newStatement(AvaticaConnection connection,
      Meta.StatementHandle h, int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) {
    return new Statement((CalciteConnectionImpl) connection, h, resultSetType,
        resultSetConcurrency, resultSetHoldability);
  }

  @Override public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection,
      Meta.StatementHandle h, Meta.Signature signature, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    return new PreparedStatement((CalciteConnectionImpl) connection, h, signature,
        resultSetType, resultSetConcurrency, resultSetHoldability);
  }

  @Override public AvaticaResultSet newResultSet(AvaticaStatement statement, QueryState state,
      Meta.Signature signature, TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
    return new ResultSet(statement, (CalcitePrepare.CalciteSignature<?>) signature,
        newResultSetMetaData(statement, signature), timeZone, firstFrame);
  }

  /**
   * Calcite's result set, whose arrays are {@link MnesticArray}s (their {@code getArray()}
   * gives the objects the thin client gives), and whose arrays' {@code Array.getResultSet()}
   * has the two columns JDBC specifies: the index (from 1) and the element. Calcite's has only
   * the element, so Avatica's server, which reads column 2, failed to send any array ("invalid
   * column ordinal: 2"; a nested one: "cannot convert to long").
   */
  private static final class ResultSet extends CalciteResultSet {
    private final TimeZone timeZone;

    ResultSet(AvaticaStatement statement, CalcitePrepare.CalciteSignature<?> signature,
        ResultSetMetaData metaData, TimeZone timeZone, Meta.Frame firstFrame)
        throws SQLException {
      super(statement, signature, metaData, timeZone, firstFrame);
      this.timeZone = timeZone;
    }

    /**
     * Its statement stopped between two rows (its timeout, a cancel, its memory): the stop's
     * SQLSTATE (HYT00, 57014, 53200), where Avatica's fails with "Statement canceled" and none.
     */
    @Override public boolean next() throws SQLException {
      if (statement != null && !isClosed()) {
        final AtomicBoolean flag;
        try {
          flag = statement.connection.getCancelFlag(statement.handle);
        } catch (NoSuchStatementException e) {
          return super.next(); // its statement is closed: Avatica's answer
        }
        if (flag.get()) {
          throw RunningStatement.stopped(flag);
        }
      }
      return super.next();
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

    /** An array's is its {@link MnesticArray}'s: Avatica's read dates before 1582 days off. */
    @Override public String getString(int columnIndex) throws SQLException {
      if (getMetaData().getColumnType(columnIndex) != Types.ARRAY) {
        return super.getString(columnIndex);
      }
      checkOpen();
      return MnesticArray.string(accessorList.get(columnIndex - 1));
    }

    @Override public String getString(String columnLabel) throws SQLException {
      return getString(findColumn(columnLabel));
    }

    /** Also what its signature wraps: a Datalog script's {@code Engine.Result}. */
    @Override public <T> T unwrap(Class<T> iface) throws SQLException {
      return signature instanceof Wrapper w && w.isWrapperFor(iface) ? w.unwrap(iface)
          : super.unwrap(iface);
    }

    @Override public boolean isWrapperFor(Class<?> iface) throws SQLException {
      return signature instanceof Wrapper w && w.isWrapperFor(iface) || super.isWrapperFor(iface);
    }

    @Override public java.sql.ResultSet create(ColumnMetaData.AvaticaType elementType,
        Iterable<Object> elements) throws SQLException {
      return new ArrayFactoryImpl(timeZone).create(elementType, elements);
    }
  }

  @Override public ResultSetMetaData newResultSetMetaData(AvaticaStatement statement,
      Meta.Signature signature) throws SQLException {
    return calcite.newResultSetMetaData(statement,
        ColumnLengths.of((CalciteConnection) statement.getConnection(), signature));
  }

  /**
   * Calcite's statement, whose {@code cancel()} does not wait: Avatica's takes the statement's
   * lock, which {@code execute(sql)} holds while it prepares (parsing, planning, code
   * generation: seconds for a big statement), so a cancel then waited for the preparation to
   * end. This one sets the statement's cancel flag at once; the preparation (its planner) or
   * the execution after it sees the flag and fails with 57014. A cancel while nothing
   * executes does nothing: each {@code execute} call clears the flag when it is made
   * ({@link Connection#prepareAndExecuteInternal}), so that a cancel during the call, also
   * before its execution starts, is kept.
   */
  private static final class Statement extends CalciteStatement {
    Statement(CalciteConnectionImpl connection, Meta.StatementHandle h, int resultSetType,
        int resultSetConcurrency, int resultSetHoldability) {
      super(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override public void cancel() throws SQLException {
      checkOpen();
      // Avatica's also cancels the open result set, which sets this same flag.
      cancelFlag.set(true);
    }

    /** {@link Connection#moreResults}, where Avatica's has none. */
    @Override public boolean getMoreResults(int current) throws SQLException {
      checkOpen();
      openResultSet = ((Connection) connection).moreResults(this, openResultSet, current);
      updateCount = -1;
      return openResultSet != null;
    }
  }

  /**
   * Calcite's prepared statement, whose {@code cancel()} does not wait, as {@link Statement}'s:
   * Avatica's execution of a prepared statement holds the statement's lock throughout (a
   * CozoScript script runs in it), so a cancel waited for the script to end. A cancel while
   * nothing executes does nothing: each {@code execute} call clears the flag when it is made
   * ({@link Connection#executeQueryInternal}).
   */
  private static final class PreparedStatement extends CalcitePreparedStatement {
    /** Where its batches are bound, when they go into a table's segment; else null. */
    private final SegmentBinder binder;

    PreparedStatement(CalciteConnectionImpl connection, Meta.StatementHandle h,
        Meta.Signature signature, int resultSetType, int resultSetConcurrency,
        int resultSetHoldability) throws SQLException {
      super(connection, h, signature, resultSetType, resultSetConcurrency,
          resultSetHoldability);
      this.binder = SegmentBinder.of(connection, signature);
    }

    // The setters the binder keeps unboxed (SegmentBinder): each checks the statement is
    // open, as Avatica's; an index out of range, or a value the binder does not keep, goes
    // Avatica's way.

    @Override public void setInt(int parameterIndex, int x) throws SQLException {
      checkOpen();
      if (binder != null && binder.setInt(parameterIndex, x)) {
        slots[parameterIndex - 1] = SegmentBinder.STAGED;
      } else {
        super.setInt(parameterIndex, x);
      }
    }

    @Override public void setLong(int parameterIndex, long x) throws SQLException {
      checkOpen();
      if (binder != null && binder.setLong(parameterIndex, x)) {
        slots[parameterIndex - 1] = SegmentBinder.STAGED;
      } else {
        super.setLong(parameterIndex, x);
      }
    }

    @Override public void setDouble(int parameterIndex, double x) throws SQLException {
      checkOpen();
      if (binder != null && binder.setDouble(parameterIndex, x)) {
        slots[parameterIndex - 1] = SegmentBinder.STAGED;
      } else {
        super.setDouble(parameterIndex, x);
      }
    }

    @Override public void setBoolean(int parameterIndex, boolean x) throws SQLException {
      checkOpen();
      if (binder != null && binder.setBoolean(parameterIndex, x)) {
        slots[parameterIndex - 1] = SegmentBinder.STAGED;
      } else {
        super.setBoolean(parameterIndex, x);
      }
    }

    @Override public void setString(int parameterIndex, String x) throws SQLException {
      checkOpen();
      if (binder != null && binder.setString(parameterIndex, x)) {
        slots[parameterIndex - 1] = SegmentBinder.STAGED;
      } else {
        super.setString(parameterIndex, x);
      }
    }

    @Override public void setNull(int parameterIndex, int sqlType) throws SQLException {
      checkOpen();
      if (binder != null && binder.setNull(parameterIndex)) {
        slots[parameterIndex - 1] = SegmentBinder.STAGED;
      } else {
        super.setNull(parameterIndex, sqlType);
      }
    }

    /**
     * A row of the batch: into the binder's block where it goes there as it is; otherwise the
     * rows bound so far and this one become Avatica's parameter lists, as do the batch's
     * later rows (the batch then takes the plan's path).
     */
    @Override public void addBatch() throws SQLException {
      checkOpen();
      if (binder != null) {
        if (parameterValueBatch.isEmpty() && binder.add(slots)) {
          return;
        }
        binder.spill(parameterValueBatch);
      }
      super.addBatch();
    }

    @Override public void clearBatch() throws SQLException {
      super.clearBatch();
      if (binder != null) {
        binder.clear();
      }
    }

    @Override public long[] executeLargeBatch() throws SQLException {
      try {
        return super.executeLargeBatch();
      } finally {
        if (binder != null) {
          binder.clear();
        }
      }
    }

    /** The rows its binder holds, or null when Avatica's lists hold them. */
    SegmentBinder boundBatch() {
      return binder == null || binder.isEmpty() ? null : binder;
    }

    /** As Avatica's, the binder's values in their slots first. */
    @Override protected List<TypedValue> getParameterValues() {
      if (binder != null) {
        binder.unstage(slots);
      }
      return super.getParameterValues();
    }

    /** As Avatica's, the binder's values in their slots first. */
    @Override protected List<TypedValue> copyParameterValues() {
      if (binder != null) {
        binder.unstage(slots);
      }
      return super.copyParameterValues();
    }

    @Override public void cancel() throws SQLException {
      checkOpen();
      cancelFlag.set(true);
    }

    /** {@link Connection#moreResults}, where Avatica's has none. */
    @Override public boolean getMoreResults(int current) throws SQLException {
      checkOpen();
      openResultSet = ((Connection) connection).moreResults(this, openResultSet, current);
      updateCount = -1;
      return openResultSet != null;
    }

    /**
     * As Avatica's: the timestamp's wall-clock fields in the JVM's zone as milliseconds, moved
     * by the connection zone's offset less that of the JVM's zone when Avatica started. Avatica
     * makes those fields with {@code Timestamp.toLocalDateTime} (a calendar computation per
     * value, a tenth of a bulk load's time); from the Gregorian reform on they are the instant
     * plus the JVM zone's offset at it, which this adds instead. An earlier timestamp goes
     * Avatica's way (its fields are Julian).
     */
    @Override public void setTimestamp(int parameterIndex, Timestamp x) throws SQLException {
      if (x == null || x.getTime() < GREGORIAN_MILLIS) {
        super.setTimestamp(parameterIndex, x);
        return;
      }
      getSite(parameterIndex); // checks the statement is open and the index
      final long time = x.getTime();
      final long local = time + TimeZone.getDefault().getOffset(time)
          + getCalendar().getTimeZone().getOffset(time)
          - DateTimeUtils.DEFAULT_ZONE.getOffset(time);
      slots[parameterIndex - 1] = binder != null && binder.setLong(parameterIndex, local)
          ? SegmentBinder.STAGED
          : TypedValue.ofSerial(ColumnMetaData.Rep.JAVA_SQL_TIMESTAMP, local);
    }

    /**
     * A {@code java.sql.Array} is bound as an ARRAY, as JDBC maps it ({@code setArray});
     * Avatica's bound it as an OBJECT, which the generated code failed to cast to a list.
     * The server binds every parameter of a thin client by this call.
     */
    @Override public void setObject(int parameterIndex, Object x) throws SQLException {
      if (x instanceof java.sql.Array array) {
        setArray(parameterIndex, array);
      } else {
        super.setObject(parameterIndex, x);
      }
    }
  }

  /** 1583-01-01 00:00 UTC: from then on, every zone's wall clock is in the Gregorian calendar. */
  private static final long GREGORIAN_MILLIS = -12_212_553_600_000L;

  /** {@code conformance} with checked arithmetic (see {@link Connection#config()}). */
  private static final class CheckedConformance extends SqlDelegatingConformance {
    CheckedConformance(SqlConformance conformance) {
      super(conformance);
    }

    @Override public boolean checkedArithmetic() {
      return true;
    }
  }

  /** Calcite's connection, whose preparation failures carry the SQLSTATE of their cause. */
  private static final class Connection extends CalciteConnectionImpl
      implements MnesticConnection {
    /** The zone of the {@code timeZone} property as last looked up, or null. */
    private volatile NamedZone zone;

    /** The driver's translation of a failure into what a caller sees. */
    private final Failures failures;

    Connection(Driver driver, AvaticaFactory factory, String url, Properties info,
        CalciteSchema rootSchema, JavaTypeFactory typeFactory) {
      super(driver, factory, url, info, rootSchema, typeFactory);
      this.failures = (Failures) driver;
    }

    private final TypeMap typeMap = new TypeMap();

    @Override public void registerFixedRule(String name, FixedRule rule) throws SQLException {
      checkOpen();
      HostExtensions.of(this).registerFixedRule(name, rule);
    }

    @Override public void registerAggregate(String name, boolean isMeet,
        Supplier<? extends Aggregators.Aggregator> factory) throws SQLException {
      checkOpen();
      HostExtensions.of(this).registerAggregate(name, isMeet, factory);
    }

    @Override public void registerBoundedMeetAggregate(String name,
        BiPredicate<Object, Object> dominates, int maxSurvivors) throws SQLException {
      checkOpen();
      HostExtensions.of(this).registerBoundedMeetAggregate(name, dominates, maxSurvivors);
    }

    /** The connection's type map (Avatica's refused the call; SchemaCrawler warned). */
    @Override public Map<String, Class<?>> getTypeMap() throws SQLException {
      checkOpen();
      return typeMap.get();
    }

    @Override public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
      checkOpen();
      typeMap.set(map);
    }

    /**
     * The connection's configuration, whose conformance has checked arithmetic: an exact
     * numeric {@code +}, {@code -}, {@code *}, {@code /} or negation whose result does not
     * fit its type ({@code CAST(2147483647 AS INT) + 1}) fails with SQLSTATE 22003, as in
     * PostgreSQL (HSQLDB widens the result's type, so it fails only on storing the value),
     * where Calcite's Java arithmetic wrapped silently. Calcite's preparation reads it from
     * here (its conformance enums tie checked arithmetic to other dialects' rules). Datalog
     * scripts do not prepare SQL, so their arithmetic keeps CozoDB's semantics.
     */
    @Override public CalciteConnectionConfig config() {
      return new CalciteConnectionConfigImpl(info) {
        @Override public SqlConformance conformance() {
          return new CheckedConformance(super.conformance());
        }
      };
    }

    /**
     * The zone the connection's {@code timeZone} setting names (Avatica's default: the JVM's
     * zone), as Avatica's: a copy each call, which its caller may change. Looked up once per
     * name: every execution asks for it, and {@code TimeZone.getTimeZone(String)} is
     * synchronized on the class: under the server bench's 32 clients of point reads,
     * executions waited on it 2.7-4.7 s in all.
     */
    @Override public TimeZone getTimeZone() {
      final String name = config().timeZone();
      if (name == null) {
        return TimeZone.getDefault();
      }
      NamedZone z = zone;
      if (z == null || !z.name.equals(name)) {
        z = new NamedZone(name, TimeZone.getTimeZone(name));
        zone = z;
      }
      return (TimeZone) z.zone.clone();
    }

    /** A zone and the name it was looked up by. */
    private record NamedZone(String name, TimeZone zone) {
    }

    @Override public CalcitePreparedStatement prepareStatement(String sql, int resultSetType,
        int resultSetConcurrency, int resultSetHoldability) throws SQLException {
      try {
        return super.prepareStatement(sql, resultSetType, resultSetConcurrency,
            resultSetHoldability);
      } catch (SQLException e) {
        // Calcite's wrapper says "Error while preparing statement [sql]" and no SQLSTATE.
        throw stated(e);
      }
    }

    /**
     * Runs a statement's SQL: its cancel flag cleared first, so that a {@code cancel()} from
     * here on (while it waits for the statement's lock, prepares or runs) stops it.
     */
    @Override protected Meta.ExecuteResult prepareAndExecuteInternal(AvaticaStatement statement,
        String sql, long maxRowCount) throws SQLException, NoSuchStatementException {
      getCancelFlag(statement.handle).set(false);
      return super.prepareAndExecuteInternal(statement, sql, maxRowCount);
    }

    /**
     * Executes a prepared statement (its cancel flag cleared first, as in
     * {@link #prepareAndExecuteInternal}), or makes a metadata call's result set.
     */
    @Override protected java.sql.ResultSet executeQueryInternal(AvaticaStatement statement,
        Meta.Signature signature, Meta.Frame firstFrame, QueryState state, boolean isUpdate)
        throws SQLException {
      if (statement instanceof PreparedStatement) {
        try {
          getCancelFlag(statement.handle).set(false);
        } catch (NoSuchStatementException e) {
          throw new SQLException("the statement is closed", "HY010", e);
        }
      }
      try {
        return super.executeQueryInternal(statement, signature, firstFrame, state, isUpdate);
      } catch (SQLException e) {
        // A PreparedStatement's execution: Avatica's wrapper has no SQLSTATE and says
        // "exception while executing query: ...".
        throw stated(e);
      }
    }

    /** A batch its {@link SegmentBinder} holds goes to the Meta whole. */
    @Override protected long[] executeBatchUpdateInternal(AvaticaPreparedStatement statement)
        throws SQLException {
      final SegmentBinder bound = statement instanceof PreparedStatement p
          ? p.boundBatch() : null;
      try {
        if (bound != null) {
          return bound.execute(meta, statement.handle);
        }
        return super.executeBatchUpdateInternal(statement);
      } catch (SQLException e) {
        throw stated(e);
      } catch (Exception e) {
        throw failures.of(e);
      }
    }

    /**
     * JDBC's {@code getMoreResults(current)} of {@code statement}, whose open result set is
     * {@code open}: the result after it ({@link DatalogSignature#next}: a CozoScript's
     * {@code %return a, b} gives {@code b}'s after {@code a}'s) executed, or null when there is
     * none; {@code open} is closed unless {@code current} is {@code KEEP_CURRENT_RESULT}.
     */
    AvaticaResultSet moreResults(AvaticaStatement statement, AvaticaResultSet open, int current)
        throws SQLException {
      if (current != java.sql.Statement.CLOSE_CURRENT_RESULT
          && current != java.sql.Statement.KEEP_CURRENT_RESULT
          && current != java.sql.Statement.CLOSE_ALL_RESULTS) {
        throw new SQLException("getMoreResults takes CLOSE_CURRENT_RESULT, KEEP_CURRENT_RESULT"
            + " or CLOSE_ALL_RESULTS, not " + current, "HY024");
      }
      final Meta.Signature next = open instanceof CalciteResultSet calcite
          ? DatalogSignature.next(calcite.getSignature()) : null;
      if (open != null && current != java.sql.Statement.KEEP_CURRENT_RESULT) {
        open.close();
      }
      if (next == null) {
        return null;
      }
      return ((CalciteResultSet) factory.newResultSet(statement, new QueryState(), next,
          getTimeZone(), null)).execute();
    }

    /** What a caller gets for {@code e}, an SQLException Avatica or Calcite wrapped around it. */
    private SQLException stated(SQLException e) {
      return e.getSQLState() == null && e.getCause() != null ? failures.of(e.getCause()) : e;
    }
  }
}
