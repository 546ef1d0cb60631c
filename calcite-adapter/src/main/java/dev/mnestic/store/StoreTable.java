package dev.mnestic.store;

import org.apache.calcite.adapter.jdbc.JdbcTable;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.linq4j.Queryable;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.schema.ModifiableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql2rel.InitializerContext;
import org.apache.calcite.sql2rel.InitializerExpressionFactory;
import org.apache.calcite.sql2rel.NullInitializerExpressionFactory;
import org.apache.calcite.util.ImmutableBitSet;

import java.lang.reflect.Type;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A table of the store: Calcite's {@link JdbcTable} (scans and DML pushed to
 * HSQLDB) plus the column defaults declared in CREATE TABLE, so that an
 * INSERT that omits a column stores its default, not NULL.
 */
final class StoreTable extends AbstractTable implements TranslatableTable, ModifiableTable {
  private final JdbcTable jdbcTable;
  private final Session session;
  private Map<String, String> defaults;
  private Map<String, Integer> fractions;
  private Statistic statistic;
  private ImmutableBitSet leading;

  StoreTable(JdbcTable jdbcTable, Session session) {
    this.jdbcTable = jdbcTable;
    this.session = session;
  }

  /** Column name to its default, as SQL text, read from the store once per table lookup. */
  private Map<String, String> defaults() {
    readColumns();
    return defaults;
  }

  /**
   * Column name to the digits of its seconds' fraction, for TIME and TIMESTAMP columns, read
   * from the store once per table lookup.
   */
  private Map<String, Integer> fractions() {
    readColumns();
    return fractions;
  }

  private void readColumns() {
    if (defaults != null) {
      return;
    }
    final Map<String, String> defaults = new HashMap<>();
    final Map<String, Integer> fractions = new HashMap<>();
    try (ResultSet rs = session.getConnection().getMetaData()
        .getColumns(null, Session.SCHEMA, jdbcTable.jdbcTableName, null)) {
      while (rs.next()) {
        final String def = rs.getString("COLUMN_DEF");
        if (def != null) {
          defaults.put(rs.getString("COLUMN_NAME"), def);
        }
        // JDBC's COLUMN_SIZE of a time is the length of its text: "hh:mm:ss" (8) or
        // "yyyy-mm-dd hh:mm:ss" (19), then a point and the fraction's digits.
        final String type = rs.getString("TYPE_NAME");
        if (type.startsWith("TIME")) {
          final int text = type.startsWith("TIMESTAMP") ? 19 : 8;
          fractions.put(rs.getString("COLUMN_NAME"),
              Math.max(0, rs.getInt("COLUMN_SIZE") - text - 1));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the columns of "
          + jdbcTable.jdbcTableName, e);
    }
    this.fractions = fractions;
    this.defaults = defaults;
  }

  /**
   * The store's columns, with strings and binaries of any length: a
   * column's length is the store's to enforce. Calcite would otherwise cast
   * each written value to VARCHAR(n), and its CAST silently cuts a longer
   * value; the store fails the statement instead, as SQL says. An array's
   * elements are nullable, as the store's always are (Calcite's JDBC schema
   * makes them NOT NULL, and Avatica then reads an INTEGER ARRAY into an
   * {@code int[]}, failing on a null element).
   */
  @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    final RelDataTypeFactory.Builder builder = typeFactory.builder();
    for (RelDataTypeField field : jdbcTable.getRowType(typeFactory).getFieldList()) {
      final RelDataType type = field.getType();
      final RelDataType component = type.getComponentType();
      builder.add(field.getName(), component == null
          ? anyLength(typeFactory, withFraction(typeFactory, type, field.getName()))
          : typeFactory.createTypeWithNullability(
              typeFactory.createArrayType(
                  typeFactory.createTypeWithNullability(component, true), -1),
              type.isNullable()));
    }
    return builder.build();
  }

  /**
   * A TIME or TIMESTAMP column with the digits of its seconds' fraction that the store keeps,
   * up to Calcite's milliseconds (Calcite's JDBC schema gives none: its values would be cut to
   * whole seconds when written).
   */
  private RelDataType withFraction(RelDataTypeFactory typeFactory, RelDataType type,
      String column) {
    final SqlTypeName name = type.getSqlTypeName();
    if (name != SqlTypeName.TIMESTAMP && name != SqlTypeName.TIME) {
      return type;
    }
    final int digits = Math.min(fractions().getOrDefault(column, 0),
        typeFactory.getTypeSystem().getMaxPrecision(name));
    return typeFactory.createTypeWithNullability(typeFactory.createSqlType(name, digits),
        type.isNullable());
  }

  private static RelDataType anyLength(RelDataTypeFactory typeFactory, RelDataType type) {
    final SqlTypeName name;
    if (SqlTypeUtil.inCharFamily(type)) {
      name = SqlTypeName.VARCHAR;
    } else if (SqlTypeUtil.isBinary(type)) {
      name = SqlTypeName.VARBINARY;
    } else {
      return type;
    }
    return typeFactory.createTypeWithNullability(typeFactory.createSqlType(name),
        type.isNullable());
  }

  /**
   * The store's primary key as the table's key (so the planner knows a join
   * on it matches at most one row), read once per table lookup.
   */
  @Override public Statistic getStatistic() {
    if (statistic == null) {
      final List<String> columns = StoreCatalog.columns(session, jdbcTable.jdbcTableName)
          .stream().map(c -> (String) c[0]).toList();
      final List<Object[]> key = StoreCatalog.primaryKey(session, jdbcTable.jdbcTableName);
      statistic = key.isEmpty() ? jdbcTable.getStatistic()
          : Statistics.of((Double) null, List.of(ImmutableBitSet.of(
              key.stream().mapToInt(k -> columns.indexOf((String) k[0])).toArray())), null, null);
    }
    return statistic;
  }

  /**
   * Whether {@code scan} reads a table of the store whose rows HSQLDB keeps (not a view, whose
   * rows HSQLDB computes), which {@link EnumerableStoreScan} reads.
   */
  static boolean holdsRows(TableScan scan) {
    final StoreTable table = scan.getTable().unwrap(StoreTable.class);
    return table != null && table.getJdbcTableType() == Schema.TableType.TABLE;
  }

  /**
   * The positions of the columns that lead an index of the store's (its primary key's, a
   * UNIQUE constraint's, a CREATE INDEX's or a CozoScript {@code ::index}'s), read once per
   * table lookup: an equality on one HSQLDB answers from that index.
   */
  ImmutableBitSet leadingIndexColumns() {
    if (leading == null) {
      final List<String> columns = StoreCatalog.columns(session, jdbcTable.jdbcTableName)
          .stream().map(c -> (String) c[0]).toList();
      leading = ImmutableBitSet.of(StoreCatalog.indexes(session, jdbcTable.jdbcTableName)
          .values().stream().mapToInt(index -> columns.indexOf(index.get(0))).toArray());
    }
    return leading;
  }

  @Override public Schema.TableType getJdbcTableType() {
    return jdbcTable.getJdbcTableType();
  }

  /**
   * The table's read, planned; refused when its relation is {@code hidden}
   * ({@link TablePolicy#requireReadable}): every SQL read of it (a query, a subquery, the rows
   * an UPDATE, DELETE or MERGE reads, EXPLAIN, a standing query) is planned here.
   */
  @Override public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    TablePolicy.requireReadable(session, jdbcTable.jdbcTableName);
    return jdbcTable.toRel(context, relOptTable);
  }

  /** The table's name in the store. */
  String storedName() {
    return jdbcTable.jdbcTableName;
  }

  @Override public TableModify toModificationRel(RelOptCluster cluster,
      RelOptTable table, Prepare.CatalogReader catalogReader, RelNode child,
      TableModify.Operation operation, List<String> updateColumnList,
      List<RexNode> sourceExpressionList, boolean flattened) {
    return jdbcTable.toModificationRel(cluster, table, catalogReader, child,
        operation, updateColumnList, sourceExpressionList, flattened);
  }

  @SuppressWarnings("rawtypes") // Calcite's signature
  @Override public Collection getModifiableCollection() {
    return jdbcTable.getModifiableCollection();
  }

  @Override public <T> Queryable<T> asQueryable(QueryProvider queryProvider,
      SchemaPlus schema, String tableName) {
    return jdbcTable.asQueryable(queryProvider, schema, tableName);
  }

  @Override public Type getElementType() {
    return jdbcTable.getElementType();
  }

  @SuppressWarnings("rawtypes") // Calcite's signature
  @Override public Expression getExpression(SchemaPlus schema, String tableName,
      Class clazz) {
    return jdbcTable.getExpression(schema, tableName, clazz);
  }

  @Override public <C> C unwrap(Class<C> aClass) {
    if (aClass == InitializerExpressionFactory.class) {
      return aClass.cast(new Defaults());
    }
    if (aClass.isInstance(jdbcTable)) {
      return aClass.cast(jdbcTable);
    }
    if (aClass.isInstance(this)) {
      return aClass.cast(this);
    }
    return jdbcTable.unwrap(aClass);
  }

  @Override public String toString() {
    return "StoreTable {" + jdbcTable.jdbcTableName + "}";
  }

  /** Supplies each column's declared default to INSERT and MERGE. */
  private final class Defaults extends NullInitializerExpressionFactory {
    @Override public ColumnStrategy generationStrategy(RelOptTable table, int iColumn) {
      return defaults().containsKey(columnName(table, iColumn))
          ? ColumnStrategy.DEFAULT
          : super.generationStrategy(table, iColumn);
    }

    @Override public RexNode newColumnDefaultValue(RelOptTable table, int iColumn,
        InitializerContext context) {
      final String def = defaults().get(columnName(table, iColumn));
      if (def == null) {
        return super.newColumnDefaultValue(table, iColumn, context);
      }
      final SqlNode expression = context.parseExpression(SqlParser.config(), def);
      final RelDataType type = table.getRowType().getFieldList().get(iColumn).getType();
      final RexNode value = context.convertExpression(
          context.validateExpression(table.getRowType(), expression));
      return context.getRexBuilder().ensureType(type, value, true);
    }

    private String columnName(RelOptTable table, int iColumn) {
      return table.getRowType().getFieldList().get(iColumn).getName();
    }
  }
}
