package dev.mnestic.datalog;

import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.Script;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.eval.ConstantEvaluator;
import dev.mnestic.datalog.lower.StratumLowering;
import dev.mnestic.datalog.parse.Parser;
import dev.mnestic.runtime.CozoCalls;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;
import dev.mnestic.value.Bytes;
import dev.mnestic.value.ColType;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.Json;
import dev.mnestic.value.StoredJson;
import dev.mnestic.value.Values;
import dev.mnestic.value.Vector;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.Map;

/**
 * A table of the store seen as a CozoDB stored relation: its columns with
 * their CozoDB types, keys (the table's primary key; the whole row where
 * there is none) and defaults, and how each column keeps its values.
 *
 * <p>How a CozoDB type is stored (a table made by {@code :create}):
 * <table>
 *   <caption>Column types</caption>
 *   <tr><th>CozoDB</th><th>store (HSQLDB)</th><th>held as</th></tr>
 *   <tr><td>Int</td><td>BIGINT</td><td>the number</td></tr>
 *   <tr><td>Float</td><td>DOUBLE</td><td>the number</td></tr>
 *   <tr><td>String</td><td>LONGVARCHAR</td><td>the string</td></tr>
 *   <tr><td>Bool</td><td>BOOLEAN</td><td>the truth value</td></tr>
 *   <tr><td>Bytes</td><td>LONGVARBINARY</td><td>the bytes</td></tr>
 *   <tr><td>Uuid</td><td>UUID</td><td>the UUID</td></tr>
 *   <tr><td>Json</td><td>LONGVARCHAR</td><td>the document's JSON text</td></tr>
 *   <tr><td>Any, lists, tuples, Validity</td><td>LONGVARCHAR</td>
 *       <td>{@link StoredJson} text</td></tr>
 * </table>
 * Each column's comment ({@code COMMENT ON COLUMN}, JDBC's {@code REMARKS})
 * records its CozoDB type and default as {@code cozo: [Int;3]? default [1,
 * 2, 3]}. A column without such a comment (a table made by SQL) has the
 * CozoDB type of its SQL type (INTEGER is Int, VARCHAR String, DECIMAL Float,
 * VARBINARY Bytes, UUID Uuid, ...; Any for the others), nullable as the
 * column is, and its SQL default is its default (null for a nullable column
 * that declares none): a write that leaves it out lets the store fill it.
 *
 * <p>Key columns are NOT NULL (a primary key). A nullable key column held as
 * {@link StoredJson} text keeps null as the text {@code null}; one of
 * another type ({@code Int?}) cannot hold null.
 */
public final class StoredSchema {
  /** What begins a column comment that records a CozoDB type. */
  static final String REMARK = "cozo: ";

  /** How a column keeps its values. */
  public enum Codec {
    /** As the SQL value itself. */
    VALUE(null),
    /** As {@link StoredJson} text. */
    STORED_JSON(CozoCalls.Codec.STORED_JSON),
    /** As the JSON text of a Json value's document. */
    JSON_DOCUMENT(CozoCalls.Codec.JSON_DOCUMENT),
    /** As a SQL UUID. */
    UUID_BYTES(CozoCalls.Codec.UUID_BYTES),
    /** An F32 vector as a SQL {@code DOUBLE ARRAY} (each float exactly). */
    VECTOR_F32(CozoCalls.Codec.VECTOR_F32),
    /** An F64 vector as a SQL {@code DOUBLE ARRAY}. */
    VECTOR_F64(CozoCalls.Codec.VECTOR_F64);

    /** The runtime's codec that decodes the column ({@link CozoCalls#stored}), or null for {@link #VALUE}. */
    public final CozoCalls.Codec runtime;

    Codec(CozoCalls.Codec runtime) {
      this.runtime = runtime;
    }
  }

  /**
   * A column: its name as stored, CozoDB type, whether it is a key, its
   * CozoDB default (expression and text) or whether SQL has a default for
   * it, and its codec.
   */
  public record Column(String name, ColType type, boolean key, Expr defaultValue,
      String defaultSource, boolean sqlDefault, Codec codec) {
    /** Whether a write may leave the column out. */
    boolean hasDefault() {
      return defaultValue != null || sqlDefault;
    }

    /** A value of the column's type (coerced) as the store takes it. */
    Object encode(Object v) {
      switch (codec) {
      case STORED_JSON:
        return v == null && !key ? null : StoredJson.encode(v);
      case JSON_DOCUMENT:
        return v == null ? null : ((Json) v).text();
      case UUID_BYTES:
        return v;
      case VECTOR_F32:
      case VECTOR_F64:
        if (v == null) {
          return null;
        }
        final double[] d = ((Vector) v).toDoubles();
        final Object[] elements = new Object[d.length];
        for (int i = 0; i < d.length; i++) {
          elements[i] = d[i];
        }
        return elements;
      default:
        return v instanceof Bytes ? ((Bytes) v).toByteArray() : v;
      }
    }

    /**
     * The stored value a row holds exactly when its value here is CozoDB's {@code value}, or
     * null where no single stored value says so: the column keeps its values as themselves
     * and {@code value} is of its type (an Int of an Int column, a String of a String one, a
     * Bool of a Bool one).
     */
    Object lookupValue(Object value) {
      final boolean sameType = lookable() && switch (type.kind()) {
        case INT -> value instanceof Long;
        case STRING -> value instanceof String;
        case BOOL -> value instanceof Boolean;
        default -> false;
      };
      return sameType ? encode(value) : null;
    }

    /** Whether a value's rows can be found by a stored value ({@link #lookupValue}). */
    boolean lookable() {
      return codec == Codec.VALUE && switch (type.kind()) {
        case INT, STRING, BOOL -> true;
        default -> false;
      };
    }

    /** A value the store holds (as JDBC reads it) as a CozoDB value. */
    Object decode(Object sql) {
      return codec == Codec.VALUE ? CozoCalls.value(sql) : codec.runtime.decode(sql);
    }
  }

  private final String table;
  private final List<Column> columns;
  private final boolean primaryKey;

  private StoredSchema(String table, List<Column> columns, boolean primaryKey) {
    this.table = table;
    this.columns = columns;
    this.primaryKey = primaryKey;
  }

  /** The schema of the store's table {@code table} (its name as stored). */
  public static StoredSchema read(Session session, String table) {
    final List<String> keys = new ArrayList<>();
    for (Object[] k : StoreCatalog.primaryKey(session, table)) {
      keys.add((String) k[0]);
    }
    final List<Column> columns = new ArrayList<>();
    for (Object[] c : StoreCatalog.columns(session, table)) {
      final String name = (String) c[0];
      final int sqlType = (Integer) c[1];
      final String remark = (String) c[6];
      final boolean key = keys.isEmpty() || keys.contains(name);
      ColType type = null;
      Expr defaultValue = null;
      String defaultSource = null;
      if (remark != null && remark.startsWith(REMARK)) {
        final Script.Column declared = Parser.parseColumn("c: " + remark.substring(REMARK.length()));
        type = colType(declared.type());
        defaultValue = declared.defaultValue();
        defaultSource = declared.defaultSource();
      }
      // SQL's default: the declared one, else null in a nullable column of a table made by SQL
      boolean sqlDefault = c[5] != null;
      if (type == null) {
        type = sqlColType(sqlType, (String) c[2]).withNullable((Boolean) c[4]);
        sqlDefault |= type.nullable();
      }
      final boolean text = sqlType == Types.VARCHAR || sqlType == Types.CHAR
          || sqlType == Types.LONGVARCHAR || sqlType == Types.CLOB;
      columns.add(new Column(name, type, key, defaultValue, defaultSource, sqlDefault,
          codec(type, text)));
    }
    return new StoredSchema(table, columns, !keys.isEmpty());
  }

  /** The schema a table made from {@code columns} (keys first) has: its key is the key columns. */
  static StoredSchema of(String table, List<Column> columns) {
    return new StoredSchema(table, List.copyOf(columns), true);
  }

  /** A column as {@code :create} makes it (see the class comment). */
  static Column declared(String name, ColType type, boolean key, Expr defaultValue,
      String defaultSource) {
    return new Column(name, type, key, defaultValue, defaultSource, false,
        codec(type, sqlType(type).equals("LONGVARCHAR")));
  }

  /**
   * The table as lowering reads it: its columns' runtime codecs, its key columns in key order,
   * whether it travels in time (its last key column a Validity that cannot be null), the
   * columns of the relation read ({@code relationColumns}, an index's order for {@code rel:idx}),
   * how a constant is looked up in the store's indexes and about how many rows it holds.
   */
  public StratumLowering.StoredTable lowered(List<Integer> relationColumns,
      StratumLowering.Lookup lookup, LongSupplier rows) {
    final List<Integer> keys = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).key()) {
        keys.add(i);
      }
    }
    final ColType last = columns.get(keys.get(keys.size() - 1)).type();
    return new StratumLowering.StoredTable(table,
        columns.stream().map(c -> c.codec().runtime).toList(), keys,
        last.kind() == ColType.Kind.VALIDITY && !last.nullable(), relationColumns, lookup, rows);
  }

  /** The table's name as stored. */
  String table() {
    return table;
  }

  /** The columns in table order. */
  List<Column> columns() {
    return columns;
  }

  /** Whether the table has a primary key (else its whole row is its key). */
  boolean hasPrimaryKey() {
    return primaryKey;
  }

  /** The key columns, then the others, as {@code ::columns} lists them. */
  List<Column> keysFirst() {
    final List<Column> ordered = new ArrayList<>();
    columns.stream().filter(Column::key).forEach(ordered::add);
    columns.stream().filter(c -> !c.key()).forEach(ordered::add);
    return ordered;
  }

  /** The column named {@code name}: exactly, else ignoring case; or null. */
  Column column(String name) {
    Column match = null;
    for (Column c : columns) {
      if (c.name().equals(name)) {
        return c;
      }
      if (c.name().equalsIgnoreCase(name)) {
        match = c;
      }
    }
    return match;
  }

  /**
   * The CozoDB type a schema declares ({@code Any?} where it declares
   * none), the length of a list type evaluated as CozoDB does.
   */
  static ColType colType(Script.ColumnType declared) {
    if (declared == null) {
      return ColType.ANY;
    }
    final List<ColType> elements = new ArrayList<>();
    for (Script.ColumnType e : declared.elements()) {
      elements.add(colType(e));
    }
    switch (declared.base()) {
    case "List":
      return new ColType(ColType.Kind.LIST, elements, length(declared.length()),
          declared.nullable());
    case "Tuple":
      return new ColType(ColType.Kind.TUPLE, elements, null, declared.nullable());
    case "Vec":
      final String element = declared.elements().get(0).base();
      return ColType.vector(element.equals("F32") || element.equals("Float"),
          length(declared.length()), declared.nullable());
    default:
      return ColType.scalar(ColType.Kind.named(declared.base()), declared.nullable());
    }
  }

  private static Integer length(Expr e) {
    if (e == null) {
      return null;
    }
    final Object v = ConstantEvaluator.evaluate(e, Map.of());
    final Long n = v instanceof Long ? (Long) v
        : v instanceof Double && Math.rint((Double) v) == (Double) v ? (Long) (long) (double) (Double) v
        : null;
    if (n == null || n < 0 || n > Integer.MAX_VALUE) {
      throw new DatalogException(ErrorCode.PARSER_BAD_LIST_LEN_IN_TYPE,
          "Bad specification of list length in type: " + Values.display(n == null ? v : n),
          e.pos().line(), e.pos().column());
    }
    return (int) (long) n;
  }

  /** The CozoDB type of a SQL column's type, not null. */
  static ColType sqlColType(int sqlType, String typeName) {
    final ColType.Kind kind;
    switch (sqlType) {
    case Types.BIGINT:
    case Types.INTEGER:
    case Types.SMALLINT:
    case Types.TINYINT:
      kind = ColType.Kind.INT;
      break;
    case Types.DOUBLE:
    case Types.FLOAT:
    case Types.REAL:
    case Types.DECIMAL:
    case Types.NUMERIC:
      kind = ColType.Kind.FLOAT;
      break;
    case Types.VARCHAR:
    case Types.CHAR:
    case Types.LONGVARCHAR:
    case Types.CLOB:
      kind = ColType.Kind.STRING;
      break;
    case Types.BOOLEAN:
    case Types.BIT:
      kind = ColType.Kind.BOOL;
      break;
    case Types.BINARY:
    case Types.VARBINARY:
    case Types.LONGVARBINARY:
    case Types.BLOB:
      kind = "UUID".equalsIgnoreCase(typeName) ? ColType.Kind.UUID : ColType.Kind.BYTES;
      break;
    default:
      kind = ColType.Kind.ANY;
    }
    return ColType.scalar(kind, false);
  }

  /** How a column of CozoDB type {@code type} keeps its values, in a text column or not. */
  private static Codec codec(ColType type, boolean text) {
    switch (type.kind()) {
    case ANY:
    case LIST:
    case TUPLE:
    case VALIDITY:
      return text ? Codec.STORED_JSON : Codec.VALUE;
    case JSON:
      return text ? Codec.JSON_DOCUMENT : Codec.VALUE;
    case UUID:
      return text ? Codec.VALUE : Codec.UUID_BYTES;
    case VEC_F32:
      return text ? Codec.STORED_JSON : Codec.VECTOR_F32;
    case VEC_F64:
      return text ? Codec.STORED_JSON : Codec.VECTOR_F64;
    default:
      return Codec.VALUE;
    }
  }

  /** The store's type of a column of CozoDB type {@code type} (see the class comment). */
  static String sqlType(ColType type) {
    switch (type.kind()) {
    case INT:
      return "BIGINT";
    case FLOAT:
      return "DOUBLE";
    case BOOL:
      return "BOOLEAN";
    case BYTES:
      return "LONGVARBINARY";
    case UUID:
      return "UUID";
    case VEC_F32:
    case VEC_F64:
      return "DOUBLE ARRAY[" + type.length() + "]";
    default:
      return "LONGVARCHAR";
    }
  }

  /** The comment that records a column's CozoDB type and default. */
  static String remark(ColType type, String defaultSource) {
    return REMARK + type + (defaultSource == null ? "" : " default " + defaultSource);
  }
}
