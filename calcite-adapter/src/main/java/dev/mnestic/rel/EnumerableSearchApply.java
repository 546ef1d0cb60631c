package dev.mnestic.rel;

import dev.mnestic.runtime.MnesticMethod;
import dev.mnestic.runtime.SearchRun;
import dev.mnestic.store.EnumerableStoreScan;
import dev.mnestic.store.StoreReads;

import org.apache.calcite.DataContext;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@link SearchApply} in Enumerable code: one call into {@link SearchRun}. */
public final class EnumerableSearchApply extends SearchApply implements EnumerableRel {
  EnumerableSearchApply(RelOptCluster cluster, RelTraitSet traits, RelNode outer,
      RelNode relation, SearchRun.Spec spec, int binds) {
    super(cluster, traits, outer, relation, spec, binds);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableSearchApply(getCluster(), traitSet, inputs.get(0), inputs.get(1), spec,
        binds);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // return SearchRun.run(root, <left as Object[] rows>, <right as Object[] rows>, <spec>);
    final BlockBuilder builder = new BlockBuilder();
    final List<Expression> rows = RowsCall.inputs(this, implementor, builder);
    final RelNode relation = getInputs().get(1);
    final Expression reader = readsOnly(relation, spec.table())
        ? implementor.stash(new Reader((EnumerableRel) relation), SearchRun.RelationReader.class)
        : Expressions.constant(null, SearchRun.RelationReader.class);
    return RowsCall.result(this, implementor, pref, builder,
        Expressions.call(MnesticMethod.SEARCH.method, implementor.getRootExpression(),
            rows.get(0), rows.get(1), reader, implementor.stash(spec, SearchRun.Spec.class)));
  }

  /** Whether {@code rel} reads store table {@code table} alone, whole, from its row store. */
  private static boolean readsOnly(RelNode rel, String table) {
    if (rel.getInputs().isEmpty()) {
      return rel instanceof EnumerableStoreScan scan && table.equals(scan.tableName());
    }
    return rel.getInputs().stream().allMatch(input -> readsOnly(input, table));
  }

  /**
   * Reads rows of the indexed relation's table, given as HSQLDB holds them, through the
   * relation input's own plan, which scans them as the table ({@link StoreReads#ROWS}).
   */
  private static final class Reader implements SearchRun.RelationReader {
    private final EnumerableRel relation;

    Reader(EnumerableRel relation) {
      this.relation = relation;
    }

    @Override public List<Object[]> read(DataContext root, Object rows) {
      final Map<String, Object> variables = new HashMap<>();
      variables.put(StoreReads.ROWS, rows);
      variables.put(DataContext.Variable.CANCEL_FLAG.camelName,
          DataContext.Variable.CANCEL_FLAG.get(root));
      final List<Object[]> out = new ArrayList<>();
      for (Object[] row : Plans.run(relation, root.getRootSchema(), root.getTypeFactory(),
          List.of(), variables)) {
        out.add(row);
      }
      return out;
    }
  }
}
