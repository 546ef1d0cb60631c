package dev.mnestic.store;

import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.runtime.SqlFunctions;
import org.apache.calcite.util.Util;

import org.hsqldb.jdbc.JDBCArray;
import org.hsqldb.types.ArrayType;
import org.hsqldb.types.BinaryData;
import org.hsqldb.types.DateTimeType;
import org.hsqldb.types.TimestampData;
import org.hsqldb.types.Type;

import java.nio.ByteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/** Rows read from the store, as Calcite's code holds their values. */
public final class StoreReads {
  private StoreReads() {
  }

  /**
   * The rows with each of the binary {@code fields} as a {@link ByteString}
   * (JDBC gives {@code byte[]}, or a {@link UUID} for HSQLDB's UUID type);
   * a row is an {@code Object[]}, or the value itself when
   * {@code array} is false.
   */
  public static Enumerable<Object> binaries(Enumerable<Object> rows, int[] fields,
      boolean array) {
    if (!array) {
      return rows.select(StoreReads::byteString);
    }
    return rows.select(row -> {
      final Object[] values = (Object[]) row;
      for (int f : fields) {
        values[f] = byteString(values[f]);
      }
      return values;
    });
  }

  private static Object byteString(Object v) {
    if (v instanceof byte[]) {
      return new ByteString((byte[]) v);
    }
    if (v instanceof UUID) {
      final UUID u = (UUID) v;
      return new ByteString(ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
          .putLong(u.getLeastSignificantBits()).array());
    }
    return v;
  }

  /**
   * TIMESTAMP column {@code column} of the current row as Calcite holds it, milliseconds since
   * 1970-01-01 00:00 of the stored wall-clock time: read as the store keeps it (a
   * {@link LocalDateTime}), without JDBC's {@code getTimestamp}, whose Calendar conversions to
   * and from the JVM's zone move a time in a daylight-saving gap of that zone by the gap. Not
   * faster over 10M rows (bench/RESULTS.md, the dashboard's JDBC loops).
   */
  public static long timestamp(ResultSet rs, int column) throws SQLException {
    return millis(calendarFields(rs, column, LocalDateTime.class));
  }

  /** {@link #timestamp}, null for NULL. */
  public static Long timestampOptional(ResultSet rs, int column) throws SQLException {
    final LocalDateTime t = calendarFields(rs, column, LocalDateTime.class);
    return t == null ? null : millis(t);
  }

  /**
   * DATE column {@code column} of the current row as Calcite holds it, days since 1970-01-01
   * of the stored date: read as the store keeps it (a {@link LocalDate}), as
   * {@link #timestamp}.
   */
  public static int date(ResultSet rs, int column) throws SQLException {
    return (int) calendarFields(rs, column, LocalDate.class).toEpochDay();
  }

  /** {@link #date}, null for NULL. */
  public static Integer dateOptional(ResultSet rs, int column) throws SQLException {
    final LocalDate d = calendarFields(rs, column, LocalDate.class);
    return d == null ? null : (int) d.toEpochDay();
  }

  /**
   * Column {@code column} as a {@code java.time} value of the stored calendar fields (before
   * the Gregorian reform, Julian ones), failing with {@link #julianLeapDay} where there is no
   * such value.
   */
  private static <T> T calendarFields(ResultSet rs, int column, Class<T> type)
      throws SQLException {
    try {
      return rs.getObject(column, type);
    } catch (DateTimeException e) {
      throw new SQLException(julianLeapDay(rs.getMetaData().getColumnName(column),
          rs.getMetaData().getColumnTypeName(column), rs.getString(column)), e);
    }
  }

  /**
   * Why a date or time before the Gregorian reform cannot be read: Calcite holds a DATE as days
   * (a TIMESTAMP as milliseconds) since 1970-01-01 of the proleptic Gregorian calendar, and
   * Calcite and Avatica turn that count back into the date of the same calendar fields
   * ({@code LocalDate.ofEpochDay}, {@code java.sql.Date.valueOf}, {@code unixDateToString}), so
   * an earlier date is kept as its Julian fields counted as Gregorian ones, and a Julian leap
   * day (February 29 of 1500, a year the Gregorian calendar does not make a leap year) has no
   * such count.
   */
  private static String julianLeapDay(String column, String type, String value) {
    return "column " + column + " holds " + type + " '" + value + "', a leap day of the"
        + " Julian calendar, which Calcite's " + type + " cannot hold: it counts days of the"
        + " proleptic Gregorian calendar, which has no such day";
  }

  /** Milliseconds since 1970-01-01 00:00 of a wall-clock time, as Calcite holds a TIMESTAMP. */
  private static long millis(LocalDateTime t) {
    return t.toEpochSecond(ZoneOffset.UTC) * 1000 + t.getNano() / 1_000_000;
  }

  /** How a column of a scan is read: as Calcite's JDBC adapter reads it, without JDBC. */
  public enum Read {
    BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE,
    /** As stored: strings, DECIMAL's {@code BigDecimal}. */
    OBJECT,
    /** BINARY, VARBINARY and UUID as a {@link ByteString}. */
    BINARY,
    /** Days since 1970-01-01. */
    DATE,
    /** Milliseconds of the day. */
    TIME,
    /** As {@link #timestamp}. */
    TIMESTAMP,
    /** A {@code List} of the elements as JDBC gives them. */
    ARRAY
  }

  /**
   * Seconds of 1582-10-15 00:00, from which Java's Calendar counts days as java.time does:
   * a DATE or TIMESTAMP from then on is HSQLDB's seconds as they are.
   */
  private static final long GREGORIAN_SECONDS = -12_219_292_800L;

  /**
   * The context variable holding rows of one store table ({@link TableFeed#rows}) that a scan
   * of that table reads instead of the table's, so that a plan over the table runs as it is
   * over rows a {@link TableFeed} gave; absent for none.
   */
  public static final String ROWS = "mnesticStoreRows";

  /**
   * Refuses, as a read of the store's tables {@code tables} run as SQL in HSQLDB
   * ({@link StoreToEnumerableConverter}) starts, one whose relation is {@code hidden}
   * ({@link TablePolicy#requireReadable}).
   */
  public static void readable(DataContext root, String[] tables) {
    final Session store = Session.of(root.getRootSchema());
    for (String table : tables) {
      TablePolicy.requireReadable(store, table);
    }
  }

  /**
   * The rows of store table {@code table} that this statement sees (read by
   * {@link StoreSnapshot#read} when the first row is asked for), of its columns
   * {@code read} only (the others are not read at all), each read as {@code how} says: an
   * {@code Object[]} per row, or the value itself when {@code array} is false. The same
   * values as Calcite's JDBC adapter reads through HSQLDB's JDBC
   * ({@code StoreToEnumerableConverter}): what JDBC's getters do per type is done here on
   * HSQLDB's own value objects, through HSQLDB's own conversions where they involve a
   * calendar (TIME, DATE and TIMESTAMP before the Gregorian reform, ARRAY elements). The
   * values read are kept by column ({@link Columns}) for later reads of the same committed
   * rows. The context's cancel flag stops the reading every 4,096 rows.
   */
  public static Enumerable<Object> scan(DataContext root, String table, int[] read,
      Read[] how, boolean array) {
    final Session store = Session.of(root.getRootSchema());
    TablePolicy.requireReadable(store, table);
    final AtomicBoolean cancel = DataContext.Variable.CANCEL_FLAG.get(root);
    final StoreSnapshot fed = root.get(ROWS) instanceof StoreSnapshot s
        && s.tableName().equals(table) ? s : null;
    final StoreSnapshot.Reading<Enumerator<Object>> reading = reading(table, read, how, cancel,
        columns -> columns.rows(table, read, how, array, cancel),
        snapshot -> new Streamed(snapshot, table, read, how, array, cancel));
    return new AbstractEnumerable<Object>() {
      @Override public Enumerator<Object> enumerator() {
        return new Enumerator<Object>() {
          /** The rows, {@code null} until the first is asked for: the table is read then. */
          private Enumerator<Object> rows;

          @Override public Object current() {
            return rows.current();
          }

          @Override public boolean moveNext() {
            if (rows == null) {
              rows = fed != null ? reading.fromRows(fed)
                  : StoreSnapshot.read(store, table, cancel, reading);
            }
            return rows.moveNext();
          }

          @Override public void reset() {
            rows = null;
          }

          @Override public void close() {
            rows = null;
          }
        };
      }
    };
  }

  /**
   * How a read of columns {@code read} of store table {@code table} goes: from what an earlier
   * read of the same committed rows left (adding the rows appended since), else from the rows,
   * left for later reads when they can be ({@link StoreSnapshot#shareable}), each given to
   * {@code fromColumns}; else streamed ({@link Streamed}), given to {@code fromStream}.
   */
  private static <T> StoreSnapshot.Reading<T> reading(String table, int[] read, Read[] how,
      AtomicBoolean cancel, Function<Columns, T> fromColumns,
      Function<StoreSnapshot, T> fromStream) {
    return new StoreSnapshot.Reading<>() {
      @Override public T fromShared(Object shared, StoreSnapshot appended) {
        final Columns columns = (Columns) shared;
        if (!columns.holds(read, how)) {
          return null;
        }
        if (appended.count == 0) {
          return fromColumns.apply(columns);
        }
        final Columns more = columns.append(appended, table, cancel);
        appended.share(more);
        return fromColumns.apply(more);
      }

      @Override public T fromRows(StoreSnapshot snapshot) {
        if (!snapshot.shareable()) {
          return fromStream.apply(snapshot);
        }
        // Columns read here are in the walk's order: they join an earlier read's only when
        // those are in it too (no rows appended in commit order).
        final Columns columns = snapshot.shared() instanceof Columns c && c.walked ? c
            : new Columns(snapshot.count, true);
        for (int k = 0; k < how.length; k++) {
          if (columns.get(read[k], how[k]) == null) {
            columns.put(read[k], how[k], column(snapshot, table, read[k], how[k], cancel));
          }
        }
        snapshot.share(columns);
        return fromColumns.apply(columns);
      }
    };
  }

  /**
   * The values of the integer columns {@code read} (each read as {@code how} says: {@code BYTE},
   * {@code SHORT}, {@code INT} or {@code LONG}) of the rows of store table {@code table} that a
   * statement starting now sees, as longs, row after row in one array ({@code read.length} a
   * row): the values {@link #scan} gives, read as it reads them (from the columns an earlier
   * read left, with no row or boxed value made, where the rows allow), for a reader that keeps
   * rows of Ints packed (a recursion's copy of a stored relation). Null when a value is NULL:
   * the caller reads the rows as {@link #scan} gives them.
   *
   * <p>Where the rows are the committed rows of a table version (what {@link #scan} would keep
   * its columns for), the copy is kept with that version's columns and given again, the same
   * object, to later statements that see the same version, with what their readers built from
   * it ({@link Packed#derived}); a write, DDL or a rollback moves the table to another version
   * (or to none that can be shared), so a statement never gets a copy of rows it does not see.
   * Kept copies are bounded in bytes ({@link KeptCopies}).
   */
  public static Packed longs(Session store, String table, int[] read, Read[] how,
      AtomicBoolean cancel) {
    if (read.length == 0) {
      throw new IllegalArgumentException("no column to read");
    }
    for (Read r : how) {
      if (r != Read.BYTE && r != Read.SHORT && r != Read.INT && r != Read.LONG) {
        throw new IllegalArgumentException("not an integer read: " + r);
      }
    }
    TablePolicy.requireReadable(store, table);
    final String key = Arrays.toString(read) + Arrays.toString(how);
    return StoreSnapshot.read(store, table, cancel, reading(table, read, how, cancel,
        columns -> columns.packed(key, () -> {
          final long[] values = packed(columns, table, read, how, cancel);
          return values == null ? null : new Packed(values, read.length);
        }),
        snapshot -> {
          final long[] values =
              packed(new Streamed(snapshot, table, read, how, true, cancel), read.length);
          return values == null ? null : new Packed(values, read.length);
        }));
  }

  /**
   * Rows of Ints packed ({@link #longs}): {@code values}, {@code width} a row, row after row;
   * read only. What a reader builds from them (an index) it keeps here ({@link #derived}), so
   * that a copy kept for later statements comes with it.
   */
  public static final class Packed {
    private final long[] values;
    private final int width;
    private final Map<Object, Object> derived = new ConcurrentHashMap<>();
    /** What {@link KeptCopies} knows the copy by, without holding it. */
    private final Id id = new Id();

    /** An identity. */
    private static final class Id {
    }

    Packed(long[] values, int width) {
      this.values = values;
      this.width = width;
    }

    /** The values, {@link #width} a row; not to be written. */
    public long[] values() {
      return values;
    }

    public int width() {
      return width;
    }

    /** The rows. */
    public int rows() {
      return values.length / width;
    }

    /**
     * What {@code make} builds from these rows under {@code key}: built once, then the same
     * object to every reader of this copy, read only.
     */
    @SuppressWarnings("unchecked")
    public <T> T derived(Object key, java.util.function.Supplier<T> make) {
      return (T) derived.computeIfAbsent(key, k -> make.get());
    }

    /**
     * What the copy holds, in bytes, as {@link KeptCopies} charges it: its values, and as much
     * again for each thing derived from it (a recursion derives two: its rows as a list, which
     * shares the values, and its indexes by column, each holding the rows again and a table of
     * their groups; so three times the values in all).
     */
    long bytes() {
      return 8L * values.length * (1 + derived.size());
    }
  }

  /**
   * The packed copies kept with tables' columns ({@link #longs}), at most
   * {@value #KEPT_SHARE_OF_HEAP_PERCENT}% of the heap's maximum (as {@link Packed#bytes}
   * counts them, when they were kept and when they were used again): beyond that the copies
   * used least recently are dropped from their columns (a later statement reads them again).
   * The columns themselves go with their table's version, or when the collector needs the
   * memory ({@link TableVersions}).
   */
  static final class KeptCopies {
    static final int KEPT_SHARE_OF_HEAP_PERCENT = 25;
    private static final long CAP =
        Runtime.getRuntime().maxMemory() / 100 * KEPT_SHARE_OF_HEAP_PERCENT;

    /**
     * A kept copy and the columns holding it, weakly: a table version's columns (and their
     * copies) go when nothing else holds them, whatever this list says.
     */
    private record Kept(java.lang.ref.WeakReference<Packed> copy,
        java.lang.ref.WeakReference<Columns> columns) {
    }

    /** The kept copies, by identity, least recently used first. */
    private static final java.util.LinkedHashMap<Packed.Id, Kept> USED =
        new java.util.LinkedHashMap<>(16, 0.75f, true);

    private KeptCopies() {
    }

    /** {@code packed}, kept in {@code columns}, used now; drops the oldest beyond the cap. */
    static synchronized void used(Packed packed, Columns columns) {
      USED.put(packed.id, new Kept(new java.lang.ref.WeakReference<>(packed),
          new java.lang.ref.WeakReference<>(columns)));
      long bytes = 0;
      for (java.util.Iterator<Kept> it = USED.values().iterator(); it.hasNext();) {
        final Packed p = it.next().copy().get();
        if (p == null) {
          it.remove();
        } else {
          bytes += p.bytes();
        }
      }
      for (java.util.Iterator<Kept> it = USED.values().iterator();
          bytes > CAP && it.hasNext();) {
        final Kept k = it.next();
        final Packed p = k.copy().get();
        final Columns c = k.columns().get();
        if (p == packed) {
          continue;
        }
        it.remove();
        if (p != null) {
          bytes -= p.bytes();
          if (c != null) {
            c.drop(p);
          }
        }
      }
    }
  }

  /** {@code columns}' values of columns {@code read} as {@link #longs} packs them. */
  private static long[] packed(Columns columns, String table, int[] read, Read[] how,
      AtomicBoolean cancel) {
    final int width = read.length;
    final long[] packed = new long[columns.count * width];
    for (int k = 0; k < width; k++) {
      final Object[] column = columns.get(read[k], how[k]);
      for (int i = 0; i < columns.count; i++) {
        StoreSnapshot.checkCancel(cancel, table, i);
        if (!(column[i] instanceof Number n)) {
          return null;
        }
        packed[i * width + k] = n.longValue();
      }
    }
    return packed;
  }

  /** The rows {@code rows} gives ({@code width} values each) as {@link #longs} packs them. */
  private static long[] packed(Enumerator<Object> rows, int width) {
    long[] packed = new long[1024 * width];
    int n = 0;
    while (rows.moveNext()) {
      final Object[] row = (Object[]) rows.current();
      if (n + width > packed.length) {
        packed = Arrays.copyOf(packed, packed.length * 2);
      }
      for (int k = 0; k < width; k++) {
        if (!(row[k] instanceof Number v)) {
          return null;
        }
        packed[n++] = v.longValue();
      }
    }
    return Arrays.copyOf(packed, n);
  }

  /**
   * The rows of a read no later read shares ({@link StoreSnapshot#shareable}: one that sees
   * blocks of the table's segment, one of a session with uncommitted writes, rows a
   * {@link TableFeed} gave), converted as they are enumerated: HSQLDB's rows (their value
   * arrays, which the walk gathered), then each block's, each value read from the block's
   * arrays as its row is asked for. Nothing read is kept, so a scan of a table whose rows
   * are in its segment holds one row at a time, not the table's values.
   */
  private static final class Streamed implements Enumerator<Object> {
    private final StoreSnapshot s;
    private final String table;
    private final int[] read;
    private final Read[] how;
    private final boolean array;
    private final AtomicBoolean cancel;
    private final List<Segment.Block> blocks;
    /** The current row's block, -1 while in HSQLDB's rows, {@code blocks.size()} at the end. */
    private int block = -1;
    /** The current row's index in HSQLDB's rows or in its block. */
    private int i = -1;
    /** Rows enumerated so far. */
    private int n;
    private Object current;

    Streamed(StoreSnapshot s, String table, int[] read, Read[] how, boolean array,
        AtomicBoolean cancel) {
      this.s = s;
      this.table = table;
      this.read = read;
      this.how = how;
      this.array = array;
      this.cancel = cancel;
      this.blocks = s.segment == null ? List.of() : s.segment.blocks();
    }

    @Override public Object current() {
      return current;
    }

    @Override public boolean moveNext() {
      while (block < blocks.size()
          && ++i >= (block < 0 ? s.count : blocks.get(block).count)) {
        block++;
        i = -1;
      }
      if (block == blocks.size()) {
        current = null;
        return false;
      }
      StoreSnapshot.checkCancel(cancel, table, n++);
      if (!array) {
        current = value(0);
      } else if (how.length == 0) {
        current = NO_COLUMNS;
      } else {
        final Object[] row = new Object[how.length];
        for (int k = 0; k < row.length; k++) {
          row[k] = value(k);
        }
        current = row;
      }
      return true;
    }

    /** Column {@code k} of the read of the current row. */
    private Object value(int k) {
      return block < 0 ? StoreReads.read(s, how[k], read[k], s.rows[i][read[k]])
          : blocks.get(block).read(s, read[k], i, how[k]);
    }

    @Override public void reset() {
      block = -1;
      i = -1;
      n = 0;
    }

    @Override public void close() {
    }
  }

  /**
   * The rows of store table {@code table} whose column {@code column} holds one of
   * {@code values} (as Calcite holds them, none null) that this statement sees, looked up in
   * an index of the store's leading with the column ({@link StoreSnapshot#lookup}), each an
   * {@code Object[]} of its columns read as {@code how} says: the rows {@link #scan} would
   * give for them. Null when no index serves (the caller reads the table).
   */
  public static List<Object[]> lookup(DataContext root, String table, Read[] how, int column,
      java.util.Collection<Object> values) {
    final Session store = Session.of(root.getRootSchema());
    TablePolicy.requireReadable(store, table);
    final AtomicBoolean cancel = DataContext.Variable.CANCEL_FLAG.get(root);
    final StoreSnapshot found = StoreSnapshot.lookup(store, table, column, values, cancel);
    if (found == null) {
      return null;
    }
    final List<Object[]> rows = new java.util.ArrayList<>(found.count);
    for (int i = 0; i < found.count; i++) {
      final Object[] row = new Object[how.length];
      for (int c = 0; c < how.length; c++) {
        row[c] = read(found, how[c], c, found.rows[i][c]);
      }
      rows.add(row);
    }
    return rows;
  }

  /**
   * The values of a table's columns as Calcite holds them, each read one way, from one
   * version of the table's committed rows ({@link StoreSnapshot#share}): a column of a table
   * read again unchanged is not read from HSQLDB's rows again, nor, when rows were only added,
   * more than the rows added. Each column's values are {@code [0, count)} of its array; the
   * arrays may be longer, and the first {@link #append} fills them on in place.
   */
  private static final class Columns {
    final int count;
    /**
     * Whether the rows are in the order a walk of the table's rows gives them; false when
     * rows were appended after a walk's, in the order their transactions committed.
     */
    final boolean walked;
    /** By {@code column * Read count + read}. */
    private final Map<Integer, Object[]> values = new ConcurrentHashMap<>();
    /** Whether an {@link #append} has written past {@link #count} into the arrays. */
    private final AtomicBoolean appended = new AtomicBoolean();
    /** The packed copies of these rows ({@link #longs}), by the columns read and how. */
    private final Map<String, Packed> packed = new ConcurrentHashMap<>();

    Columns(int count, boolean walked) {
      this.count = count;
      this.walked = walked;
    }

    Object[] get(int column, Read how) {
      return values.get(column * READS.length + how.ordinal());
    }

    void put(int column, Read how, Object[] read) {
      assert read.length >= count;
      values.put(column * READS.length + how.ordinal(), read);
    }

    /**
     * The rows, of the columns {@code read} read as {@code how} says: an {@code Object[]} per
     * row, or the value itself when {@code array} is false.
     */
    Enumerator<Object> rows(String table, int[] read, Read[] how, boolean array,
        AtomicBoolean cancel) {
      final Object[][] columns = new Object[how.length][];
      for (int k = 0; k < how.length; k++) {
        columns[k] = get(read[k], how[k]);
      }
      return new Enumerator<Object>() {
        private int i = -1;
        private Object current;

        @Override public Object current() {
          return current;
        }

        @Override public boolean moveNext() {
          if (++i >= count) {
            i = count;
            return false;
          }
          StoreSnapshot.checkCancel(cancel, table, i);
          if (!array) {
            current = columns[0][i];
            return true;
          }
          if (columns.length == 0) {
            current = NO_COLUMNS;
            return true;
          }
          final Object[] row = new Object[columns.length];
          for (int c = 0; c < row.length; c++) {
            row[c] = columns[c][i];
          }
          current = row;
          return true;
        }

        @Override public void reset() {
          i = -1;
        }

        @Override public void close() {
        }
      };
    }

    /**
     * The packed copy of these rows under {@code key}, made by {@code make} (null when a value
     * is NULL: nothing kept) the first time, then kept.
     */
    Packed packed(String key, java.util.function.Supplier<Packed> make) {
      Packed p = packed.get(key);
      if (p == null) {
        p = make.get();
        if (p == null) {
          return null;
        }
        final Packed raced = packed.putIfAbsent(key, p);
        p = raced != null ? raced : p;
      }
      KeptCopies.used(p, this);
      return p;
    }

    /** Lets go of {@code copy} ({@link KeptCopies}). */
    void drop(Packed copy) {
      packed.values().remove(copy);
    }

    /** Whether every column of {@code read} is here as {@code how} says it is read. */
    boolean holds(int[] read, Read[] how) {
      for (int k = 0; k < how.length; k++) {
        if (get(read[k], how[k]) == null) {
          return false;
        }
      }
      return true;
    }

    /**
     * These columns with the rows of {@code more} after theirs: in these arrays when they have
     * room and no other append has used it, else in copies with half as much room again.
     */
    Columns append(StoreSnapshot more, String table, AtomicBoolean cancel) {
      final Columns out = new Columns(count + more.count, false);
      final boolean inPlace = values.values().stream().allMatch(a -> a.length >= out.count)
          && appended.compareAndSet(false, true);
      // Column by column in order, so that a value that cannot be read is the first one
      // reading the rows would fail on.
      new java.util.TreeMap<>(values).forEach((key, column) -> {
        // (a column put meanwhile by a read of the same rows comes without room)
        final Object[] to = inPlace && column.length >= out.count ? column
            : Arrays.copyOf(column, Math.max(out.count, count + (count >> 1)));
        final Read how = READS[key % READS.length];
        final int c = key / READS.length;
        for (int i = 0; i < more.count; i++) {
          StoreSnapshot.checkCancel(cancel, table, i);
          to[count + i] = read(more, how, c, more.rows[i][c]);
        }
        out.values.put(key, to);
      });
      return out;
    }
  }

  private static final Read[] READS = Read.values();

  /**
   * A row of a read of no column ({@code SELECT COUNT(*)}): Calcite holds a row of no field as
   * an empty list.
   */
  private static final Object NO_COLUMNS =
      org.apache.calcite.runtime.FlatLists.COMPARABLE_EMPTY_LIST;

  /** Column {@code c} of every row of {@code s} (HSQLDB's rows alone), read as {@code how} says. */
  private static Object[] column(StoreSnapshot s, String table, int c, Read how,
      AtomicBoolean cancel) {
    assert s.segment == null;
    final Object[] values = new Object[s.count];
    for (int i = 0; i < s.count; i++) {
      StoreSnapshot.checkCancel(cancel, table, i);
      values[i] = read(s, how, c, s.rows[i][c]);
    }
    return values;
  }

  static Object read(StoreSnapshot s, Read how, int column, Object v) {
    if (v == null) {
      return null;
    }
    switch (how) {
    case BOOLEAN:
    case OBJECT:
      return v;
    // A new box even where HSQLDB's is the type Calcite reads: the column's boxes then lie in
    // memory in the column's order, where HSQLDB's lie among its row objects, and a column read
    // in order is read from memory in order (bench/RESULTS.md, SKYLINE OF).
    case BYTE:
      return ((Number) v).byteValue();
    case SHORT:
      return ((Number) v).shortValue();
    case INT:
      return ((Number) v).intValue();
    case LONG:
      return ((Number) v).longValue();
    case FLOAT:
      return ((Number) v).floatValue();
    case DOUBLE:
      return ((Number) v).doubleValue();
    case BINARY:
      return new ByteString(((BinaryData) v).getBytes());
    case DATE:
      final TimestampData d = (TimestampData) v;
      if (d.getSeconds() >= GREGORIAN_SECONDS) {
        return (int) Math.floorDiv(d.getSeconds(), 86_400L);
      }
      return (int) julian(s, column, d).toLocalDate().toEpochDay();
    case TIME:
      return SqlFunctions.toInt((Time) Type.SQL_TIME.convertSQLToJava(s.session, v));
    case TIMESTAMP:
      final TimestampData t = (TimestampData) v;
      if (t.getSeconds() >= GREGORIAN_SECONDS) {
        return t.getSeconds() * 1000 + t.getNanos() / 1_000_000;
      }
      return millis(julian(s, column, t));
    case ARRAY:
      final ArrayType type = (ArrayType) s.types[column];
      return array(new JDBCArray((Object[]) v, type.collectionBaseType(), type, s.session));
    default:
      throw new AssertionError(how);
    }
  }

  /**
   * A DATE or TIMESTAMP value before the reform as HSQLDB's {@link LocalDateTime}, which
   * comes from Julian calendar fields (see {@link #julianLeapDay}).
   */
  private static LocalDateTime julian(StoreSnapshot s, int column, TimestampData t) {
    final Type type = s.types[column];
    try {
      return ((DateTimeType) type).toLocalDateTime(s.session, t);
    } catch (DateTimeException e) {
      throw new IllegalArgumentException(julianLeapDay(s.columnName(column),
          type.getNameString(), type.convertToString(t)), e);
    }
  }

  /**
   * An ARRAY value as Calcite's code holds it: a list of the elements as JDBC gives them,
   * with DATE, TIME and TIMESTAMP elements as Calcite holds those types (what Calcite's JDBC
   * adapter does for a column of the type), null elements kept.
   */
  public static List<Object> array(java.sql.Array a) {
    if (a == null) {
      return null;
    }
    final Object[] elements;
    try {
      elements = (Object[]) a.getArray();
    } catch (SQLException e) {
      throw Util.toUnchecked(e);
    }
    final Object[] values = new Object[elements.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = element(elements[i]);
    }
    return Arrays.asList(values);
  }

  private static Object element(Object e) {
    if (e instanceof Timestamp t) {
      return SqlFunctions.toLong(t);
    }
    if (e instanceof java.sql.Date d) {
      return SqlFunctions.toInt(d);
    }
    if (e instanceof Time t) {
      return SqlFunctions.toInt(t);
    }
    return e;
  }
}
