package dev.mnestic.store;

/**
 * A batch of a {@link StoreWrites.DirectInsert} bound straight into a block of its table's
 * {@link Segment}: each parameter's value is kept unboxed as it is set (by parameter index,
 * from 0), and {@link #add} appends the row the values make to the block, as
 * {@link StoreWrites#insertBatch(Session, StoreWrites.DirectInsert, StoreWrites.BatchRows)}
 * would from the same values, with no list of boxed values per row. The embedded driver's
 * prepared INSERT binds its batches here; {@link StoreWrites#insertBatch(Session, SegmentBatch)}
 * appends the block in the session's transaction.
 *
 * <p>A setter, or {@link #add}, answers false where the value or the row would not go into
 * the segment as it is (a value of another Java class than the plan holds for its column, a
 * row breaking NOT NULL or a VARCHAR's length): the caller then hands the batch's rows
 * ({@link #value}) to the plan's path, which converts the value, or fails on the row, exactly
 * as before. Not thread-safe: one statement's.
 */
public final class SegmentBatch {
  final Segment segment;
  final StoreWrites.DirectInsert insert;
  /** The column each parameter's value goes to. */
  private final int[] columns;
  private final Segment.Row row;
  private Segment.Block block;
  /** How many rows the last batch handed over had: the next block's first room. */
  private int last = 1024;

  private SegmentBatch(Segment segment, StoreWrites.DirectInsert insert, int[] columns) {
    this.segment = segment;
    this.insert = insert;
    this.columns = columns;
    this.row = new Segment.Row(segment);
  }

  /**
   * A batch for {@code insert}, which has {@code parameters} parameters, or null when its
   * table takes no segment ({@link Segment}'s rule), or a parameter is not exactly one
   * column's value.
   */
  public static SegmentBatch of(Session session, StoreWrites.DirectInsert insert,
      int parameters) {
    final TableVersions versions = session.versions();
    final Segment segment = versions == null ? null : versions.segment(insert.table());
    if (segment == null || segment.kinds.length != insert.parameters().length) {
      return null;
    }
    final int[] columns = new int[parameters];
    java.util.Arrays.fill(columns, -1);
    for (int c = 0; c < segment.kinds.length; c++) {
      final int p = insert.parameters()[c];
      if (p < 0) {
        continue;
      }
      if (p >= parameters || columns[p] >= 0 || insert.classes()[c] != switch (segment.kinds[c]) {
        case INTEGER -> Integer.class;
        case BIGINT, TIMESTAMP -> Long.class;
        case BOOLEAN -> Boolean.class;
        case DOUBLE -> Double.class;
        case VARCHAR -> String.class;
      }) {
        return null;
      }
      columns[p] = c;
    }
    for (int c : columns) {
      if (c < 0) {
        return null;
      }
    }
    return new SegmentBatch(segment, insert, columns);
  }

  /** How many parameters a row has. */
  public int parameters() {
    return columns.length;
  }

  /** Parameter {@code p} takes {@code v}; false when its column holds no INTEGER. */
  public boolean setInt(int p, int v) {
    return row.setInt(columns[p], v);
  }

  /** Parameter {@code p} takes {@code v}; false when its column holds no BIGINT or TIMESTAMP. */
  public boolean setLong(int p, long v) {
    return row.setLong(columns[p], v);
  }

  /** Parameter {@code p} takes {@code v}; false when its column holds no BOOLEAN. */
  public boolean setBoolean(int p, boolean v) {
    return row.setBoolean(columns[p], v);
  }

  /** Parameter {@code p} takes {@code v}; false when its column holds no DOUBLE. */
  public boolean setDouble(int p, double v) {
    return row.setDouble(columns[p], v);
  }

  /** Parameter {@code p} takes {@code v} (null: NULL); false when its column holds no VARCHAR. */
  public boolean setString(int p, String v) {
    return row.setString(columns[p], v);
  }

  /**
   * Parameter {@code p} takes {@code v}, a value as the plan holds it (null: NULL); false
   * when it is of another Java class than the plan holds for its column.
   */
  public boolean set(int p, Object v) {
    return row.set(columns[p], v);
  }

  /** Parameter {@code p}'s value as last set, as the plan holds it (null: NULL). */
  public Object get(int p) {
    return row.get(columns[p]);
  }

  /**
   * Appends the row the parameters' values make; false, appending nothing, when it breaks
   * NOT NULL or a VARCHAR's length (the plan's path then reports it).
   */
  public boolean add() {
    if (row.fault() != null) {
      return false;
    }
    if (block == null) {
      block = new Segment.Block(segment, Math.max(1024, last));
    }
    block.add(row);
    return true;
  }

  /** How many rows were added since the last {@link #clear}. */
  public int size() {
    return block == null ? 0 : block.count;
  }

  /** Parameter {@code p}'s value in row {@code i}, as the plan holds it (null: NULL). */
  public Object value(int i, int p) {
    return block.planValue(columns[p], i);
  }

  /** Forgets the rows added (the parameters' values stay). */
  public void clear() {
    block = null;
  }

  /** The rows added, which the batch forgets. */
  Segment.Block take() {
    final Segment.Block b = block;
    block = null;
    if (b != null) {
      last = b.count;
    }
    return b;
  }
}
