package dev.mnestic.store;

import org.hsqldb.Constraint;
import org.hsqldb.DatabaseType;
import org.hsqldb.SchemaObject;
import org.hsqldb.Table;
import org.hsqldb.types.Type;
import org.hsqldb.types.Types;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The append-only columnar segment of one store table: rows a bulk load appended
 * ({@link StoreWrites#insertBatch}: a JDBC batch INSERT, {@code mnestic import --csv}) kept as
 * primitive column arrays, with no HSQLDB row, no index node and no row action.
 *
 * <p>Each batch becomes one {@link Block}, pending in its session's transaction
 * ({@link TableVersions#append}); the transaction's commit publishes its blocks with the
 * commit's change number, a rollback (whole, or to a savepoint set before them) drops them.
 * A statement's read of the table ({@link StoreSnapshot#read}) takes HSQLDB's rows and the
 * published blocks whose change number is below what its statement (READ COMMITTED) or
 * transaction (REPEATABLE READ, SERIALIZABLE) sees, as HSQLDB's own visibility check counts a
 * committed row, and its session's own pending blocks. Any other HSQLDB statement that
 * touches the table (UPDATE, DELETE, a key lookup run as SQL, DDL, a Datalog write) first
 * folds the segment into HSQLDB's rows ({@link TableVersions#beginAction}): the session's own
 * pending blocks become its own uncommitted inserts, the published blocks rows whose commit
 * change number is their block's, so that every transaction keeps seeing what it saw.
 *
 * <p>Which tables take this path, one rule: a table of an in-memory store with no primary
 * key, no unique or foreign key constraint, no check other than NOT NULL, no HSQLDB trigger,
 * identity or generated column, whose columns are all INTEGER, BIGINT, BOOLEAN, DOUBLE,
 * VARCHAR or TIMESTAMP with at least millisecond precision (what metric tables are); a batch
 * into it takes it when every row's values are those the plan holds ({@code BatchRows.row}
 * gives each row). Every other batch, and every batch into a file store, takes HSQLDB's
 * INSERT as before: a file store would need the segment written to a file of its own and
 * synced at commit, which is not built.
 */
final class Segment {
  /** How a column's values are kept: long, double or String arrays. */
  enum Kind {
    INTEGER, BIGINT, BOOLEAN, TIMESTAMP, DOUBLE, VARCHAR
  }

  final Table table;
  final Kind[] kinds;
  final Type[] types;
  final boolean[] notNull;
  /** Readers hold it while they decide what they see; a fold or a publish writes. */
  final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  /** The committed blocks not yet folded, in commit order (under {@link #lock}). */
  final List<Block> published = new ArrayList<>();

  private Segment(Table table, Kind[] kinds) {
    this.table = table;
    this.kinds = kinds;
    this.types = table.getColumnTypes();
    this.notNull = new boolean[kinds.length];
    for (int c = 0; c < kinds.length; c++) {
      notNull[c] = !table.getColumn(c).isNullable();
    }
  }

  private String name(int c) {
    return table.getColumn(c).getName().name;
  }

  /** A segment for {@code table} of {@code database}, or null when the rule above says none. */
  static Segment of(org.hsqldb.Database database, Table table) {
    if (database.getType() != DatabaseType.DB_MEM || table.hasPrimaryKey()
        || table.hasIdentityColumn() || table.hasGeneratedColumn() || table.hasLobColumn()
        || table.getTriggers().length > 0) {
      return null;
    }
    for (Constraint c : table.getConstraints()) {
      if (c.getConstraintType() != SchemaObject.ConstraintTypes.CHECK || !c.isNotNull()) {
        return null;
      }
    }
    final Kind[] kinds = new Kind[table.getColumnCount()];
    for (int i = 0; i < kinds.length; i++) {
      final Type type = table.getColumn(i).getDataType();
      kinds[i] = switch (type.typeCode) {
      case Types.SQL_INTEGER -> Kind.INTEGER;
      case Types.SQL_BIGINT -> Kind.BIGINT;
      case Types.SQL_BOOLEAN -> Kind.BOOLEAN;
      case Types.SQL_DOUBLE -> Kind.DOUBLE;
      case Types.SQL_VARCHAR -> Kind.VARCHAR;
      case Types.SQL_TIMESTAMP -> type.scale >= 3 ? Kind.TIMESTAMP : null;
      default -> null;
      };
      if (kinds[i] == null) {
        return null;
      }
    }
    return new Segment(table, kinds);
  }

  /**
   * The rows of {@code rows} as a block, or null when one holds a value of another Java class
   * than its column's plan holds (the batch then takes HSQLDB's INSERT whole); a row that
   * breaks NOT NULL or a VARCHAR's length fails with a {@code BatchUpdateException} naming it,
   * as HSQLDB's INSERT of the same rows would ({@link Row#fault}).
   */
  Block block(StoreWrites.BatchRows rows) throws SQLException {
    final Row staged = new Row(this);
    final Block b = new Block(this, rows.size());
    for (int i = 0; i < rows.size(); i++) {
      final Object[] row;
      try {
        row = rows.row(i);
      } catch (SQLException e) {
        throw StoreWrites.failedRow(i, e);
      }
      if (row == null) {
        return null;
      }
      for (int c = 0; c < row.length; c++) {
        if (!staged.set(c, row[c])) {
          return null;
        }
      }
      final SQLException fault = staged.fault();
      if (fault != null) {
        throw StoreWrites.failedRow(i, fault);
      }
      b.add(staged);
    }
    return b;
  }

  /** What a read of the table sees of the segment: blocks, in order. */
  record Seen(List<Block> blocks) {
  }

  /**
   * One row's values as they are bound, column by column, unboxed: the value of an INTEGER,
   * BIGINT, BOOLEAN (0 or 1) or TIMESTAMP (milliseconds as Calcite holds them) column in
   * {@link #longs}, of a DOUBLE in {@link #doubles}, of a VARCHAR in {@link #strings}; a column
   * never set is NULL. {@link Block#add} appends it; it keeps its values for the next row.
   */
  static final class Row {
    final Segment segment;
    final long[] longs;
    final double[] doubles;
    final String[] strings;
    final boolean[] nulls;
    /**
     * Each VARCHAR column's values last appended, by hash ({@link #RECENT} slots, made at the
     * column's first value): an appended value equal to the one in its slot is stored as that
     * one, so that a column of few distinct values (a metric's host, its tags) keeps one
     * String per value, not one per row, and the rows' own die young.
     */
    private final String[][] recent;

    /** Slots of {@link #recent} per VARCHAR column (a power of 2). */
    private static final int RECENT = 1024;

    Row(Segment segment) {
      this.segment = segment;
      final int n = segment.kinds.length;
      this.longs = new long[n];
      this.doubles = new double[n];
      this.strings = new String[n];
      this.nulls = new boolean[n];
      this.recent = new String[n][];
      java.util.Arrays.fill(nulls, true);
    }

    /** {@code s}, VARCHAR column {@code c}'s value appended now, or an equal earlier one. */
    String shared(int c, String s) {
      String[] r = recent[c];
      if (r == null) {
        r = new String[RECENT];
        recent[c] = r;
      }
      final int h = s.hashCode();
      final int slot = (h ^ h >>> 16) & (RECENT - 1);
      final String had = r[slot];
      if (s.equals(had)) {
        return had;
      }
      r[slot] = s;
      return s;
    }

    /** Column {@code c} takes {@code v}; false when it holds no INTEGER. */
    boolean setInt(int c, int v) {
      if (segment.kinds[c] != Kind.INTEGER) {
        return false;
      }
      longs[c] = v;
      nulls[c] = false;
      return true;
    }

    /**
     * Column {@code c} takes {@code v}; false when it holds no BIGINT or TIMESTAMP, or for a
     * TIMESTAMP before the Gregorian reform (HSQLDB converts those from their text).
     */
    boolean setLong(int c, long v) {
      if (segment.kinds[c] != Kind.BIGINT && (segment.kinds[c] != Kind.TIMESTAMP
          || v < StoreWrites.GREGORIAN_MILLIS)) {
        return false;
      }
      longs[c] = v;
      nulls[c] = false;
      return true;
    }

    /** Column {@code c} takes {@code v}; false when it holds no BOOLEAN. */
    boolean setBoolean(int c, boolean v) {
      if (segment.kinds[c] != Kind.BOOLEAN) {
        return false;
      }
      longs[c] = v ? 1 : 0;
      nulls[c] = false;
      return true;
    }

    /** Column {@code c} takes {@code v}; false when it holds no DOUBLE. */
    boolean setDouble(int c, double v) {
      if (segment.kinds[c] != Kind.DOUBLE) {
        return false;
      }
      doubles[c] = v;
      nulls[c] = false;
      return true;
    }

    /** Column {@code c} takes {@code v} (null: NULL); false when it holds no VARCHAR. */
    boolean setString(int c, String v) {
      if (v == null) {
        nulls[c] = true;
        return true;
      }
      if (segment.kinds[c] != Kind.VARCHAR) {
        return false;
      }
      strings[c] = v;
      nulls[c] = false;
      return true;
    }

    /**
     * Column {@code c} takes {@code v}, a value as the plan holds it (null: NULL); false when
     * its Java class is not the one the plan holds for the column.
     */
    boolean set(int c, Object v) {
      if (v == null) {
        nulls[c] = true;
        return true;
      }
      return v instanceof Integer n ? setInt(c, n)
          : v instanceof Long n ? setLong(c, n)
          : v instanceof Double d ? setDouble(c, d)
          : v instanceof Boolean b ? setBoolean(c, b)
          : v instanceof String s && setString(c, s);
    }

    /** Column {@code c}'s value as the plan holds it (null: NULL). */
    Object get(int c) {
      if (nulls[c]) {
        return null;
      }
      return switch (segment.kinds[c]) {
      case INTEGER -> (int) longs[c];
      case BIGINT, TIMESTAMP -> longs[c];
      case BOOLEAN -> longs[c] != 0;
      case DOUBLE -> doubles[c];
      case VARCHAR -> strings[c];
      };
    }

    /**
     * Why the row cannot be stored, as HSQLDB's INSERT finds it, or null when it can: the
     * first value its column cannot hold, as HSQLDB converting the row's values in column
     * order (a VARCHAR too long, its spaces past the length aside: SQLSTATE 22001; a TIMESTAMP
     * from the year 10000 on: 22008), else the first NULL in a NOT NULL column (23502, as
     * HSQLDB's check of the row).
     */
    SQLException fault() {
      for (int c = 0; c < nulls.length; c++) {
        if (nulls[c]) {
          continue;
        }
        if (segment.kinds[c] == Kind.TIMESTAMP) {
          if (Math.floorDiv(longs[c], 1000) > org.hsqldb.types.DateTimeType.epochLimitSeconds) {
            return new SQLException("data exception: datetime field overflow; table: "
                + segment.table.getName().name + " column: " + segment.name(c), "22008");
          }
          continue;
        }
        if (segment.kinds[c] != Kind.VARCHAR) {
          continue;
        }
        final String s = strings[c];
        final long length = segment.types[c].precision;
        for (int k = (int) length; k < s.length(); k++) {
          if (s.charAt(k) != ' ') {
            return new SQLException("data exception: string data, right truncation; table: "
                + segment.table.getName().name + " column: " + segment.name(c)
                + " holds VARCHAR(" + length + "), the value has " + s.length()
                + " characters", "22001");
          }
        }
      }
      for (int c = 0; c < nulls.length; c++) {
        if (nulls[c] && segment.notNull[c]) {
          return new SQLException("integrity constraint violation: NOT NULL check "
              + "constraint; table: " + segment.table.getName().name + " column: "
              + segment.name(c), "23502");
        }
      }
      return null;
    }
  }

  /**
   * One batch's rows, column by column: {@code long[]} (INTEGER, BIGINT, BOOLEAN as 0 or 1,
   * TIMESTAMP as milliseconds as Calcite holds them), {@code double[]} or {@code String[]}, and
   * a bitmap of the nulls of each column that has any. Appended to while its batch is bound
   * (its arrays grow), then only read.
   */
  static final class Block {
    final Segment segment;
    private final Object[] columns;
    private final long[][] nulls;
    /** Rows the arrays have room for. */
    private int capacity;
    int count;
    /** Pending: the change number when appended; published: the commit's change number. */
    long scn;

    Block(Segment segment, int capacity) {
      this.segment = segment;
      this.capacity = capacity;
      this.columns = new Object[segment.kinds.length];
      this.nulls = new long[segment.kinds.length][];
      for (int c = 0; c < columns.length; c++) {
        columns[c] = switch (segment.kinds[c]) {
        case DOUBLE -> new double[capacity];
        case VARCHAR -> new String[capacity];
        default -> new long[capacity];
        };
      }
    }

    /**
     * Appends {@code row}, which has no fault ({@link Row#fault}): a VARCHAR's spaces past
     * its length are cut, as HSQLDB stores it.
     */
    void add(Row row) {
      final int i = count;
      if (i == capacity) {
        grow();
      }
      for (int c = 0; c < columns.length; c++) {
        if (row.nulls[c]) {
          if (nulls[c] == null) {
            nulls[c] = new long[(capacity + 63) >>> 6];
          }
          nulls[c][i >>> 6] |= 1L << i;
          continue;
        }
        switch (segment.kinds[c]) {
        case DOUBLE -> ((double[]) columns[c])[i] = row.doubles[c];
        case VARCHAR -> {
          final String s = row.strings[c];
          final int length = (int) Math.min(segment.types[c].precision, Integer.MAX_VALUE);
          ((String[]) columns[c])[i] =
              row.shared(c, s.length() <= length ? s : s.substring(0, length));
        }
        default -> ((long[]) columns[c])[i] = row.longs[c];
        }
      }
      count++;
    }

    /** Half as much room again (at least 1,024 rows) in every column. */
    private void grow() {
      capacity = Math.max(1024, capacity + (capacity >> 1));
      for (int c = 0; c < columns.length; c++) {
        final Object a = columns[c];
        columns[c] = a instanceof long[] l ? java.util.Arrays.copyOf(l, capacity)
            : a instanceof double[] d ? java.util.Arrays.copyOf(d, capacity)
            : java.util.Arrays.copyOf((String[]) a, capacity);
        if (nulls[c] != null) {
          nulls[c] = java.util.Arrays.copyOf(nulls[c], (capacity + 63) >>> 6);
        }
      }
    }

    /** Row {@code i}'s column {@code c} as the plan holds it (null: NULL). */
    Object planValue(int c, int i) {
      if (isNull(c, i)) {
        return null;
      }
      return switch (segment.kinds[c]) {
      case INTEGER -> (int) ((long[]) columns[c])[i];
      case BIGINT, TIMESTAMP -> ((long[]) columns[c])[i];
      case BOOLEAN -> ((long[]) columns[c])[i] != 0;
      case DOUBLE -> ((double[]) columns[c])[i];
      case VARCHAR -> ((String[]) columns[c])[i];
      };
    }

    boolean isNull(int c, int i) {
      return nulls[c] != null && (nulls[c][i >>> 6] & 1L << i) != 0;
    }

    /** Column {@code c} of row {@code i} as HSQLDB holds it in a row. */
    Object hsqldbValue(org.hsqldb.Session session, int c, int i) {
      return segment.kinds[c] == Kind.TIMESTAMP && !isNull(c, i)
          ? StoreWrites.timestampValue(session, segment.types[c], ((long[]) columns[c])[i])
          : planValue(c, i);
    }

    /** Row {@code i} as HSQLDB holds it. */
    Object[] hsqldbRow(org.hsqldb.Session session, int i) {
      final Object[] row = new Object[columns.length];
      for (int c = 0; c < row.length; c++) {
        row[c] = hsqldbValue(session, c, i);
      }
      return row;
    }

    /**
     * Column {@code c} of row {@code i} read as {@code how} says, the same value as
     * {@link StoreReads#read} gives for the value HSQLDB would hold: straight from the array
     * where the column is read as its own type, else through HSQLDB's value.
     */
    Object read(StoreSnapshot s, int c, int i, StoreReads.Read how) {
      if (isNull(c, i)) {
        return null;
      }
      final Object values = columns[c];
      switch (segment.kinds[c]) {
      case INTEGER:
        if (how == StoreReads.Read.INT) {
          return (int) ((long[]) values)[i];
        }
        break;
      case BIGINT:
        if (how == StoreReads.Read.LONG) {
          return ((long[]) values)[i];
        }
        break;
      case BOOLEAN:
        if (how == StoreReads.Read.BOOLEAN) {
          return ((long[]) values)[i] != 0;
        }
        break;
      case TIMESTAMP:
        final long millis = ((long[]) values)[i];
        if (how == StoreReads.Read.TIMESTAMP && millis >= StoreWrites.GREGORIAN_MILLIS) {
          return millis;
        }
        break;
      case DOUBLE:
        if (how == StoreReads.Read.DOUBLE) {
          return ((double[]) values)[i];
        }
        break;
      case VARCHAR:
        if (how == StoreReads.Read.OBJECT) {
          return ((String[]) values)[i];
        }
        break;
      default:
        throw new AssertionError(segment.kinds[c]);
      }
      return StoreReads.read(s, how, c, hsqldbValue(s.session, c, i));
    }
  }
}
