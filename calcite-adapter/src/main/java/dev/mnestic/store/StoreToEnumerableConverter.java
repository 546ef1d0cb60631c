package dev.mnestic.store;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.jdbc.JdbcConvention;
import org.apache.calcite.adapter.jdbc.JdbcTableScan;
import org.apache.calcite.adapter.jdbc.JdbcToEnumerableConverter;
import org.apache.calcite.linq4j.tree.BlockStatement;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.GotoStatement;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.linq4j.tree.Statement;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.BuiltInMethod;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Calcite's {@link JdbcToEnumerableConverter} for the store (what runs there: a lookup by
 * key, {@link StoreConvention}), with TIMESTAMP and DATE
 * columns read without JDBC's Calendar conversions
 * ({@link StoreReads#timestamp}), ARRAY elements of those types as
 * Calcite holds them ({@link StoreReads#array}) and binary
 * columns as Calcite holds them. Calcite reads a BINARY or VARBINARY column
 * with {@code getObject}, which gives a {@code byte[]} (a
 * {@link java.util.UUID} for HSQLDB's UUID), where Calcite's code expects a
 * {@link org.apache.calcite.avatica.util.ByteString}; each row is mended on
 * the way out.
 */
final class StoreToEnumerableConverter extends JdbcToEnumerableConverter {
  StoreToEnumerableConverter(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
    super(cluster, traits, input);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new StoreToEnumerableConverter(getCluster(), traitSet, sole(inputs));
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    final Result calcite = super.implement(implementor, pref);
    // StoreReads.readable(root, new String[] {<the store's tables read>});
    // <Calcite's code, each column read as stored>
    final String[] tables = RelOptUtil.findTables(getInput()).stream()
        .map(t -> t.unwrap(StoreTable.class)).filter(java.util.Objects::nonNull)
        .map(StoreTable::storedName).distinct().toArray(String[]::new);
    final List<Statement> checked = new ArrayList<>();
    checked.add(Expressions.statement(Expressions.call(StoreMethod.STORE_READABLE.method,
        implementor.getRootExpression(), Expressions.constant(tables))));
    checked.addAll(calcite.block.accept(READ_AS_STORED).statements);
    final Result result = implementor.result(calcite.physType, Expressions.block(checked));
    final List<RelDataTypeField> fields = getRowType().getFieldList();
    final List<Integer> binary = new ArrayList<>();
    for (RelDataTypeField f : fields) {
      if (SqlTypeUtil.isBinary(f.getType())) {
        binary.add(f.getIndex());
      }
    }
    if (binary.isEmpty()) {
      return result;
    }
    // return enumerable;  becomes
    // return StoreReads.binaries(enumerable, new int[] {...}, fieldCount > 1);
    final List<Statement> statements = new ArrayList<>(result.block.statements);
    final GotoStatement last = (GotoStatement) statements.remove(statements.size() - 1);
    statements.add(Expressions.return_(null,
        Expressions.call(StoreMethod.STORE_READ_BINARIES.method, last.expression,
            Expressions.constant(binary.stream().mapToInt(Integer::intValue).toArray()),
            Expressions.constant(fields.size() > 1))));
    final BlockStatement block = Expressions.block(statements);
    return implementor.result(result.physType, block);
  }

  /**
   * Rewrites each read of a TIMESTAMP, DATE or ARRAY column:
   * {@code SqlFunctions.toLong(resultSet.getTimestamp(i))} becomes
   * {@code StoreReads.timestamp(resultSet, i)} ({@code toLongOptional}:
   * {@code timestampOptional}), {@code SqlFunctions.toInt(resultSet.getDate(i))}
   * {@code StoreReads.date(resultSet, i)} ({@code toIntOptional}: {@code dateOptional}), and
   * {@code SqlFunctions.arrayToList(array)} {@code StoreReads.array(array)}.
   */
  private static final Shuttle READ_AS_STORED = new Shuttle() {
    @Override public Expression visit(MethodCallExpression call, Expression target,
        List<Expression> arguments) {
      if (call.method.equals(BuiltInMethod.JDBC_ARRAY_TO_LIST.method)) {
        return Expressions.call(StoreMethod.STORE_READ_ARRAY.method, arguments);
      }
      final StoreMethod read = READS.get(call.method);
      if (read != null && arguments.get(0) instanceof MethodCallExpression get
          && (get.method.equals(BuiltInMethod.RESULT_SET_GET_TIMESTAMP2.method)
              || get.method.equals(BuiltInMethod.RESULT_SET_GET_DATE2.method))) {
        return Expressions.call(read.method, get.targetExpression, get.expressions.get(0));
      }
      return super.visit(call, target, arguments);
    }
  };

  /** Calcite's conversion of a value JDBC gives to the read that replaces it. */
  private static final Map<Method, StoreMethod> READS = Map.of(
      BuiltInMethod.TIMESTAMP_TO_LONG.method, StoreMethod.STORE_READ_TIMESTAMP,
      BuiltInMethod.TIMESTAMP_TO_LONG_OPTIONAL.method,
      StoreMethod.STORE_READ_TIMESTAMP_OPTIONAL,
      BuiltInMethod.DATE_TO_INT.method, StoreMethod.STORE_READ_DATE,
      BuiltInMethod.DATE_TO_INT_OPTIONAL.method, StoreMethod.STORE_READ_DATE_OPTIONAL);

  /**
   * Rule that reads from the store into Enumerable code through a
   * {@link StoreToEnumerableConverter}: a filter by key, or a view, run in HSQLDB (a whole
   * table is an {@link EnumerableStoreScan}).
   */
  static final class Rule extends ConverterRule {
    static Rule create(JdbcConvention out) {
      return Config.INSTANCE
          .withConversion(RelNode.class,
              rel -> !(rel instanceof JdbcTableScan scan && StoreTable.holdsRows(scan)), out,
              EnumerableConvention.INSTANCE, "StoreToEnumerableConverterRule")
          .withRuleFactory(Rule::new)
          .toRule(Rule.class);
    }

    Rule(Config config) {
      super(config);
    }

    @Override public RelNode convert(RelNode rel) {
      return new StoreToEnumerableConverter(rel.getCluster(),
          rel.getTraitSet().replace(getOutTrait()), rel);
    }
  }
}
