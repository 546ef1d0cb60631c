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
   * breaks NOT NULL or a VARCHAR's length fails with a {@code BatchUpdateException} naming it.
   */
  Block block(StoreWrites.BatchRows rows) throws SQLException {
    final Block b = new Block(this, rows.size());
    for (int i = 0; i < b.capacity; i++) {
      final Object[] row;
      try {
        row = rows.row(i);
      } catch (SQLException e) {
        throw StoreWrites.failedRow(i, e);
      }
      if (row == null || !b.add(row, i)) {
        return null;
      }
    }
    return b;
  }

  /** What a read of the table sees of the segment: blocks, in order. */
  record Seen(List<Block> blocks, int rows) {
  }

  /**
   * One batch's rows, column by column: {@code long[]} (INTEGER, BIGINT, BOOLEAN as 0 or 1,
   * TIMESTAMP as milliseconds as Calcite holds them), {@code double[]} or {@code String[]}, and
   * a bitmap of the nulls of each column that has any. Written once, then only read.
   */
  static final class Block {
    final Segment segment;
    final int capacity;
    private final Object[] columns;
    private final long[][] nulls;
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

    /** Appends {@code row}, row {@code index} of its batch; false for a value of a wrong class. */
    private boolean add(Object[] row, int index) throws SQLException {
      final int i = count;
      for (int c = 0; c < columns.length; c++) {
        final Object v = row[c];
        if (v == null) {
          if (segment.notNull[c]) {
            throw StoreWrites.failedRow(index, new SQLException("integrity constraint "
                + "violation: NOT NULL check constraint; table: " + segment.table.getName().name
                + " column: " + name(c), "23502"));
          }
          if (nulls[c] == null) {
            nulls[c] = new long[(capacity + 63) >>> 6];
          }
          nulls[c][i >>> 6] |= 1L << i;
          continue;
        }
        switch (segment.kinds[c]) {
        case INTEGER -> {
          if (!(v instanceof Integer n)) {
            return false;
          }
          ((long[]) columns[c])[i] = n;
        }
        case BIGINT, TIMESTAMP -> {
          if (!(v instanceof Long n)) {
            return false;
          }
          ((long[]) columns[c])[i] = n;
        }
        case BOOLEAN -> {
          if (!(v instanceof Boolean b)) {
            return false;
          }
          ((long[]) columns[c])[i] = b ? 1 : 0;
        }
        case DOUBLE -> {
          if (!(v instanceof Double d)) {
            return false;
          }
          ((double[]) columns[c])[i] = d;
        }
        case VARCHAR -> {
          if (!(v instanceof String s)) {
            return false;
          }
          ((String[]) columns[c])[i] = fit(s, c, index);
        }
        default -> throw new AssertionError(segment.kinds[c]);
        }
      }
      count++;
      return true;
    }

    /**
     * {@code s} within column {@code c}'s length, as HSQLDB stores it: spaces past the length
     * cut, anything else past it refused (SQLSTATE 22001).
     */
    private String fit(String s, int c, int index) throws SQLException {
      final long length = segment.types[c].precision;
      if (s.length() <= length) {
        return s;
      }
      for (int k = (int) length; k < s.length(); k++) {
        if (s.charAt(k) != ' ') {
          throw StoreWrites.failedRow(index, new SQLException("data exception: string data, "
              + "right truncation; table: " + segment.table.getName().name + " column: "
              + name(c) + " holds VARCHAR(" + length + "), the value has " + s.length()
              + " characters", "22001"));
        }
      }
      return s.substring(0, (int) length);
    }

    private String name(int c) {
      return segment.table.getColumn(c).getName().name;
    }

    boolean isNull(int c, int i) {
      return nulls[c] != null && (nulls[c][i >>> 6] & 1L << i) != 0;
    }

    /** Column {@code c} of row {@code i} as HSQLDB holds it in a row. */
    Object hsqldbValue(org.hsqldb.Session session, int c, int i) {
      if (isNull(c, i)) {
        return null;
      }
      return switch (segment.kinds[c]) {
      case INTEGER -> (int) ((long[]) columns[c])[i];
      case BIGINT -> ((long[]) columns[c])[i];
      case BOOLEAN -> ((long[]) columns[c])[i] != 0;
      case TIMESTAMP -> StoreWrites.timestampValue(session, segment.types[c],
          ((long[]) columns[c])[i]);
      case DOUBLE -> ((double[]) columns[c])[i];
      case VARCHAR -> ((String[]) columns[c])[i];
      };
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
