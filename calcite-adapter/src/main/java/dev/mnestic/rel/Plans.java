package dev.mnestic.rel;

import dev.mnestic.runtime.RunningStatement;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableInterpretable;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.tools.Programs;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;

/**
 * Runs relational plans inside the engine, without a JDBC statement around
 * them: Calcite's standard program (sub-queries, decorrelation, field
 * trimming, the plan's own cluster planner, calcs) chooses the Enumerable
 * plan, which is compiled to Java and bound to a context holding the root
 * schema (for store scans), the {@link RowTable}s the plan reads, and a
 * cancel flag that recursion, scans and join inputs check ({@link EnumerableStopCheck}). Rows come out as {@code Object[]}
 * straight from the generated code.
 */
public final class Plans {
  private Plans() {
  }

  /** The Enumerable plan Calcite chooses for {@code logical}. */
  public static EnumerableRel optimize(RelNode logical) {
    return (EnumerableRel) Programs.standard().run(logical.getCluster().getPlanner(), logical,
        logical.getTraitSet().replace(EnumerableConvention.INSTANCE), List.of(), List.of());
  }

  /** The chosen plan as text, one operator a line. */
  public static String explain(EnumerableRel physical) {
    return RelOptUtil.toString(physical);
  }

  /**
   * Compiles and runs {@code physical}; its rows, each an {@code Object[]}
   * (one-column rows too).
   *
   * @param tables every row table the plan scans
   * @param variables more of the context: {@code DataContext.Variable.CANCEL_FLAG} (an
   *     {@code AtomicBoolean} that stops a running recursion when set), and what runtime
   *     methods read, such as {@code SemiNaive.PROGRESS}
   */
  public static Enumerable<Object[]> run(EnumerableRel physical, SchemaPlus root,
      JavaTypeFactory typeFactory, List<RowTable> tables, Map<String, Object> variables) {
    final Map<String, Object> values = new HashMap<>();
    final EnumerableRel checked = EnumerableStopCheck.insert(physical);
    // Janino cannot be interrupted: a statement stopped while it compiles returns at once.
    final Bindable<?> bindable = RunningStatement.compiled(() ->
        EnumerableInterpretable.toBindable(values, null, checked, EnumerableRel.Prefer.ARRAY));
    for (RowTable t : tables) {
      values.put(t.name(), t);
    }
    final long now = System.currentTimeMillis();
    final TimeZone zone = TimeZone.getDefault();
    values.put(DataContext.Variable.UTC_TIMESTAMP.camelName, now);
    values.put(DataContext.Variable.CURRENT_TIMESTAMP.camelName, now + zone.getOffset(now));
    values.put(DataContext.Variable.LOCAL_TIMESTAMP.camelName, now + zone.getOffset(now));
    values.put(DataContext.Variable.TIME_ZONE.camelName, zone);
    values.put(DataContext.Variable.LOCALE.camelName, Locale.getDefault());
    values.putAll(variables);
    final Enumerable<?> rows = bindable.bind(new Context(root, typeFactory, values));
    final boolean scalar = physical.getRowType().getFieldCount() == 1;
    return rows.select(row -> scalar && !(row instanceof Object[])
        ? new Object[] {row} : (Object[]) row);
  }

  /** What generated code asks of its context. */
  private record Context(SchemaPlus root, JavaTypeFactory typeFactory, Map<String, Object> values)
      implements DataContext {
    @Override public SchemaPlus getRootSchema() {
      return root;
    }

    @Override public JavaTypeFactory getTypeFactory() {
      return typeFactory;
    }

    @Override public QueryProvider getQueryProvider() {
      throw new UnsupportedOperationException("plans run by Plans have no query provider");
    }

    @Override public Object get(String name) {
      return values.get(name);
    }
  }
}
