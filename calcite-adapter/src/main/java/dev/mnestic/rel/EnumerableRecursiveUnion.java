package dev.mnestic.rel;

import dev.mnestic.value.HeadAggregation;

import dev.mnestic.runtime.CozoCalls;
import dev.mnestic.runtime.MnesticMethod;
import dev.mnestic.runtime.ProbeChain;
import dev.mnestic.runtime.RowTable;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableHashJoin;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.enumerable.EnumerableUnion;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;


/** {@link RecursiveUnion} in Enumerable code: one call into {@link dev.mnestic.runtime.SemiNaive}. */
public final class EnumerableRecursiveUnion extends RecursiveUnion implements EnumerableRel {
  EnumerableRecursiveUnion(RelOptCluster cluster, RelTraitSet traits,
      List<RelNode> seeds, List<RelNode> iteratives, List<RelOptTable> fullTables,
      List<RelOptTable> deltaTables, List<HeadAggregation> aggregations, int maxIterations) {
    super(cluster, traits, seeds, iteratives, fullTables, deltaTables, aggregations,
        maxIterations);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    final int n = size();
    return new EnumerableRecursiveUnion(getCluster(), traitSet, inputs.subList(0, n),
        inputs.subList(n, 2 * n), fullTables, deltaTables, aggregations, maxIterations);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // return SemiNaive.fixpoint(root, new Enumerable[] {<seeds>},
    //     new Enumerable[] {<iteratives>},
    //     <stashed probe chains, per seed then per iterative, or null>,
    //     new RowTable[] {<full>},
    //     new RowTable[] {<delta>}, maxIterations,
    //     new HeadAggregation[] {<aggregations, stashed, or null for set semantics>});
    final BlockBuilder builder = new BlockBuilder();
    final List<Expression> parts = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      final Result r = implementor.visitChild(this, i, (EnumerableRel) inputs.get(i), Prefer.ARRAY);
      parts.add(builder.append("part" + i,
          r.physType.convertTo(builder.append("input" + i, r.block), JavaRowFormat.ARRAY)));
    }
    final int n = size();
    final Expression rows = builder.append("rows",
            Expressions.call(MnesticMethod.SEMI_NAIVE_FIXPOINT.method,
                implementor.getRootExpression(),
                Expressions.newArrayInit(Enumerable.class, parts.subList(0, n)),
                Expressions.newArrayInit(Enumerable.class, parts.subList(n, 2 * n)),
                implementor.stash(getInputs().stream().map(EnumerableRecursiveUnion::chains)
                    .toArray(ProbeChain[][]::new), ProbeChain[][].class),
                tables(implementor, fullTables),
                tables(implementor, deltaTables),
                Expressions.constant(maxIterations),
                Expressions.newArrayInit(HeadAggregation.class, aggregations.stream()
                    .map(a -> a == null
                        ? Expressions.constant(null, HeadAggregation.class)
                        : implementor.stash(a, HeadAggregation.class))
                    .toList())));
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        pref.prefer(JavaRowFormat.ARRAY));
    // Object[] rows even for one column (of(..., true) would make that SCALAR).
    final PhysType arrays = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.ARRAY, false);
    builder.add(Expressions.return_(null, arrays.convertTo(rows, physType.getFormat())));
    return implementor.result(physType, builder.toBlock());
  }

  /**
   * The {@link ProbeChain}s whose union is {@code input} (a seed or an iterative part), or null
   * unless each of its parts (the inputs of its unions) is one: scans of row tables joined
   * left-deep by inner hash joins on equal columns, with projections of columns.
   */
  static ProbeChain[] chains(RelNode input) {
    final List<RelNode> parts = new ArrayList<>();
    union(input, parts);
    final List<ProbeChain> chains = new ArrayList<>();
    for (RelNode part : parts) {
      final Chain chain = new Chain();
      final int[] head = chain.slots(part);
      if (head == null) {
        return null;
      }
      chains.add(new ProbeChain(chain.first, chain.firstWidth, chain.lookupColumn,
          chain.lookupValue, chain.probes, head));
    }
    return chains.toArray(new ProbeChain[0]);
  }

  private static void union(RelNode rel, List<RelNode> parts) {
    final RelNode r = EnumerableStopCheck.unchecked(rel);
    if (r instanceof EnumerableUnion u && u.all) {
      u.getInputs().forEach(input -> union(input, parts));
    } else {
      parts.add(r);
    }
  }

  /** A chain being matched: its first table, then its probes, slot by slot. */
  private static final class Chain {
    RowTable first;
    int firstWidth;
    /** The first table's column a constant picks its rows by ({@link #lookup}); -1 for none. */
    int lookupColumn = -1;
    long lookupValue;
    final List<ProbeChain.Probe> probes = new ArrayList<>();
    int width;

    /** The slots of {@code rel}'s columns, or null if {@code rel} is not part of a chain. */
    int[] slots(RelNode rel) {
      final RelNode r = EnumerableStopCheck.unchecked(rel);
      if (r instanceof TableScan scan && first == null) {
        first = scan.getTable().unwrap(RowTable.class);
        firstWidth = width = scan.getRowType().getFieldCount();
        return first == null ? null : IntStream.range(0, width).toArray();
      }
      if (r instanceof EnumerableCalc calc) {
        final int[] input = slots(calc.getInput());
        if (input == null) {
          return null;
        }
        final RexProgram program = calc.getProgram();
        if (program.getCondition() != null
            && !lookup(program.expandLocalRef(program.getCondition()), input)) {
          return null;
        }
        final int[] out = new int[program.getProjectList().size()];
        for (int k = 0; k < out.length; k++) {
          if (!(program.expandLocalRef(program.getProjectList().get(k)) instanceof RexInputRef ref)) {
            return null;
          }
          out[k] = input[ref.getIndex()];
        }
        return out;
      }
      if (r instanceof EnumerableHashJoin join && join.getJoinType() == JoinRelType.INNER
          && EnumerableStopCheck.unchecked(join.getRight()) instanceof TableScan scan
          && scan.getTable().unwrap(RowTable.class) != null) {
        final int[] left = slots(join.getLeft());
        if (left == null) {
          return null;
        }
        final int probed = scan.getRowType().getFieldCount();
        final List<RexNode> equal = RelOptUtil.conjunctions(join.getCondition());
        final int[] columns = new int[equal.size()];
        final int[] keys = new int[equal.size()];
        for (int k = 0; k < columns.length; k++) {
          if (!(equal.get(k) instanceof RexCall call)
              || !call.isA(List.of(SqlKind.EQUALS, SqlKind.IS_NOT_DISTINCT_FROM))
              || !(call.getOperands().get(0) instanceof RexInputRef a)
              || !(call.getOperands().get(1) instanceof RexInputRef b)) {
            return null;
          }
          final int l = Math.min(a.getIndex(), b.getIndex());
          final int rr = Math.max(a.getIndex(), b.getIndex());
          if (l >= left.length || rr < left.length) {
            return null;
          }
          keys[k] = left[l];
          columns[k] = rr - left.length;
        }
        if (columns.length == 0) {
          return null;
        }
        probes.add(new ProbeChain.Probe(scan.getTable().unwrap(RowTable.class), probed, columns,
            keys));
        final int[] out = Arrays.copyOf(left, left.length + probed);
        for (int k = 0; k < probed; k++) {
          out[left.length + k] = width + k;
        }
        width += probed;
        return out;
      }
      return null;
    }

    /**
     * Whether {@code condition}, over columns in slots {@code input}, picks the first table's
     * rows whose column holds an Int constant ({@code SAME($k, VALUE(literal))}, a constant in
     * a rule's atom: {@code reach[y] := *edge[0, y]}) before any probe; if so, taken as the
     * chain's lookup.
     */
    boolean lookup(RexNode condition, int[] input) {
      if (!probes.isEmpty() || lookupColumn >= 0
          || !(condition instanceof RexCall same) || !isCozoCall(same, "same")
          || same.getOperands().size() != 2) {
        return false;
      }
      for (int k = 0; k < 2; k++) {
        if (same.getOperands().get(k) instanceof RexInputRef ref
            && same.getOperands().get(1 - k) instanceof RexCall value
            && isCozoCall(value, "value") && value.getOperands().size() == 1
            && value.getOperands().get(0) instanceof RexLiteral literal
            && literal.getType().getSqlTypeName() == SqlTypeName.BIGINT
            && literal.getValueAs(Long.class) != null) {
          lookupColumn = input[ref.getIndex()];
          lookupValue = literal.getValueAs(Long.class);
          return true;
        }
      }
      return false;
    }

    /** Whether {@code call} calls {@link CozoCalls}'s method {@code name}. */
    private static boolean isCozoCall(RexCall call, String name) {
      return call.getOperator() instanceof SqlUserDefinedFunction udf
          && udf.getFunction() instanceof ScalarFunctionImpl f
          && f.method.getDeclaringClass() == CozoCalls.class && f.method.getName().equals(name);
    }
  }

  private static Expression tables(EnumerableRelImplementor implementor,
      List<RelOptTable> tables) {
    final List<Expression> stashed = new ArrayList<>();
    for (RelOptTable t : tables) {
      stashed.add(implementor.stash(RowTable.of(t), RowTable.class));
    }
    return Expressions.newArrayInit(RowTable.class, stashed);
  }

}
