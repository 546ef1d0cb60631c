package dev.mnestic.jdbc;

import dev.mnestic.datalog.Engine;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.value.Aggregators;
import dev.mnestic.value.FixedRule;

import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.schema.SchemaPlus;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * What a Java host registered on each embedded connection ({@link MnesticConnection}), and the
 * {@link Engine} that a connection's CozoScript runs with: its scripts ({@code lang=datalog})
 * and the triggers its SQL writes fire ({@link #fireTriggers}, the store's
 * {@link dev.mnestic.store.TableTriggers}). Registrations last until the connection closes.
 */
public final class HostExtensions {
  private static final Map<CalciteConnection, HostExtensions> OF = new ConcurrentHashMap<>();

  /** The engine with every registration so far (replaced, never changed: engines are immutable). */
  private volatile Engine registered;

  private HostExtensions(CalciteConnection connection) {
    this.registered = new Engine(connection);
  }

  /** The registrations of {@code connection}, none at first. */
  public static HostExtensions of(CalciteConnection connection) {
    return OF.computeIfAbsent(connection, HostExtensions::new);
  }

  /** Forgets {@code connection}'s registrations: it closed. */
  static void close(CalciteConnection connection) {
    OF.remove(connection);
  }

  /**
   * The engine that runs {@code connection}'s CozoScript: its registrations, keeping the tables
   * standing queries read, reading the files the connection's {@code allowRead} allows.
   */
  static Engine engine(CalciteConnection connection) {
    final SchemaPlus root = connection.getRootSchema();
    return of(connection).registered
        .keepingTablesReadBy(table -> Standing.queries().readersOf(root, table))
        .readingFiles(Driver.readPolicy(connection.getProperties()));
  }

  /**
   * Runs the triggers of an SQL write of {@code connection} ({@link Engine#fireTriggers}); a
   * trigger's script error becomes the statement's SQLException, with the error's SQLSTATE
   * ({@link SqlFailures#datalogState}) and its code, message and help; the triggers stop with
   * the statement (its cancel, its timeout), failing with the stop's SQLSTATE.
   */
  static void fireTriggers(CalciteConnection connection, String table, boolean removes,
      List<Object[]> added, List<Object[]> removed) throws SQLException {
    // stopped with the writing statement (its cancel, its timeout), as a script it runs is
    final RunningStatement statement = RunningStatement.current();
    final Engine engine = engine(connection);
    try {
      (statement == null ? engine : engine.stoppedBy(0, statement.flag()))
          .fireTriggers(table, removes, added, removed);
    } catch (DatalogException e) {
      final SQLException stopped = statement == null ? null : statement.error(e);
      if (stopped != null) {
        // the trigger's eval::killed, with the stop's SQLSTATE (HYT00, 57014)
        throw new SQLException(SqlFailures.cut(e.render(null) + " (" + stopped.getMessage()
            + ")"), stopped.getSQLState(), e);
      }
      throw new SQLException(SqlFailures.cut(e.render(null)),
          SqlFailures.datalogState(e.errorCode()), e);
    }
  }

  public void registerFixedRule(String name, FixedRule rule) throws SQLException {
    register(e -> e.withFixedRule(name, rule));
  }

  public void registerAggregate(String name, boolean isMeet,
      Supplier<? extends Aggregators.Aggregator> factory) throws SQLException {
    register(e -> e.withAggregate(name, isMeet, factory));
  }

  public void registerBoundedMeetAggregate(String name, BiPredicate<Object, Object> dominates,
      int maxSurvivors) throws SQLException {
    register(e -> e.withBoundedMeetAggregate(name, dominates, maxSurvivors));
  }

  /** The engine {@code registration} derives becomes the connection's; refused, nothing changes. */
  private synchronized void register(UnaryOperator<Engine> registration) throws SQLException {
    try {
      registered = registration.apply(registered);
    } catch (IllegalArgumentException e) {
      final String message = String.valueOf(e.getMessage());
      throw new SQLException(message, message.contains("already") ? "42710"
          : message.contains("identifier") ? "42602" : "22023", e);
    }
  }
}
