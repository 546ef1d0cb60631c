package dev.mnestic.store;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.java.JavaTypeFactory;
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
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.ImmutableIntList;
import org.apache.calcite.util.mapping.Mapping;
import org.apache.calcite.util.mapping.MappingType;
import org.apache.calcite.util.mapping.Mappings;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.tools.RelBuilderFactory;

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
  /** The table's columns it reads, in the table's order: all, or those a projection uses. */
  private final ImmutableIntList columns;

  EnumerableStoreScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table) {
    this(cluster, traits, table,
        ImmutableIntList.identity(table.getRowType().getFieldCount()));
  }

  private EnumerableStoreScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table,
      ImmutableIntList columns) {
    super(cluster, traits, List.of(), table);
    this.columns = columns;
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableStoreScan(getCluster(), traitSet, getTable(), columns);
  }

  /** Whether it reads every column of the table. */
  private boolean readsAll() {
    return columns.size() == table.getRowType().getFieldCount();
  }

  @Override public RelDataType deriveRowType() {
    if (readsAll()) {
      return table.getRowType();
    }
    final List<RelDataTypeField> all = table.getRowType().getFieldList();
    final RelDataTypeFactory.Builder b = getCluster().getTypeFactory().builder();
    for (int c : columns) {
      b.add(all.get(c));
    }
    return b.build();
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).itemIf("columns", columns, !readsAll());
  }

  /**
   * Twice a table scan's: a whole scan, dearer than the same table's lookup by key through
   * HSQLDB (a JDBC filter over a JDBC scan), the only other way to read a store table. A scan
   * of fewer columns costs a hundredth less at most, so that the planner prefers it to the
   * whole scan under the same projection, and to nothing else.
   */
  @Override public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    final RelOptCost cost = super.computeSelfCost(planner, mq);
    final int all = table.getRowType().getFieldCount();
    return cost == null ? null
        : cost.multiplyBy(2 * (1 - 0.01 * (all - columns.size()) / Math.max(1, all)));
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    final List<RelDataTypeField> fields = getRowType().getFieldList();
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        fields.size() == 1 ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY);
    final List<Expression> reads = new ArrayList<>();
    final List<Expression> indexes = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      reads.add(Expressions.constant(read(physType, i)));
      indexes.add(Expressions.constant(columns.get(i)));
    }
    final String table = tableName();
    // return StoreReads.scan(root, "<table>", new int[] {<columns>},
    //     new StoreReads.Read[] {<reads>}, <array>);
    final BlockBuilder builder = new BlockBuilder();
    builder.add(
        Expressions.return_(null,
            Expressions.call(StoreMethod.STORE_SCAN.method,
                implementor.getRootExpression(),
                Expressions.constant(table),
                Expressions.newArrayInit(int.class, indexes),
                Expressions.newArrayInit(StoreReads.Read.class, reads),
                Expressions.constant(fields.size() != 1))));
    return implementor.result(physType, builder.toBlock());
  }

  /**
   * How each column of a store table's rows of type {@code rowType} is read, as a scan of the
   * table reads them ({@link StoreReads#scan}, {@link StoreReads#lookup}).
   */
  public static StoreReads.Read[] reads(JavaTypeFactory typeFactory, RelDataType rowType) {
    return reads(PhysTypeImpl.of(typeFactory, rowType,
        rowType.getFieldCount() == 1 ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY));
  }

  private static StoreReads.Read[] reads(PhysType physType) {
    final StoreReads.Read[] reads = new StoreReads.Read[physType.getRowType().getFieldCount()];
    for (int i = 0; i < reads.length; i++) {
      reads[i] = read(physType, i);
    }
    return reads;
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

  /**
   * Rule that reads only the columns a projection or an aggregation over a whole
   * {@link EnumerableStoreScan} uses ({@code SELECT COUNT(*)}: none): the same projection or
   * aggregation over a scan of those columns, or the scan alone where the projection keeps
   * the columns it reads in their order.
   */
  static final class ColumnsRule extends RelRule<ColumnsRule.Config> {
    static final ColumnsRule PROJECT = Config.of(Project.class).toRule();
    static final ColumnsRule AGGREGATE = Config.of(Aggregate.class).toRule();

    ColumnsRule(Config config) {
      super(config);
    }

    /** The input columns {@code rel}, a projection or an aggregation, uses. */
    private static ImmutableBitSet used(RelNode rel) {
      return rel instanceof Project p ? RelOptUtil.InputFinder.bits(p.getProjects(), null)
          : ImmutableBitSet.of(RelOptUtil.getAllFields((Aggregate) rel));
    }

    @Override public void onMatch(RelOptRuleCall call) {
      final RelNode top = call.rel(0);
      final EnumerableStoreScan scan = call.rel(1);
      final ImmutableIntList columns = ImmutableIntList.of(used(top).toArray());
      final EnumerableStoreScan read = new EnumerableStoreScan(scan.getCluster(),
          scan.getTraitSet(), scan.getTable(), columns);
      final Mapping moved = Mappings.create(MappingType.INVERSE_SURJECTION,
          scan.getRowType().getFieldCount(), columns.size());
      for (int k = 0; k < columns.size(); k++) {
        moved.set(columns.get(k), k);
      }
      if (top instanceof Project project) {
        final List<RexNode> projects = RexUtil.apply(moved, project.getProjects());
        // the columns as read, in their order: the narrowed scan alone
        call.transformTo(RexUtil.isIdentity(projects, read.getRowType()) ? read
            : project.copy(project.getTraitSet(), read, projects, project.getRowType()));
        return;
      }
      final Aggregate aggregate = (Aggregate) top;
      call.transformTo(aggregate.copy(aggregate.getTraitSet(), read,
          Mappings.apply(moved, aggregate.getGroupSet()),
          Mappings.apply2(moved, aggregate.getGroupSets()),
          aggregate.getAggCallList().stream().map(c -> c.transform(moved)).toList()));
    }

    /**
     * Its configuration, as data (Calcite's own rules get theirs generated by Immutables): a
     * projection or aggregation that uses fewer columns over a scan of every column.
     */
    record Config(RelRule.OperandTransform operandSupplier, String description,
        RelBuilderFactory relBuilderFactory) implements RelRule.Config {
      /** Over a scan of every column, a {@code kind} that uses fewer. */
      static Config of(Class<? extends RelNode> kind) {
        return new Config(b0 -> b0.operand(kind)
            .predicate(r -> used(r).cardinality() < r.getInput(0).getRowType().getFieldCount())
            .oneInput(b1 -> b1.operand(EnumerableStoreScan.class)
                .predicate(EnumerableStoreScan::readsAll).noInputs()),
            "EnumerableStoreScanColumnsRule(" + kind.getSimpleName() + ")",
            RelFactories.LOGICAL_BUILDER);
      }

      @Override public ColumnsRule toRule() {
        return new ColumnsRule(this);
      }

      @Override public Config withRelBuilderFactory(RelBuilderFactory f) {
        return new Config(operandSupplier, description, f);
      }

      @Override public Config withDescription(String d) {
        return new Config(operandSupplier, d, relBuilderFactory);
      }

      @Override public Config withOperandSupplier(RelRule.OperandTransform transform) {
        return new Config(transform, description, relBuilderFactory);
      }
    }
  }
}
