package dev.mnestic.datalog.lower;

import dev.mnestic.datalog.ast.Atom;
import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.FixedApply;
import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.eval.ConstantEvaluator;
import dev.mnestic.datalog.fixed.FixedRules;
import dev.mnestic.rel.LogicalRecursiveUnion;
import dev.mnestic.rel.MnesticRelBuilder;
import dev.mnestic.rel.PlanRules;
import dev.mnestic.runtime.CozoCalls;
import dev.mnestic.runtime.FixedRuleRun;
import dev.mnestic.runtime.IndexJoinRun;
import dev.mnestic.runtime.RowTable;
import dev.mnestic.store.EnumerableStoreScan;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreReads;
import dev.mnestic.value.ColType;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.HeadAggregation;
import dev.mnestic.value.HostAggregations;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.Validity;
import dev.mnestic.value.ValueException;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.adapter.jdbc.JdbcSchema;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.ViewExpanders;
import org.apache.calcite.prepare.RelOptTableImpl;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;

import com.google.common.collect.ImmutableList;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.Set;
import java.util.TreeSet;

/**
 * Lowers the steps of a {@link StratumPlan} to Calcite plans, and keeps the
 * row tables they read and fill: each evaluated relation's rows as a
 * transient table that later steps scan. Runs nothing: the runner runs each
 * plan and hands the rows back ({@link #materialize}, {@link #copy},
 * {@link #settled}).
 */
public final class StratumLowering implements RuleLowering.Tables {
  /** Where each stored relation is in the store. */
  public interface StoredTables {
    /** The store table holding {@code relation}; empty when there is none. */
    Optional<StoredTable> find(String relation);

    /**
     * The search index {@code index} of {@code relation} (which exists): its instance, kind,
     * definition and the relation's columns; empty when the relation has no such index.
     */
    Optional<SearchTarget> search(String relation, String index);
  }

  /** A search index as lowering uses it ({@link RuleLowering.Tables#search}). */
  public record SearchTarget(SearchIndex index, String table, SearchIndex.Kind kind,
      SearchIndex.Definition definition, SearchIndex.Columns columns) {
  }

  /**
   * A stored relation's table in the store schema ({@link Session#SCHEMA}).
   *
   * @param codecs per column in table order, the runtime codec that decodes it to a CozoDB
   *     value ({@link Operators#stored}), or null for the SQL value itself
   * @param keys the key columns in key order, as places in table order
   * @param timeTravel whether the last key column is a Validity that cannot be null, so that
   *     the relation can be read as of a moment ({@code *rel{...} @ moment})
   * @param columns the relation's columns, as positions of the table's: all in order for a
   *     relation, an index's order for an index {@code rel:idx} (the same rows)
   * @param lookup the stored value an equality on a table column takes to find the rows
   *     holding a CozoDB constant through one of the store's indexes, or null where none serves
   * @param rows about how many rows the table holds, asked when a read weighs lookups
   */
  public record StoredTable(String table, List<CozoCalls.Codec> codecs, List<Integer> keys,
      boolean timeTravel, List<Integer> columns, Lookup lookup, LongSupplier rows) {
  }

  /** How a value of a stored relation's column is looked up in the store's index. */
  public interface Lookup {
    /**
     * Whether an index of the store leads with table column {@code column} and the column
     * keeps its values as themselves, so that a value's rows can be looked up in it.
     */
    boolean leads(int column);

    /**
     * The stored value that table column {@code column} holds where a row's value is
     * {@code value}, when the column {@link #leads} an index and {@code value} is of its type;
     * else null.
     */
    Object storedValue(int column, Object value);
  }

  /** The most values of a variable whose rows a read looks up in an index, one by one. */
  static final int MAX_LOOKUPS = 1024;

  /**
   * A read looks the values of a variable up in an index when they are at most a
   * {@code LOOKUP_SHARE}th of the table's rows: each lookup costs HSQLDB a walk down its index
   * and the row, some times what reading a row of the whole table costs.
   */
  static final int LOOKUP_SHARE = 8;

  /**
   * A stored relation's plan, reading store table {@code table}.
   *
   * @param ints the same rows as packed Ints, when the plan reads every row of the table and
   *     each of the relation's columns is an integer column the plan only turns into a CozoDB
   *     Int (no codec): what to read ({@link StoreReads#longs}); else null
   */
  public record Read(String table, RelNode plan, IntColumns ints) {
  }

  /**
   * The table columns {@code columns} (in the relation's order), each read from the store as
   * {@code how} says: an integer read ({@link StoreReads#longs}).
   */
  public record IntColumns(int[] columns, StoreReads.Read[] how) {
  }

  /**
   * A fixpoint's plan and the tables it fills.
   *
   * @param full per member, its table of every tuple; full when the plan has run
   */
  public record Recursion(RelNode plan, Map<String, RelOptTable> full) {
  }

  private final RelBuilder b;
  private final SchemaPlus root;
  private final Map<String, ?> params;
  /** The aggregations the engine's host registered. */
  private final HostAggregations host;
  private final StoredTables stored;
  /** Every row table made: the context plans run with. */
  private final List<RowTable> tables = new ArrayList<>();
  /** Each evaluated relation's table. */
  private final Map<String, RelOptTable> materialized = new HashMap<>();
  /** During a recursive stratum: which table each rule application reads. */
  private Map<Atom.RuleApply, RelOptTable> reads = new IdentityHashMap<>();
  /** Whether rules being lowered run inside a fixpoint, once per round. */
  private boolean inFixpoint;
  /**
   * Stored relations read inside fixpoints, copied once (as CozoDB values), by relation (and
   * moment, {@link #copyKey}).
   */
  private final Map<String, RelOptTable> storedCopies = new HashMap<>();
  /** What {@code 'NOW'} means in a time-travel read, in µs ({@link StrataOptions#now}). */
  private final long now;
  /** The stored relations found so far, by name: a lowering runs inside one script's block. */
  private final Map<String, StoredTable> found = new HashMap<>();
  /** Whether a cyclic rule body is joined by a generic join ({@link StrataOptions#genericJoins}). */
  private final boolean genericJoins;
  /** The rows of the constant lists' tables ({@link #constants}), kept when the others empty. */
  private final Map<RowTable, List<Object[]>> constantRows = new IdentityHashMap<>();
  /** Whether every plan lowered so far may run again on other runs' data ({@link #reusable}). */
  private boolean reusable = true;

  public StratumLowering(SchemaPlus root, Map<String, ?> params, HostAggregations host,
      StoredTables stored, long now, boolean genericJoins) {
    this.root = root;
    this.genericJoins = genericJoins;
    this.now = now;
    this.params = params;
    this.host = host;
    this.stored = stored;
    this.b = RelBuilder.create(Frameworks.newConfigBuilder().defaultSchema(root).build());
    // Plans run with the planner of the plan's own cluster: Datalog's rules (why: PlanRules).
    PlanRules.DATALOG.applyTo(b.getCluster().getPlanner());
  }

  /** The builder plans are made with (its type factory types the rows plans run with). */
  public RelBuilder builder() {
    return b;
  }

  /** Every row table made so far: the context plans run with. */
  public List<RowTable> tables() {
    return tables;
  }

  /**
   * Whether the plans lowered so far depend only on the script, its parameters and the store's
   * schema, so that they may run again over other rows, each table emptied ({@link #empty}):
   * not when a read looks up values an earlier step's rows hold, a read travels to
   * {@code 'NOW'}, a search index is read or a fixed rule applied (each holds what this run
   * found: rows, the script's time, an index's instance, a rule's options).
   */
  public boolean reusable() {
    return reusable;
  }

  /**
   * Empties every row table for the plans to run again ({@link #reusable}), their rows' memory
   * let go; the tables of constant lists keep their values.
   */
  public void empty() {
    for (RowTable t : tables) {
      t.reset();
    }
    constantRows.forEach((t, rows) -> {
      t.rows().addAll(rows);
      t.fix();
    });
  }

  /** The rows of an evaluated relation. */
  public List<Object[]> rows(String relation) {
    return RowTable.of(materialized.get(relation)).rows();
  }

  /** Keeps {@code rows} as relation {@code relation}'s, of {@code arity} columns; its table. */
  public RowTable materialize(String relation, List<Object[]> rows, int arity) {
    final RelOptTable table = rowTable("rule_" + relation, anyRow(arity));
    RowTable.of(table).rows().addAll(rows);
    RowTable.of(table).fix();
    materialized.put(relation, table);
    return RowTable.of(table);
  }

  /** The plan of a {@link StratumPlan.Once}: its rules' union, distinct or aggregated. */
  public RelNode once(StratumPlan.Once step) {
    final RelNode union = union(step.rules(), width(step.rules(), step.aggregated()));
    return step.aggregated()
        ? MnesticRelBuilder.datalogAggregate(b.push(union), host.resolve(step.aggregations()))
            .build()
        : distinct(union);
  }

  /**
   * The plan of a {@link StratumPlan.Fixed}: a {@code FixedRuleApply} of its rule, with its
   * options and what each input binds, over each input relation (an evaluated rule's table, a
   * stored relation read from the store, at its moment if it has one).
   */
  public RelNode fixed(StratumPlan.Fixed step) {
    reusable = false;
    final FixedApply f = step.rule().fixed();
    final List<FixedRuleRun.Shape> shapes = new ArrayList<>();
    for (FixedApply.Input in : f.inputs()) {
      final RelNode input = in.stored()
          ? read(new Atom.StoredApply(in.relation(), List.of(), null, in.validAt(), in.pos()),
              Map.of())
              .plan()
          : LogicalTableScan.create(b.getCluster(), materialized.get(in.relation()), List.of());
      final List<String> columns = input.getRowType().getFieldNames();
      final List<String> bindings = new ArrayList<>();
      if (in.named() == null) {
        in.bindings().forEach(v -> bindings.add(v.name()));
      } else {
        // each column the application names binds its variable; the others none
        for (int i = 0; i < columns.size(); i++) {
          bindings.add("*~*" + i);
        }
        for (Atom.Binding binding : in.named()) {
          final int i = RuleLowering.column(columns, binding.column());
          if (i < 0) {
            throw new DatalogException(ErrorCode.EVAL_NAMED_FIELD_NOT_FOUND, "stored relation "
                + in.relation() + " does not have field " + binding.column(),
                binding.pos().line(), binding.pos().column());
          }
          bindings.set(i, ((Expr.Var) binding.value()).name());
        }
      }
      shapes.add(new FixedRuleRun.Shape(columns.size(), bindings));
      b.push(input);
    }
    return MnesticRelBuilder.fixedRuleApply(b, new FixedRuleRun.Spec(f.name(),
        FixedRules.describe(f), step.impl(), FixedRules.options(f, params), shapes,
        step.rule().head().size())).build();
  }

  /** The plan reading a {@link StratumPlan.CopyStored}'s relation from the store. */
  public Read read(StratumPlan.CopyStored step) {
    return read(step.at(), Map.of());
  }

  /** The stored relation {@code relation}, asked of the store once per lowering. */
  private StoredTable find(String relation, Pos pos) {
    final StoredTable known = found.get(relation);
    if (known != null) {
      return known;
    }
    final StoredTable table = stored.find(relation).orElseThrow(() -> new DatalogException(
        ErrorCode.QUERY_RELATION_NOT_FOUND,
        "Cannot find requested stored relation '" + relation + "'", pos.line(), pos.column()));
    found.put(relation, table);
    return table;
  }

  /** A whole read of {@code table}, its columns as the store holds them. */
  private RelNode scan(StoredTable table) {
    // Asked of the store schema itself: Calcite's wrapper snapshots table
    // names and would miss a table this script just created.
    final Table t = root.subSchemas().get(Session.SCHEMA).unwrap(JdbcSchema.class).tables()
        .get(table.table());
    if (t == null) {
      throw new IllegalStateException("store table " + table.table() + " is not in the schema");
    }
    final RelOptTable relOptTable = RelOptTableImpl.create(b.getRelOptSchema(),
        t.getRowType(b.getTypeFactory()), t, ImmutableList.of(Session.SCHEMA, table.table()));
    return ((TranslatableTable) t).toRel(ViewExpanders.simpleContext(b.getCluster()),
        relOptTable);
  }

  /** Table column {@code column}'s stored value {@code stored} as a CozoDB value. */
  private RexNode decoded(StoredTable table, int column, RexNode stored) {
    final CozoCalls.Codec codec = table.codecs().get(column);
    return codec == null ? b.call(Operators.VALUE, stored)
        : b.call(Operators.stored(codec), stored, b.literal(codec.planName));
  }

  @Override public boolean indexJoin(Atom.StoredApply at,
      Map<Integer, Collection<Object>> looked, List<Integer> leftKeys,
      List<Integer> relationKeys) {
    // inside a fixpoint the copy's probe chain (a primitive index of the whole relation, built
    // once) ran 1.5-3.6x faster than per-round lookups on RecursionBench's chain, random graph
    // and reach rows, so a fixpoint reads its copy
    if (at.validAt() != null || inFixpoint) {
      return false;
    }
    final StoredTable table = find(at.relation(), at.pos());
    for (int column : looked.keySet()) {
      if (table.lookup().leads(table.columns().get(column))) {
        return false;
      }
    }
    final int[] tableKeys = relationKeys.stream().mapToInt(table.columns()::get).toArray();
    int lookupKey = -1;
    for (int k = 0; k < tableKeys.length && lookupKey < 0; k++) {
      lookupKey = table.lookup().leads(tableKeys[k]) ? k : -1;
    }
    if (lookupKey < 0) {
      return false;
    }
    final int lookupColumn = tableKeys[lookupKey];
    final Lookup lookup = table.lookup();
    final CozoCalls.Codec[] codecs = new CozoCalls.Codec[tableKeys.length];
    for (int k = 0; k < codecs.length; k++) {
      codecs[k] = table.codecs().get(tableKeys[k]);
    }
    final int left = b.peek().getRowType().getFieldCount();
    b.push(scan(table));
    MnesticRelBuilder.indexJoin(b, new IndexJoinRun.Spec("*" + at.relation(), table.table(),
        leftKeys.stream().mapToInt(Integer::intValue).toArray(), tableKeys, codecs, lookupKey,
        value -> lookup.storedValue(lookupColumn, value)));
    // the left rows' columns, then the relation's, decoded
    final List<RexNode> fields = new ArrayList<>();
    for (int i = 0; i < left; i++) {
      fields.add(b.field(i));
    }
    for (int column : table.columns()) {
      fields.add(decoded(table, column, b.field(left + column)));
    }
    b.project(fields);
    return true;
  }

  /**
   * The stored relation (or index) {@code at} reads, from the store, its columns decoded to
   * CozoDB values: for a time-travel read, its facts as of the moment
   * ({@link MnesticRelBuilder#asOf}); otherwise, where {@code taken} (by column of the
   * relation) hold every value a column that leads an index of the store's can take in the
   * rule, the rows are first filtered by the stored values, a filter HSQLDB answers from that
   * index (the store's {@code KeyFilterRule}): by each constant, and by the fewest values a
   * variable bound by an earlier atom can take when they are few against the table's rows (at
   * most {@link #MAX_LOOKUPS}, and a {@link #LOOKUP_SHARE}th of the rows at most), a lookup per
   * value, where a hash join would read the whole table. A time-travel read filters nothing
   * before it picks each fact's version (a filter on another column could drop the newest
   * version).
   */
  private Read read(Atom.StoredApply at, Map<Integer, Collection<Object>> taken) {
    final String relation = at.relation();
    final Pos pos = at.pos();
    final Long moment = at.validAt() == null ? null : moment(at.validAt());
    final StoredTable table = find(relation, pos);
    if (moment != null && !table.timeTravel()) {
      throw new DatalogException(ErrorCode.EVAL_INVALID_TIME_TRAVEL,
          "Invalid time travel on relation " + relation, pos.line(), pos.column(),
          "Time travel scanning requires the last key column of the relation to be of type "
              + "'Validity'");
    }
    final RelNode scan = scan(table);
    b.push(scan);
    final List<RexNode> lookups = new ArrayList<>();
    if (moment == null) {
      RexNode fewest = null;
      int fewestCount = 0;
      for (Map.Entry<Integer, Collection<Object>> e : taken.entrySet()) {
        final int i = table.columns().get(e.getKey());
        final List<RexNode> stored = new ArrayList<>();
        for (Object value : e.getValue()) {
          final Object s = table.lookup().storedValue(i, value);
          if (s == null) {
            // a value no index lookup finds (a null, another type): no lookups by the column
            stored.clear();
            break;
          }
          stored.add(b.literal(s));
        }
        if (stored.size() == 1) {
          lookups.add(b.equals(b.field(i), stored.get(0)));
        } else if (stored.size() > 1 && (fewest == null || stored.size() < fewestCount)) {
          fewest = b.in(b.field(i), stored);
          fewestCount = stored.size();
        }
      }
      if (fewest != null && lookups.isEmpty() && fewestCount <= MAX_LOOKUPS
          && (long) fewestCount * LOOKUP_SHARE <= table.rows().getAsLong()) {
        lookups.add(fewest);
      }
    }
    if (!lookups.isEmpty()) {
      b.filter(lookups);
    }
    final List<String> names = scan.getRowType().getFieldNames();
    final List<RexNode> values = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      values.add(decoded(table, i, b.field(i)));
    }
    b.project(values, names, true);
    if (moment != null) {
      final List<Integer> keys = table.keys();
      MnesticRelBuilder.asOf(b, keys.subList(0, keys.size() - 1), keys.get(keys.size() - 1),
          moment);
    }
    if (!table.columns().equals(IntStream.range(0, names.size()).boxed().toList())) {
      b.project(table.columns().stream().map(i -> (RexNode) b.field(i)).toList(),
          table.columns().stream().map(names::get).toList(), true);
    }
    return new Read(table.table(), b.build(),
        moment == null && lookups.isEmpty() ? ints(table, scan) : null);
  }

  /**
   * How {@code table}'s relation columns are read as packed Ints from {@code scan}'s columns,
   * when each is an integer column without a codec (its value the Int itself); else null.
   */
  private IntColumns ints(StoredTable table, RelNode scan) {
    final StoreReads.Read[] reads =
        EnumerableStoreScan.reads((JavaTypeFactory) b.getTypeFactory(), scan.getRowType());
    final int[] columns = table.columns().stream().mapToInt(Integer::intValue).toArray();
    final StoreReads.Read[] how = new StoreReads.Read[columns.length];
    for (int k = 0; k < columns.length; k++) {
      how[k] = reads[columns[k]];
      if (table.codecs().get(columns[k]) != null || !INT_READS.contains(how[k])) {
        return null;
      }
    }
    return new IntColumns(columns, how);
  }

  /** The reads of integer columns, whose values are CozoDB Ints as they are. */
  private static final Set<StoreReads.Read> INT_READS = EnumSet.of(StoreReads.Read.BYTE,
      StoreReads.Read.SHORT, StoreReads.Read.INT, StoreReads.Read.LONG);

  /**
   * The moment of a time-travel read {@code @ e} in µs since the Unix epoch, as CozoDB takes it:
   * an integer, {@code 'NOW'} ({@link #now}), {@code 'END'} (the end of time, the
   * greatest timestamp) or an RFC 3339 time; {@code parser::bad_validity_spec} for anything
   * else.
   */
  private long moment(Expr e) {
    final Object v = ConstantEvaluator.evaluate(e, params);
    if (v instanceof Long) {
      return (Long) v;
    }
    if (v instanceof Double && Math.rint((Double) v) == (Double) v) {
      return (long) (double) (Double) v;
    }
    if (v instanceof String) {
      final String s = (String) v;
      if (s.equals("NOW")) {
        reusable = false;
        return now;
      }
      if (s.equals("END")) {
        return Long.MAX_VALUE;
      }
      // an RFC 3339 time, as an assertion's Validity takes it ('~...', 'ASSERT' are not times)
      if (!s.startsWith("~") && !s.equals("ASSERT") && !s.equals("RETRACT")) {
        try {
          return ((Validity) VALIDITY.coerce(s, now)).timestamp();
        } catch (ValueException notATime) {
          // reported below, as CozoDB reports it
        }
      }
    }
    throw new DatalogException(ErrorCode.PARSER_BAD_VALIDITY_SPEC, "bad specification of validity",
        e.pos().line(), e.pos().column());
  }

  private static final ColType VALIDITY = ColType.scalar(ColType.Kind.VALIDITY, false);

  /** Which copy a fixpoint's read scans: the relation's, or for time travel its moment's. */
  private String copyKey(Atom.StoredApply at) {
    return at.validAt() == null ? at.relation() : at.relation() + "@" + moment(at.validAt());
  }

  /**
   * The table of the copy that fixpoints scan of {@code step}'s relation as {@code read} reads
   * it, empty, for the caller to fill and fix before a fixpoint runs: inside a fixpoint every
   * stored atom reads its relation's copy.
   */
  public RowTable copy(StratumPlan.CopyStored step, Read read) {
    final RelOptTable copy = rowTable("stored_" + read.table(),
        anyRow(read.plan().getRowType().getFieldNames()));
    storedCopies.put(copyKey(step.at()), copy);
    return RowTable.of(copy);
  }

  /**
   * The plan of a {@link StratumPlan.Fixpoint}: a {@link LogicalRecursiveUnion} over a
   * {@code full_m} and a {@code delta_m} table for every member.
   */
  public Recursion fixpoint(StratumPlan.Fixpoint step) {
    final Map<String, RelOptTable> full = new LinkedHashMap<>();
    final Map<String, RelOptTable> delta = new LinkedHashMap<>();
    for (StratumPlan.Member m : step.members()) {
      full.put(m.relation(), rowTable("full_" + m.relation(), anyRow(m.arity())));
      delta.put(m.relation(), rowTable("delta_" + m.relation(), anyRow(m.arity())));
    }
    final Set<String> members = new TreeSet<>(step.relations());
    final List<RelNode> seeds = new ArrayList<>();
    final List<RelNode> iteratives = new ArrayList<>();
    final List<HeadAggregation> aggregations = new ArrayList<>();
    inFixpoint = true;
    try {
      for (StratumPlan.Member m : step.members()) {
        final int width = m.arity() + (m.aggregations() != null ? 1 : 0);
        aggregations.add(m.aggregations() == null ? null : host.resolve(m.aggregations()));
        final List<RelNode> seedPlans = new ArrayList<>();
        for (StratumPlan.Part p : m.seeds()) {
          seedPlans.add(lower(p.rule(), p.ordinal()));
        }
        final List<RelNode> iterativePlans = new ArrayList<>();
        for (StratumPlan.Part p : m.iteratives()) {
          for (Atom.RuleApply a : RuleLowering.recursiveAtoms(p.rule(), members)) {
            reads.put(a, a == p.viaDelta() ? delta.get(a.rule()) : full.get(a.rule()));
          }
          iterativePlans.add(lower(p.rule(), p.ordinal()));
          reads = new IdentityHashMap<>();
        }
        seeds.add(unionOf(seedPlans, width));
        iteratives.add(unionOf(iterativePlans, width));
      }
    } finally {
      inFixpoint = false;
      reads = new IdentityHashMap<>();
    }
    seeds.forEach(b::push);
    iteratives.forEach(b::push);
    return new Recursion(MnesticRelBuilder.recursiveUnion(b, new ArrayList<>(full.values()),
        new ArrayList<>(delta.values()), aggregations, step.maxRounds()).build(), full);
  }

  /** Keeps a fixpoint's full tables, filled by running its plan, as its members' rows. */
  public void settled(Recursion recursion) {
    // each member's full table holds its tuples now, for good
    for (RelOptTable t : recursion.full().values()) {
      RowTable.of(t).fix();
    }
    materialized.putAll(recursion.full());
  }

  /**
   * The distinct rows of {@code input}, by our own hashing
   * ({@link dev.mnestic.runtime.RowKey}): Calcite's distinct hashes rows as
   * {@code 31 * h + e}, which collides heavily on rows of small integers.
   */
  private RelNode distinct(RelNode input) {
    return MnesticRelBuilder.datalogAggregate(b.push(input),
        host.resolve(Collections.nCopies(input.getRowType().getFieldCount(), null))).build();
  }

  private RelNode lower(Rule rule, int ordinal) {
    // not inside a fixpoint: its rounds would build the generic join's tries again each round
    return new RuleLowering(b, params, host, this, genericJoins && !inFixpoint)
        .lower(rule, ordinal);
  }

  private RelNode union(List<Rule> rules, int width) {
    final List<RelNode> plans = new ArrayList<>();
    for (int ordinal = 0; ordinal < rules.size(); ordinal++) {
      plans.add(lower(rules.get(ordinal), ordinal));
    }
    return unionOf(plans, width);
  }

  private RelNode unionOf(List<RelNode> plans, int arity) {
    if (plans.isEmpty()) {
      return b.values(anyRow(arity)).build();
    }
    for (RelNode p : plans) {
      b.push(p);
    }
    return b.union(true, plans.size()).build();
  }

  /** Columns of a rule set's plans: the head's, and for an aggregating head, each row's place. */
  private static int width(List<Rule> rules, boolean aggregated) {
    return rules.get(0).head().size() + (aggregated ? 1 : 0);
  }

  /** A row of {@code arity} columns c0, c1, ... of type ANY. */
  private RelDataType anyRow(int arity) {
    final List<String> names = new ArrayList<>();
    for (int i = 0; i < arity; i++) {
      names.add("c" + i);
    }
    return anyRow(names);
  }

  private RelDataType anyRow(List<String> names) {
    final RelDataTypeFactory f = b.getTypeFactory();
    final RelDataTypeFactory.Builder row = f.builder();
    for (String name : names) {
      row.add(name, f.createTypeWithNullability(f.createSqlType(SqlTypeName.ANY), true));
    }
    return row.build();
  }

  /**
   * A new row table, named {@code base$N} with N the number of tables made before it here: a
   * script run again names its tables alike, so its plans are the same programs, compiled once
   * ({@link dev.mnestic.rel.Plans}).
   */
  private RelOptTable rowTable(String base, RelDataType rowType) {
    final RelOptTable table =
        RowTable.create(b.getRelOptSchema(), base + "$" + tables.size(), rowType);
    tables.add(RowTable.of(table));
    return table;
  }

  // RuleLowering.Tables

  @Override public RelOptTable rule(Atom.RuleApply apply) {
    final RelOptTable t = reads.getOrDefault(apply, materialized.get(apply.rule()));
    if (t == null) {
      throw new IllegalStateException("rule " + apply.rule() + " read before it was evaluated");
    }
    return t;
  }

  @Override public List<String> storedColumns(String relation, Pos pos) {
    final StoredTable table = find(relation, pos);
    final Table t = root.subSchemas().get(Session.SCHEMA).unwrap(JdbcSchema.class).tables()
        .get(table.table());
    if (t == null) {
      throw new IllegalStateException("store table " + table.table() + " is not in the schema");
    }
    final List<String> names = t.getRowType(b.getTypeFactory()).getFieldNames();
    return table.columns().stream().map(names::get).toList();
  }

  @Override public SearchTarget search(Atom.SearchApply at) {
    reusable = false;
    find(at.relation(), at.pos());
    return stored.search(at.relation(), at.index()).orElseThrow(() -> new DatalogException(
        ErrorCode.EVAL_HNSW_INDEX_NOT_FOUND, "Index " + at.index() + " not found on relation "
            + at.relation(), at.pos().line(), at.pos().column()));
  }

  @Override public void readsRows() {
    // inside a fixpoint a stored atom reads its copy whole, whatever values it could look up
    reusable &= inFixpoint;
  }

  @Override public List<Object[]> settledRows(Atom.RuleApply apply) {
    final RelOptTable t = materialized.get(apply.rule());
    return reads.containsKey(apply) || t == null ? null : RowTable.of(t).rows();
  }

  @Override public RelNode stored(Atom.StoredApply at, Map<Integer, Collection<Object>> values) {
    if (!inFixpoint) {
      return read(at, values).plan();
    }
    final RelOptTable copy = storedCopies.get(copyKey(at));
    if (copy == null) {
      throw new IllegalStateException("stored relation " + at.relation()
          + " read in a fixpoint before it was copied");
    }
    return b.push(LogicalTableScan.create(b.getCluster(), copy, List.of())).build();
  }

  @Override public Read packedRead(Atom.StoredApply at) {
    if (inFixpoint || at.validAt() != null) {
      return null;
    }
    final Read read = read(at, Map.of());
    return read.ints() == null ? null : read;
  }

  @Override public RelOptTable constants(List<?> values, boolean indexed) {
    final RelOptTable table = rowTable("in", anyRow(indexed ? 2 : 1));
    for (int i = 0; i < values.size(); i++) {
      RowTable.of(table).rows().add(indexed
          ? new Object[] {(long) i, values.get(i)} : new Object[] {values.get(i)});
    }
    RowTable.of(table).fix();
    constantRows.put(RowTable.of(table), List.copyOf(RowTable.of(table).rows()));
    return table;
  }
}
