package dev.mnestic.store;

import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.server.DdlExecutorImpl;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCollectionTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.ddl.SqlCheckConstraint;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.ddl.SqlDropTable;
import org.apache.calcite.sql.ddl.SqlKeyConstraint;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidatorException;
import org.apache.calcite.util.Util;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.apache.calcite.util.Static.RESOURCE;

/**
 * Executes DDL against the store of the session attached to the statement's
 * root schema.
 *
 * <p>Names keep the case they were written in (HSQLDB receives them quoted)
 * and are unique ignoring case, matching how queries resolve them: a table
 * created as {@code memory} is {@code memory} in the store, in metadata and in
 * Datalog, and {@code SELECT * FROM MEMORY} finds it.
 *
 * <p>HSQLDB commits the session's open transaction before it runs DDL.
 */
public final class StoreDdlExecutor extends DdlExecutorImpl {
  public static final StoreDdlExecutor INSTANCE = new StoreDdlExecutor();

  /** Length of a VARCHAR or VARBINARY column declared without one: Calcite's longest. */
  static final int DEFAULT_LENGTH = 65536;

  private StoreDdlExecutor() {
  }

  /** Executes a {@code CREATE [OR REPLACE] TABLE [IF NOT EXISTS]} statement. */
  public void execute(SqlCreateTable create, CalcitePrepare.Context context) {
    final Session session = Session.of(context.getRootSchema().plus());
    final SqlIdentifier name = tableName(create.name);
    final Optional<String> existing = StoreCatalog.findTable(session, name.getSimple());
    if (existing.isPresent()) {
      if (create.ifNotExists) {
        return;
      }
      if (!create.getReplace()) {
        throw SqlUtil.newContextException(name.getParserPosition(),
            RESOURCE.tableExists(existing.get()));
      }
    }
    if (existing.isPresent()) {
      refuseBelowNormal(session, existing.get(), "relation replacement");
      refuseReplaceTriggers(session, existing.get());
    }
    final String ddl = createTableSql(name.getSimple(), create.columnList);
    run(session, existing.isPresent() && create.getReplace()
        ? List.of("DROP TABLE " + quote(existing.get()) + " CASCADE", ddl)
        : List.of(ddl));
  }

  /** Executes a {@code DROP TABLE [IF EXISTS]} statement. */
  public void execute(SqlDropTable drop, CalcitePrepare.Context context) {
    final Session session = Session.of(context.getRootSchema().plus());
    final SqlIdentifier name = tableName(drop.name);
    final Optional<String> existing = StoreCatalog.findTable(session, name.getSimple());
    if (existing.isEmpty()) {
      if (drop.ifExists) {
        return;
      }
      throw SqlUtil.newContextException(name.getParserPosition(),
          RESOURCE.tableNotFound(name.getSimple()));
    }
    refuseBelowNormal(session, existing.get(), "relation removal");
    run(session, List.of("DROP TABLE " + quote(existing.get())));
  }

  /**
   * Refuses {@code what} on the store's table {@code table} when its CozoScript access level
   * ({@link TablePolicy}) is below {@code normal}, as CozoScript's {@code ::remove} and
   * {@code :replace} are refused: SQLSTATE {@value TablePolicy#INSUFFICIENT_PRIVILEGE}.
   */
  private static void refuseBelowNormal(Session session, String table, String what) {
    final TablePolicy policy = TablePolicy.of(session, table);
    if (!policy.allows(TablePolicy.Level.NORMAL)) {
      final SQLException refusal = policy.sqlRefusal(table, what);
      throw new IllegalStateException(refusal.getMessage(), refusal);
    }
  }

  /**
   * Refuses to replace the store's table {@code table} when its relation has CozoScript
   * replace triggers (SQLSTATE 0A000): CozoScript's {@code :replace} runs them in the
   * replacing transaction, and SQL's CREATE OR REPLACE TABLE is DDL, which commits before and
   * after, so the triggers' writes could not stay or go with it.
   */
  private static void refuseReplaceTriggers(Session session, String table) {
    if (!TablePolicy.of(session, table).replace().isEmpty()) {
      final SQLException refusal = new SQLException("not supported: CREATE OR REPLACE TABLE of"
          + " stored relation '" + table + "', which has CozoScript replace triggers: DDL"
          + " commits, so they cannot run in its transaction; replace it with CozoScript's"
          + " :replace, which runs them, or remove them (::set_triggers " + table + ")",
          "0A000");
      throw new IllegalStateException(refusal.getMessage(), refusal);
    }
  }

  /** Strips an optional schema qualifier, which must name the store's schema. */
  private static SqlIdentifier tableName(SqlIdentifier id) {
    if (id.isSimple()) {
      return id;
    }
    if (id.names.size() == 2 && id.names.get(0).equalsIgnoreCase(Session.SCHEMA)) {
      return id.getComponent(1);
    }
    throw SqlUtil.newContextException(id.getParserPosition(),
        RESOURCE.schemaNotFound(Util.sepList(Util.skipLast(id.names), ".")));
  }

  private static String createTableSql(String table, SqlNodeList elements) {
    final Map<String, SqlColumnDeclaration> columns = new LinkedHashMap<>();
    final List<String> parts = new ArrayList<>();
    for (SqlNode e : elements) {
      if (e instanceof SqlCheckConstraint) {
        throw error(e.getParserPosition(), "The store keeps no CHECK constraints; "
            + "a table has columns, a PRIMARY KEY and UNIQUE keys");
      }
      if (e instanceof SqlColumnDeclaration) {
        final SqlColumnDeclaration c = (SqlColumnDeclaration) e;
        final String key = c.name.getSimple().toUpperCase(Locale.ROOT);
        if (columns.putIfAbsent(key, c) != null) {
          throw SqlUtil.newContextException(c.name.getParserPosition(),
              RESOURCE.duplicateColumnName(c.name.getSimple()));
        }
        parts.add(columnSql(c));
      }
    }
    boolean hasPrimaryKey = false;
    for (SqlNode e : elements) {
      if (e instanceof SqlKeyConstraint) {
        final List<SqlNode> operands = ((SqlKeyConstraint) e).getOperandList();
        final SqlIdentifier constraintName = (SqlIdentifier) operands.get(0);
        final SqlNodeList keyColumns = (SqlNodeList) operands.get(1);
        final boolean primary = e.getKind() == SqlKind.PRIMARY_KEY;
        if (primary && hasPrimaryKey) {
          throw error(e.getParserPosition(),
              "Table '" + table + "' has more than one primary key");
        }
        hasPrimaryKey |= primary;
        final String columnList = keyColumns.stream()
            .map(k -> quote(resolveColumn(table, columns, (SqlIdentifier) k)))
            .collect(Collectors.joining(", "));
        parts.add((constraintName == null ? "" : "CONSTRAINT " + quote(constraintName.getSimple()) + " ")
            + (primary ? "PRIMARY KEY (" : "UNIQUE (") + columnList + ")");
      }
    }
    return "CREATE TABLE " + quote(table) + " (" + String.join(", ", parts) + ")";
  }

  private static String resolveColumn(String table,
      Map<String, SqlColumnDeclaration> columns, SqlIdentifier id) {
    final SqlColumnDeclaration c = columns.get(id.getSimple().toUpperCase(Locale.ROOT));
    if (c == null) {
      throw SqlUtil.newContextException(id.getParserPosition(),
          RESOURCE.columnNotFoundInTable(id.getSimple(), table));
    }
    return c.name.getSimple();
  }

  private static String columnSql(SqlColumnDeclaration c) {
    final StringBuilder b = new StringBuilder();
    b.append(quote(c.name.getSimple())).append(' ').append(typeSql(c.dataType));
    if (c.expression != null) {
      if (c.strategy == ColumnStrategy.VIRTUAL || c.strategy == ColumnStrategy.STORED) {
        throw error(c.expression.getParserPosition(), "Column '" + c.name.getSimple()
            + "': the store has no generated columns; a column may have a DEFAULT");
      }
      checkDefault(c.name.getSimple(), c.expression);
      // A bare CURRENT_DATE parses as a name, which the dialect would quote as a column's.
      b.append(" DEFAULT ").append(c.expression instanceof SqlIdentifier current
          ? current.getSimple().toUpperCase(Locale.ROOT)
          : c.expression.toSqlString(StoreSchema.DIALECT).getSql());
    }
    if (Boolean.FALSE.equals(c.dataType.getNullable())) {
      b.append(" NOT NULL");
    }
    return b.toString();
  }

  /** The functions a DEFAULT may call (with a precision at most): the current date and time. */
  private static final Set<String> DEFAULT_FUNCTIONS = Set.of("CURRENT_DATE", "CURRENT_TIME",
      "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP");

  /**
   * A column's DEFAULT is a literal, a signed number, or the current date or time: the store
   * receives it as SQL text, so nothing that names a table, a routine or a host resource may
   * reach it (HSQLDB's own functions, such as {@code LOAD_FILE}, and its system tables).
   */
  private static void checkDefault(String column, SqlNode expression) {
    final boolean constant = expression instanceof SqlLiteral
        || (expression.getKind() == SqlKind.MINUS_PREFIX
            || expression.getKind() == SqlKind.PLUS_PREFIX)
            && ((SqlCall) expression).operand(0) instanceof SqlNumericLiteral
        || expression instanceof SqlIdentifier name && name.isSimple()
            && DEFAULT_FUNCTIONS.contains(name.getSimple().toUpperCase(Locale.ROOT))
        || expression instanceof SqlCall call
            && DEFAULT_FUNCTIONS.contains(call.getOperator().getName())
            && call.getOperandList().stream().allMatch(o -> o instanceof SqlNumericLiteral);
    if (!constant) {
      throw error(expression.getParserPosition(), "Column '" + column + "': a DEFAULT is a "
          + "literal or CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, LOCALTIME or "
          + "LOCALTIMESTAMP, not " + expression);
    }
  }

  /** Translates a declared type to the store's type, or fails naming the position. */
  static String typeSql(SqlDataTypeSpec spec) {
    return typeSql(spec.getTypeNameSpec(), spec.getParserPosition());
  }

  private static String typeSql(SqlTypeNameSpec spec, SqlParserPos pos) {
    if (spec instanceof SqlCollectionTypeNameSpec) {
      final SqlCollectionTypeNameSpec collection = (SqlCollectionTypeNameSpec) spec;
      if (collection.getTypeName().getSimple().equalsIgnoreCase("ARRAY")) {
        return typeSql(collection.getElementTypeName(), pos) + " ARRAY";
      }
    }
    final SqlTypeName type = spec instanceof SqlBasicTypeNameSpec
        ? SqlTypeName.get(spec.getTypeName().getSimple().toUpperCase(Locale.ROOT))
        : null;
    if (type == null || !StoreCatalog.STORABLE_TYPES.contains(type)) {
      throw SqlUtil.newContextException(spec.getParserPos(),
          RESOURCE.typeNotSupported(spec.getTypeName().toString()
              + "; the store holds " + StoreCatalog.STORABLE_TYPES.stream().map(Enum::name)
              .collect(Collectors.joining(", ")) + " and their ARRAYs"));
    }
    final SqlBasicTypeNameSpec basic = (SqlBasicTypeNameSpec) spec;
    final int precision = basic.getPrecision();
    final int scale = basic.getScale();
    switch (type) {
    case VARCHAR:
    case VARBINARY:
      return type.name() + "(" + (precision >= 0 ? precision : DEFAULT_LENGTH) + ")";
    case CHAR:
    case BINARY:
      return type.name() + "(" + Math.max(precision, 1) + ")";
    case DECIMAL:
      return precision < 0 ? "DECIMAL"
          : scale < 0 ? "DECIMAL(" + precision + ")"
          : "DECIMAL(" + precision + ", " + scale + ")";
    case FLOAT:
    case REAL:
      return "DOUBLE";
    case TIME:
    case TIMESTAMP:
      return precision < 0 ? type.name() : type.name() + "(" + precision + ")";
    default:
      return type.name();
    }
  }

  /** An error at {@code pos}, reported as Calcite reports validation errors. */
  private static CalciteContextException error(SqlParserPos pos, String message) {
    final CalciteContextException e =
        RESOURCE.validatorContext(pos.getLineNum(), pos.getColumnNum(),
            pos.getEndLineNum(), pos.getEndColumnNum())
            .ex(new SqlValidatorException(message, null));
    e.setPosition(pos.getLineNum(), pos.getColumnNum(), pos.getEndLineNum(),
        pos.getEndColumnNum());
    return e;
  }

  /** {@code identifier} as a quoted SQL identifier of the store, its quotes doubled. */
  public static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  private static void run(Session session, List<String> statements) {
    try (Statement s = session.getConnection().createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    } catch (SQLException e) {
      if (READ_ONLY.equals(e.getSQLState())) {
        // Not the statement's fault: the session is read-only; the store's SQLSTATE says so.
        throw new IllegalStateException("store rejected DDL: " + e.getMessage(), e);
      }
      throw new CalciteContextException("store rejected DDL: " + e.getMessage(), e);
    }
  }

  /** The store's SQLSTATE for a write in a read-only session. */
  private static final String READ_ONLY = "25006";
}
