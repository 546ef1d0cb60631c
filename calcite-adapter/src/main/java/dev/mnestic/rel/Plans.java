package dev.mnestic.rel;

import dev.mnestic.runtime.RowTable;
import dev.mnestic.runtime.RunningStatement;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableInterpretable;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.linq4j.tree.ClassDeclaration;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.FieldDeclaration;
import org.apache.calcite.linq4j.tree.VisitorImpl;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptCostImpl;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.runtime.ArrayBindable;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.runtime.Typed;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;
import org.apache.calcite.util.CancelFlag;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.UncheckedExecutionException;

import org.codehaus.commons.compiler.CompilerFactoryFactory;
import org.codehaus.commons.compiler.ISimpleCompiler;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs relational plans inside the engine, without a JDBC statement around
 * them: Calcite's standard program (sub-queries, decorrelation, field
 * trimming, the plan's own cluster planner, calcs) chooses the Enumerable
 * plan, which is compiled to Java (each program once: {@link #compilations}) and bound to a
 * context holding the root
 * schema (for store scans), the {@link RowTable}s the plan reads, and a
 * cancel flag that recursion, scans and join inputs check ({@link EnumerableStopCheck}). Rows come out as {@code Object[]}
 * straight from the generated code.
 */
public final class Plans {
  private Plans() {
  }

  /**
   * The Enumerable plan Calcite chooses for {@code logical} ({@link #standard()}), with the
   * rules its cluster's planner was given ({@link PlanRules}).
   */
  public static EnumerableRel optimize(RelNode logical) {
    PLANNED.incrementAndGet();
    return (EnumerableRel) standard().run(logical.getCluster().getPlanner(), logical,
        logical.getTraitSet().replace(EnumerableConvention.INSTANCE), List.of(), List.of());
  }

  /**
   * Calcite's standard program ({@code Programs.standard()}: sub-queries, decorrelation,
   * measures, field trimming, the given planner, calcs), its sub-query and calc steps run by
   * {@link #hep} planners, which stop with the running statement (Calcite's get no cancel flag).
   */
  public static Program standard() {
    // Calcite's calc step: each rule to its fixpoint in turn
    final HepProgramBuilder calcs = HepProgram.builder();
    PlanRules.CALCS.forEach(calcs::addRuleInstance);
    return Programs.sequence(subQueries(), Programs.decorrelate(),
        Programs.measure(DefaultRelMetadataProvider.INSTANCE), Programs.trim(), Plans::volcano,
        hep(calcs.build()));
  }

  /**
   * Calcite's {@code Programs.subQuery}: sub-queries as correlates (as mark correlates when
   * the connection enables top-down general decorrelation), in a {@link #hep} planner.
   */
  public static Program subQueries() {
    final Program correlates = hep(HepProgram.builder()
        .addRuleCollection(PlanRules.SUB_QUERIES_TO_CORRELATES).build());
    final Program marks = hep(HepProgram.builder()
        .addRuleCollection(PlanRules.SUB_QUERIES_TO_MARK_CORRELATES).build());
    return (planner, rel, traits, materializations, lattices) ->
        (planner.getContext().maybeUnwrap(CalciteConnectionConfig.class)
            .orElse(CalciteConnectionConfig.DEFAULT).topDownGeneralDecorrelationEnabled()
            ? marks : correlates).run(planner, rel, traits, materializations, lattices);
  }

  /**
   * Runs {@code program} as Calcite's {@code Programs.of(program, true,
   * DefaultRelMetadataProvider.INSTANCE)} does, in a Hep planner that checks the running
   * statement's cancel flag at each rule it fires: a statement stopped while it runs stops.
   */
  // registerMetadataProviders: deprecated in Calcite, whose Programs.of(HepProgram, ...) still
  // calls it so; without it the Hep planner would not see the cluster's metadata.
  @SuppressWarnings("deprecation")
  public static Program hep(HepProgram program) {
    return (planner, rel, traits, materializations, lattices) -> {
      final RunningStatement running = RunningStatement.current();
      final HepPlanner hep = new HepPlanner(program,
          running == null ? null : Contexts.of(new CancelFlag(running.flag())), true, null,
          RelOptCostImpl.FACTORY);
      final List<RelMetadataProvider> providers =
          new ArrayList<>(List.of(DefaultRelMetadataProvider.INSTANCE));
      hep.registerMetadataProviders(providers);
      materializations.forEach(hep::addMaterialization);
      lattices.forEach(hep::addLattice);
      rel.getCluster().setMetadataProvider(ChainedRelMetadataProvider.of(providers));
      hep.setRoot(rel);
      return hep.findBestExp();
    };
  }

  /** The step of Calcite's standard program that runs {@code planner} (Volcano) itself. */
  private static RelNode volcano(RelOptPlanner planner, RelNode rel, RelTraitSet traits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    materializations.forEach(planner::addMaterialization);
    lattices.forEach(planner::addLattice);
    planner.setRoot(rel);
    final RelNode root = rel.getTraitSet().equals(traits) ? rel : planner.changeTraits(rel, traits);
    planner.setRoot(root);
    return planner.chooseDelegate().findBestExp();
  }

  /** The chosen plan as text, one operator a line. */
  public static String explain(EnumerableRel physical) {
    return RelOptUtil.toString(physical);
  }

  /**
   * Compiles and runs {@code physical}; its rows, each an {@code Object[]}
   * (one-column rows too). The same as {@link #compile} then {@link Compiled#run}.
   *
   * @param tables every row table the plan scans
   * @param variables more of the context: {@code DataContext.Variable.CANCEL_FLAG} (an
   *     {@code AtomicBoolean} that stops a running recursion when set), and what runtime
   *     methods read, such as {@code SemiNaive.PROGRESS}
   */
  public static Enumerable<Object[]> run(EnumerableRel physical, SchemaPlus root,
      JavaTypeFactory typeFactory, List<RowTable> tables, Map<String, Object> variables) {
    return compile(physical).run(root, typeFactory, tables, variables);
  }

  /**
   * {@code physical} as generated code, compiled ({@link #COMPILED}: each program once), with
   * the values Calcite stashed for it: to run as often as wanted, each run with its own context.
   */
  public static Compiled compile(EnumerableRel physical) {
    GENERATED.incrementAndGet();
    final Map<String, Object> stashed = new HashMap<>();
    final EnumerableRel checked = EnumerableStopCheck.insert(physical);
    // Janino cannot be interrupted: a statement stopped while it compiles returns at once.
    final Bindable<?> bindable = RunningStatement.compiled(() -> bindable(stashed, checked));
    return new Compiled(bindable, stashed, physical.getRowType().getFieldCount() == 1);
  }

  /**
   * A plan compiled ({@link #compile}): its program, the values Calcite stashed for it (the
   * plan's own objects: its row tables, specs, constants), and whether its rows have one column.
   * Holds no run's state: each {@link #run} binds the program to a context of its own.
   */
  public static final class Compiled {
    private final Bindable<?> bindable;
    private final Map<String, Object> stashed;
    private final boolean scalar;

    private Compiled(Bindable<?> bindable, Map<String, Object> stashed, boolean scalar) {
      this.bindable = bindable;
      this.stashed = stashed;
      this.scalar = scalar;
    }

    /**
     * Runs the plan; its rows, each an {@code Object[]} (one-column rows too).
     *
     * @param tables every row table the plan scans
     * @param variables more of the context: {@code DataContext.Variable.CANCEL_FLAG} (an
     *     {@code AtomicBoolean} that stops a running recursion when set), and what runtime
     *     methods read, such as {@code SemiNaive.PROGRESS}
     */
    public Enumerable<Object[]> run(SchemaPlus root, JavaTypeFactory typeFactory,
        List<RowTable> tables, Map<String, Object> variables) {
      final Map<String, Object> values = new HashMap<>(stashed);
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
      return rows.select(row -> scalar && !(row instanceof Object[])
          ? new Object[] {row} : (Object[]) row);
    }
  }

  /** How many compiled programs {@link #COMPILED} keeps, the least recently used dropped first. */
  private static final int COMPILED_PROGRAMS = 512;

  /**
   * Compiled programs by their Java source. The same source is the same code, whatever it runs
   * on: generated code finds row tables, store tables and the values Calcite stashes for it in
   * its context ({@code root.get(name)}) when it is bound, so a plan generated again (a script
   * run again, its row tables named alike: {@code StratumLowering}) binds the class compiled
   * the first time to this run's values. Calcite keeps such a cache too, off unless a system
   * property is set before its classes load.
   */
  private static final Cache<String, Bindable<?>> COMPILED =
      CacheBuilder.newBuilder().maximumSize(COMPILED_PROGRAMS).build();

  /** Plans {@link #optimize} has planned in this JVM. */
  private static final AtomicLong PLANNED = new AtomicLong();

  /** Plans {@link #compile} has generated code for in this JVM (compiled or found compiled). */
  private static final AtomicLong GENERATED = new AtomicLong();

  /** How many plans {@link #optimize} has planned in this JVM. */
  public static long planned() {
    return PLANNED.get();
  }

  /** How many plans {@link #compile} has generated code for in this JVM. */
  public static long generated() {
    return GENERATED.get();
  }

  /** Programs Janino has compiled for {@link #run} in this JVM. */
  private static final AtomicLong COMPILATIONS = new AtomicLong();

  /** How many programs {@link #run} has compiled in this JVM (a program found compiled is not). */
  public static long compilations() {
    return COMPILATIONS.get();
  }

  /**
   * Calcite's {@code EnumerableInterpretable.toBindable} for {@code rel} (its rows as arrays),
   * its stashed values put in {@code values}, the program compiled only when {@link #COMPILED}
   * does not have it.
   */
  private static Bindable<?> bindable(Map<String, Object> values, EnumerableRel rel) {
    final ClassDeclaration declaration = new EnumerableRelImplementor(
        rel.getCluster().getRexBuilder(), values).implementRoot(rel, EnumerableRel.Prefer.ARRAY);
    final String body = Expressions.toString(declaration.memberDeclarations, "\n", false);
    // RunningStatement's checks (stopped, too long) of the program before it is compiled
    Hook.JAVA_PLAN.run(body);
    final String source = "public final class " + declaration.name + " implements "
        + (rel.getRowType().getFieldCount() == 1
            ? Bindable.class.getCanonicalName() + ", " + Typed.class.getCanonicalName()
            : ArrayBindable.class.getCanonicalName())
        + " {\n" + body + "\n}\n";
    try {
      // as Calcite's own cache: a class with static fields is not shared between runs
      return hasStaticField(declaration) ? compile(declaration.name, source)
          : COMPILED.get(source, () -> compile(declaration.name, source));
    } catch (Exception e) {
      throw new IllegalStateException("Error while compiling generated Java code:\n" + source,
          e instanceof ExecutionException || e instanceof UncheckedExecutionException
              ? e.getCause() : e);
    }
  }

  /** Whether {@code declaration}, or a class declared in it, declares a static field. */
  private static boolean hasStaticField(ClassDeclaration declaration) {
    final boolean[] found = {false};
    declaration.accept(new VisitorImpl<Void>() {
      @Override public Void visit(FieldDeclaration field) {
        found[0] |= (field.modifier & Modifier.STATIC) != 0;
        return found[0] ? null : super.visit(field);
      }
    });
    return found[0];
  }

  private static Bindable<?> compile(String className, String source) throws Exception {
    final ClassLoader loader = EnumerableInterpretable.class.getClassLoader();
    final ISimpleCompiler compiler =
        CompilerFactoryFactory.getDefaultCompilerFactory(loader).newSimpleCompiler();
    compiler.setParentClassLoader(loader);
    compiler.cook(source);
    COMPILATIONS.incrementAndGet();
    return (Bindable<?>) compiler.getClassLoader().loadClass(className)
        .getDeclaredConstructors()[0].newInstance();
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
