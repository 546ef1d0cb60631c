package dev.mnestic.jdbc;

import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreWrites;

import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Enumerable;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A prepared {@code INSERT INTO t [(columns)] VALUES (?, ?, ...)} whose batches are bound
 * straight into the store ({@link StoreWrites.DirectInsert}): planned and validated once, as
 * any statement, then {@code executeBatch} converts each row's parameter values as the plan
 * would read them and hands them to HSQLDB's own INSERT, in one transaction, without running
 * the plan per row. A single {@code execute} runs the plan, as for any statement.
 *
 * @param <T> as Calcite's signature's
 */
final class DirectInsertSignature<T> extends CalcitePrepare.CalciteSignature<T> {
  private final CalcitePrepare.CalciteSignature<T> planned;
  private final StoreWrites.DirectInsert insert;

  DirectInsertSignature(CalcitePrepare.CalciteSignature<T> planned,
      StoreWrites.DirectInsert insert) {
    super(planned.sql, planned.parameters, planned.internalParameters, planned.rowType,
        planned.columns, planned.cursorFactory, planned.rootSchema,
        planned.getCollationList(), -1, null, planned.statementType);
    this.planned = planned;
    this.insert = insert;
  }

  /** The INSERT its batches bind. */
  StoreWrites.DirectInsert insert() {
    return insert;
  }

  /** The plan's rows (its update count), as the planned statement's. */
  @Override public Enumerable<T> enumerable(DataContext dataContext) {
    return planned.enumerable(dataContext);
  }

  /** Runs the plan for one row of a batch; returns its update count. */
  @FunctionalInterface
  interface Plan {
    long run(List<TypedValue> row) throws SQLException, NoSuchStatementException;
  }

  /**
   * Inserts the rows {@code batch} (one list of parameter values each) in one transaction
   * ({@link StoreWrites#insertBatch}). A row holding a value of another Java class than the
   * plan holds for its column ({@code setString} of a DOUBLE parameter) is written by
   * {@code plan}, so that it converts, or fails, exactly as a single execution would. Stops
   * when {@code running} is stopped (its cancel, its timeout).
   *
   * @throws java.sql.BatchUpdateException naming the first row that failed (its index in the
   *     batch, from 0), with its SQLSTATE; nothing of the batch is then stored
   */
  long[] executeBatch(Session session, List<List<TypedValue>> batch, RunningStatement running,
      Plan plan) throws SQLException {
    return StoreWrites.insertBatch(session, insert, new StoreWrites.BatchRows() {
      @Override public int size() {
        return batch.size();
      }

      @Override public Object[] row(int i) throws SQLException {
        running.check();
        final List<TypedValue> row = batch.get(i);
        final List<Object> values = new ArrayList<>(row.size());
        for (int p = 0; p < row.size(); p++) {
          if (row.get(p) == null) {
            throw new SQLException("parameter " + (p + 1) + " is not set", "07001");
          }
          // as Calcite hands a parameter to the plan (CalciteConnectionImpl.enumerable)
          values.add(row.get(p).toLocal());
        }
        return insert.row(values);
      }

      @Override public long runPlan(int i) throws SQLException {
        try {
          return plan.run(batch.get(i));
        } catch (NoSuchStatementException e) {
          throw new SQLException("the statement is closed", "HY010", e);
        }
      }
    });
  }
}
