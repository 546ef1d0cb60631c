package dev.mnestic.jdbc;

import dev.mnestic.store.SegmentBatch;
import dev.mnestic.store.Session;

import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.CalciteConnection;

import java.util.ArrayList;
import java.util.List;

/**
 * The batches of an embedded prepared INSERT that {@link DirectInsertSignature} binds straight
 * into the store, bound into its table's segment as the parameters are set
 * ({@link SegmentBatch}): {@code setInt}, {@code setLong}, {@code setDouble},
 * {@code setBoolean}, {@code setString}, {@code setNull} and {@code setTimestamp} of a value
 * the plan holds as it is keep it unboxed, and the statement's slot of that parameter holds
 * {@link #STAGED}; any other setter fills the slot as Avatica does, and {@link #add} takes
 * the slot's value as the plan would ({@code TypedValue.toLocal}). {@code executeBatch} hands
 * the rows over as one block. Where a row does not go into the segment as it is (a value of
 * another class, which the plan converts, a row that breaks NOT NULL or a VARCHAR's length, an
 * unset parameter), the batch's rows become Avatica's parameter lists ({@link #spill}) and
 * the batch takes the plan's path ({@link MnesticMeta#executeBatch}), which converts or fails
 * as before; so does a batch whose table no longer takes the segment when it executes.
 */
public final class SegmentBinder {
  /** A slot's value while its parameter's value is in the binder. */
  public static final TypedValue STAGED =
      TypedValue.ofLocal(ColumnMetaData.Rep.STRING, "(bound into a segment batch)");

  private final SegmentBatch batch;

  private SegmentBinder(SegmentBatch batch) {
    this.batch = batch;
  }

  /**
   * The binder of a prepared statement of {@code connection} with {@code signature}, or null
   * when it is not an INSERT whose rows go into a table's segment.
   */
  public static SegmentBinder of(CalciteConnection connection, Meta.Signature signature) {
    if (!(signature instanceof DirectInsertSignature<?> insert)) {
      return null;
    }
    final SegmentBatch batch = SegmentBatch.of(Session.of(connection.getRootSchema()),
        insert.insert(), signature.parameters.size());
    return batch == null ? null : new SegmentBinder(batch);
  }

  /** Whether {@code index} (from 1) names a parameter. */
  private boolean has(int index) {
    return index >= 1 && index <= batch.parameters();
  }

  /** Parameter {@code index} (from 1) takes {@code v}; false when the binder does not keep it. */
  public boolean setInt(int index, int v) {
    return has(index) && batch.setInt(index - 1, v);
  }

  /** As {@link #setInt}. */
  public boolean setLong(int index, long v) {
    return has(index) && batch.setLong(index - 1, v);
  }

  /** As {@link #setInt}. */
  public boolean setDouble(int index, double v) {
    return has(index) && batch.setDouble(index - 1, v);
  }

  /** As {@link #setInt}. */
  public boolean setBoolean(int index, boolean v) {
    return has(index) && batch.setBoolean(index - 1, v);
  }

  /** As {@link #setInt} (null: NULL). */
  public boolean setString(int index, String v) {
    return has(index) && batch.setString(index - 1, v);
  }

  /** As {@link #setInt}: NULL. */
  public boolean setNull(int index) {
    return has(index) && batch.setString(index - 1, null);
  }

  /**
   * Adds the row {@code slots} hold (each {@link #STAGED} or Avatica's value); false, adding
   * nothing, when it does not go into the segment as it is.
   */
  public boolean add(TypedValue[] slots) {
    for (int p = 0; p < slots.length; p++) {
      final TypedValue slot = slots[p];
      if (slot != STAGED && (slot == null || !batch.set(p, slot.toLocal()))) {
        return false;
      }
    }
    return batch.add();
  }

  /** Fills each {@link #STAGED} slot of {@code slots} with its parameter's value, as Avatica. */
  public void unstage(TypedValue[] slots) {
    for (int p = 0; p < slots.length; p++) {
      if (slots[p] == STAGED) {
        slots[p] = typed(batch.get(p));
      }
    }
  }

  /** Moves the rows added to {@code lists}, as Avatica's parameter lists. */
  public void spill(List<List<TypedValue>> lists) {
    final int n = batch.size();
    for (int i = 0; i < n; i++) {
      final List<TypedValue> row = new ArrayList<>(batch.parameters());
      for (int p = 0; p < batch.parameters(); p++) {
        row.add(typed(batch.value(i, p)));
      }
      lists.add(row);
    }
    batch.clear();
  }

  /** Whether rows were added since the batch was last executed or cleared. */
  public boolean isEmpty() {
    return batch.size() == 0;
  }

  /** Forgets the rows added. */
  public void clear() {
    batch.clear();
  }

  /**
   * Executes the rows added, as one batch of the statement {@code h} of {@code meta} (the
   * connection's), and forgets them; returns each row's update count.
   */
  public long[] execute(Meta meta, Meta.StatementHandle h) throws NoSuchStatementException {
    return ((MnesticMeta) meta).executeBatch(h, batch, this::lists);
  }

  /** The rows added as Avatica's parameter lists, which the binder forgets. */
  private List<List<TypedValue>> lists() {
    final List<List<TypedValue>> lists = new ArrayList<>(batch.size());
    spill(lists);
    return lists;
  }

  /** {@code local}, a value as the plan holds it, as a parameter's value that gives it. */
  private static TypedValue typed(Object local) {
    return local == null ? TypedValue.EXPLICIT_NULL
        : TypedValue.ofLocal(local instanceof Integer ? ColumnMetaData.Rep.INTEGER
            : local instanceof Long ? ColumnMetaData.Rep.LONG
            : local instanceof Double ? ColumnMetaData.Rep.DOUBLE
            : local instanceof Boolean ? ColumnMetaData.Rep.BOOLEAN
            : ColumnMetaData.Rep.STRING, local);
  }
}
