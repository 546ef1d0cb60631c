package dev.mnestic.store;

import java.sql.SQLException;
import java.util.List;

/**
 * What runs a relation's CozoScript triggers ({@code ::set_triggers}, kept in its
 * {@link TablePolicy}) for an SQL write of its table. The store cannot run CozoScript (the
 * Datalog front end sits above it): the driver gives each {@link Session} the front end's runner
 * ({@link Session#runTriggersWith}), as it gives the SQL pipeline the standing queries through
 * sql-dialect's interface. {@link StoreWrites} calls it inside the writing statement, after the
 * statement's rows are written and before it commits, so the triggers' writes and the
 * statement's stay or go together ({@link TriggeredWrite} says what each firing gets).
 */
@FunctionalInterface
public interface TableTriggers {
  /**
   * Runs, in {@code session}'s open transaction, the put ({@code removes} false) or rm triggers
   * of the store's table {@code table} (its stored name), each as CozoScript's write of the same
   * rows runs it: rows hold the table's columns in table order, each value as the store's JDBC
   * gives it ({@code getObject}).
   *
   * @param added for put, the rows as the write left them ({@code _new}); for rm, the rows
   *     removed, whose keys are {@code _new}
   * @param removed the rows the write replaced (put) or removed (rm): {@code _old}
   * @throws SQLException the failure of a trigger, with its SQLSTATE; the statement then fails
   *     and nothing of it stays
   */
  void fire(Session session, String table, boolean removes, List<Object[]> added,
      List<Object[]> removed) throws SQLException;
}
