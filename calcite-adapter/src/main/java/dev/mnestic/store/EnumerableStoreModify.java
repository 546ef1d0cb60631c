package dev.mnestic.store;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.adapter.jdbc.JdbcTable;
import org.apache.calcite.linq4j.function.Function0;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.type.SqlTypeUtil;

import com.google.common.primitives.Primitives;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * INSERT, UPDATE, DELETE and MERGE of a store table, their input computed by
 * Calcite (MERGE's as {@code MnesticSqlToRelConverter} lays it out). The generated code hands
 * the input's code, as a function computing its rows, to
 * {@link StoreWrites#modify}, which writes them on the statement's session
 * (computing them again when the statement runs again after a conflicting write). Emits one
 * row: the number of rows written.
 */
public final class EnumerableStoreModify extends TableModify implements EnumerableRel {
  EnumerableStoreModify(RelOptCluster cluster, RelTraitSet traits,
      RelOptTable table, Prepare.CatalogReader catalogReader, RelNode input,
      Operation operation, List<String> updateColumnList,
      List<RexNode> sourceExpressionList, boolean flattened) {
    super(cluster, traits, table, catalogReader, input, operation,
        updateColumnList, sourceExpressionList, flattened);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableStoreModify(getCluster(), traitSet, getTable(),
        getCatalogReader(), sole(inputs), getOperation(), getUpdateColumnList(),
        getSourceExpressionList(), isFlattened());
  }

  /**
   * This INSERT as a {@link StoreWrites.DirectInsert}, when each column it writes is a
   * parameter of the column's own type or NULL ({@code INSERT INTO t [(columns)] VALUES (?, ?,
   * ...)}, the columns left out having no default): then its rows, one per set of parameter
   * values, can be bound straight into the store ({@link StoreWrites#insertBatch}) as this
   * plan would write them, without running it once per row. Otherwise null.
   */
  public StoreWrites.DirectInsert directInsert() {
    if (getOperation() != Operation.INSERT
        || !(getInput() instanceof EnumerableCalc calc)
        || !(calc.getInput() instanceof EnumerableValues values)
        || values.getTuples().size() != 1) {
      return null;
    }
    final RexProgram program = calc.getProgram();
    if (program.getCondition() != null) {
      return null;
    }
    final List<RexNode> columns = program.expandList(program.getProjectList());
    final int[] parameters = new int[columns.size()];
    final Class<?>[] classes = new Class<?>[columns.size()];
    final JavaTypeFactory types = (JavaTypeFactory) getCluster().getTypeFactory();
    for (int i = 0; i < columns.size(); i++) {
      final RexNode column = columns.get(i);
      // The column's value as the plan hands it to StoreWrites: the parameter's own value (no
      // cast: the validator gave the parameter the column's type), or NULL
      if (column instanceof RexDynamicParam parameter
          && SqlTypeUtil.equalSansNullability(types, parameter.getType(),
              getTable().getRowType().getFieldList().get(i).getType())) {
        parameters[i] = parameter.getIndex();
        classes[i] = Primitives.wrap((Class<?>) types.getJavaClass(parameter.getType()));
      } else if (RexLiteral.isNullLiteral(column)) {
        parameters[i] = -1;
      } else {
        return null;
      }
    }
    return new StoreWrites.DirectInsert(
        requireNonNull(getTable().unwrap(JdbcTable.class)).jdbcTableName, parameters, classes);
  }

  // Expressions.lambda(Function0.class, ...): a class literal of a generic type is raw.
  @SuppressWarnings("unchecked")
  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    final Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
    // The input's code runs inside the call, once for each time the statement runs (a write
    // that met a row another transaction changed runs again): some operators read their
    // input's rows when their code runs, not when their rows are read.
    final BlockBuilder rows = new BlockBuilder();
    rows.add(
        Expressions.return_(null,
            input.physType.convertTo(rows.append("input", input.block), JavaRowFormat.ARRAY)));
    final String table = requireNonNull(getTable().unwrap(JdbcTable.class)).jdbcTableName;
    final List<String> updateColumns =
        getUpdateColumnList() == null ? List.of() : getUpdateColumnList();
    // return StoreWrites.modify(root, "<table>", TableModify.Operation.<operation>, new String[] {<updateColumns>},
    //     () -> { <input's code>; return rows; });
    final BlockBuilder builder = new BlockBuilder();
    builder.add(
        Expressions.return_(null,
            Expressions.call(StoreMethod.STORE_MODIFY.method,
                implementor.getRootExpression(),
                Expressions.constant(table),
                Expressions.constant(getOperation()),
                Expressions.newArrayInit(String.class,
                    updateColumns.stream().map(Expressions::constant)
                        .toArray(Expression[]::new)),
                Expressions.lambda(Function0.class, rows.toBlock()))));
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(),
        getRowType(), pref.prefer(JavaRowFormat.SCALAR));
    return implementor.result(physType, builder.toBlock());
  }
}
