package dev.mnestic.store;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.jdbc.JdbcConvention;
import org.apache.calcite.adapter.jdbc.JdbcTable;
import org.apache.calcite.adapter.jdbc.JdbcTableScan;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataTypeField;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A whole store table read from HSQLDB's row store into Enumerable code
 * ({@link StoreReads#scan}: the rows the statement sees, no SQL, no JDBC, no
 * result built by HSQLDB). Filters and projections over it run in Calcite; a
 * filter that HSQLDB answers from its primary key goes to HSQLDB as SQL instead
 * ({@link StoreConvention}), which the cost here makes the cheaper plan.
 */
public final class EnumerableStoreScan extends TableScan implements EnumerableRel {
  EnumerableStoreScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table) {
    super(cluster, traits, List.of(), table);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableStoreScan(getCluster(), traitSet, getTable());
  }

  /**
   * Twice a table scan's: a whole scan, dearer than the same table's lookup by key through
   * HSQLDB (a JDBC filter over a JDBC scan), the only other way to read a store table.
   */
  @Override public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    final RelOptCost cost = super.computeSelfCost(planner, mq);
    return cost == null ? null : cost.multiplyBy(2);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    final List<RelDataTypeField> fields = getRowType().getFieldList();
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        fields.size() == 1 ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY);
    final List<Expression> reads = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      reads.add(Expressions.constant(read(physType, i)));
    }
    final String table = tableName();
    // return StoreReads.scan(root, "<table>", new StoreReads.Read[] {<reads>}, <array>);
    final BlockBuilder builder = new BlockBuilder();
    builder.add(
        Expressions.return_(null,
            Expressions.call(StoreMethod.STORE_SCAN.method,
                implementor.getRootExpression(),
                Expressions.constant(table),
                Expressions.newArrayInit(StoreReads.Read.class, reads),
                Expressions.constant(fields.size() > 1))));
    return implementor.result(physType, builder.toBlock());
  }

  /** The stored name of the table it reads. */
  public String tableName() {
    return requireNonNull(getTable().unwrap(JdbcTable.class)).jdbcTableName;
  }

  /** How column {@code i} is read: as Calcite's JDBC adapter's getter for it would. */
  private static StoreReads.Read read(PhysType physType, int i) {
    final RelDataTypeField field = physType.getRowType().getFieldList().get(i);
    switch (field.getType().getSqlTypeName()) {
    case DATE:
      return StoreReads.Read.DATE;
    case TIME:
      return StoreReads.Read.TIME;
    case TIMESTAMP:
      return StoreReads.Read.TIMESTAMP;
    case ARRAY:
      return StoreReads.Read.ARRAY;
    case BINARY:
    case VARBINARY:
      return StoreReads.Read.BINARY;
    default:
      break;
    }
    final Primitive primitive = Primitive.ofBoxOr(physType.fieldClass(i));
    if (primitive == null) {
      return StoreReads.Read.OBJECT;
    }
    switch (primitive) {
    case BOOLEAN:
      return StoreReads.Read.BOOLEAN;
    case BYTE:
      return StoreReads.Read.BYTE;
    case SHORT:
      return StoreReads.Read.SHORT;
    case INT:
      return StoreReads.Read.INT;
    case LONG:
      return StoreReads.Read.LONG;
    case FLOAT:
      return StoreReads.Read.FLOAT;
    case DOUBLE:
      return StoreReads.Read.DOUBLE;
    default:
      throw new IllegalArgumentException("the store holds no column of type "
          + field.getType() + " (" + field.getName() + ")");
    }
  }

  /** Rule that reads a whole store table (not a view) through an {@link EnumerableStoreScan}. */
  static final class Rule extends ConverterRule {
    static Rule create(JdbcConvention in) {
      return Config.INSTANCE
          .withConversion(JdbcTableScan.class, StoreTable::holdsRows, in,
              EnumerableConvention.INSTANCE, "EnumerableStoreScanRule")
          .withRuleFactory(Rule::new)
          .toRule(Rule.class);
    }

    Rule(Config config) {
      super(config);
    }

    @Override public RelNode convert(RelNode rel) {
      return new EnumerableStoreScan(rel.getCluster(),
          rel.getTraitSet().replace(EnumerableConvention.INSTANCE), rel.getTable());
    }
  }
}
