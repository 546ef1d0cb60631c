package dev.mnestic.datalog.lower;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.ast.Atom;
import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.eval.ConstantEvaluator;
import dev.mnestic.rel.MnesticRelBuilder;
import dev.mnestic.runtime.CozoCalls;
import dev.mnestic.runtime.GenericJoinRun;
import dev.mnestic.runtime.SearchRun;
import dev.mnestic.value.Aggregators;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.Functions;
import dev.mnestic.value.HostAggregations;
import dev.mnestic.value.MinCostK;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.Holder;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Lowers one rule (in disjunctive normal form) to relational algebra with
 * {@link RelBuilder}: its atoms become scans joined on shared variables,
 * filters, projections, anti-joins and unnested lists, over columns of SQL
 * type ANY holding CozoDB values.
 *
 * <p>Atoms are taken in order as they become applicable (CozoDB reorders
 * the same way): a relation at once; a unification, membership or filter
 * when the variables it reads are bound; a negation when no positive atom
 * is left. An atom that never becomes applicable is an unbound variable.
 *
 * <p>A rule whose head aggregates also gives each row its place in
 * CozoDB's evaluation order, which order-sensitive aggregations
 * ({@code collect}, {@code choice}, float {@code sum}, ties of {@code min},
 * {@code shortest}, ...) see: CozoDB runs a rule set's rules in turn, each
 * as nested loops over its atoms, a relation in its sorted order and a list
 * in its own. So the place is the list of the rule's ordinal and every
 * binding in the order bound, including the columns a {@code _} or an
 * unnamed stored column skips and each list element's index.
 */
final class RuleLowering {
  /** Name of the placeholder column of the one-row start. */
  private static final String UNIT = "$unit";
  /** Name of the column holding the list an {@code in} runs over. */
  private static final String LIST = "$list";

  private final RelBuilder b;
  private final Map<String, ?> params;
  private final Tables tables;
  /** The aggregations the engine's host registered. */
  private final HostAggregations host;
  /** Whether a cyclic body's relations are joined by a {@code GenericJoin} ({@link #cyclicPart}). */
  private final boolean genericJoins;
  /** Whether the rule being lowered keeps every binding, for its place in the evaluation order. */
  private boolean ordered;
  private int hiddenCount;
  /**
   * Unifications and filters not yet applied, each reading only the current columns: new
   * columns by variable, and conditions. Consecutive ones become one Project and one Filter;
   * stacked ones cost the planner time quadratic in their count.
   */
  private final Map<String, RexNode> computed = new LinkedHashMap<>();
  private final List<RexNode> conditions = new ArrayList<>();
  /**
   * Of the rule being lowered, each variable bound by an application of a settled relation
   * ({@link Tables#settledRows}): that relation's rows and the column binding it, whose values
   * hold every value the variable takes.
   */
  private final Map<String, Map.Entry<List<Object[]>, Integer>> settled = new HashMap<>();

  /** Where relations come from. */
  interface Tables {
    /** The table holding a rule's relation, for this application of it. */
    RelOptTable rule(Atom.RuleApply apply);

    /** The columns of a stored relation (a SQL table, or an index of one {@code rel:idx}). */
    List<String> storedColumns(String relation, Pos pos);

    /**
     * The rows of the table a rule application reads when they are all there and stay as they
     * are while the rule runs (a relation evaluated by an earlier step); else null.
     */
    List<Object[]> settledRows(Atom.RuleApply apply);

    /**
     * Told that the plan being lowered holds values a settled relation's rows hold
     * ({@link #settledRows}): it depends on this run's rows, not only on the script.
     */
    void readsRows();

    /**
     * The stored relation (or index) an atom reads, its columns as CozoDB values: as of the
     * atom's moment when it travels in time ({@code @}); {@code values} (by column) hold every
     * value some of its columns can take where the rule joins them (a constant, or what a
     * variable an earlier atom bound can be), which the read may look up in the store's
     * indexes (the rule still joins and filters by them).
     */
    RelNode stored(Atom.StoredApply atom, Map<Integer, Collection<Object>> values);

    /**
     * The read of every row of the stored relation an atom reads, when its columns are Ints
     * the store can give packed ({@link StratumLowering.Read#ints}); else (a time-travel read,
     * a column of another type or with a codec, a read inside a fixpoint) null.
     */
    StratumLowering.Read packedRead(Atom.StoredApply atom);

    /**
     * Joins the rows on top of the builder with the stored relation {@code at} reads, on its
     * columns {@code relationKeys} equal to their columns {@code leftKeys}, through an
     * {@link dev.mnestic.rel.IndexJoin} (the relation's rows looked up at run time in the
     * store's index leading with one of those columns, when the rows are few), leaving the
     * rows' columns followed by the relation's (as {@link #stored} gives them); false, with
     * nothing done, where no index serves (a time-travel read, no index leading with a key
     * column) or the read looks {@code looked} up in an index
     * already (values known while lowering, {@link #stored}).
     */
    boolean indexJoin(Atom.StoredApply at, Map<Integer, Collection<Object>> looked,
        List<Integer> leftKeys, List<Integer> relationKeys);

    /**
     * The search index a search atom names: its instance, kind, definition and its relation's
     * columns ({@code eval::hnsw_index_not_found} when the relation has no such index).
     */
    StratumLowering.SearchTarget search(Atom.SearchApply atom);

    /**
     * A table of the given values, one per row: with {@code indexed}, two
     * columns, each value's index (an Int) and the value; else one.
     */
    RelOptTable constants(List<?> values, boolean indexed);
  }

  RuleLowering(RelBuilder b, Map<String, ?> params, HostAggregations host, Tables tables,
      boolean genericJoins) {
    this.b = b;
    this.params = params;
    this.host = host;
    this.tables = tables;
    this.genericJoins = genericJoins;
  }

  /**
   * The plan of {@code rule}: one row per derivation (not yet distinct), its
   * head's columns; for a head with aggregations, the aggregations' inputs,
   * one row per binding of the body (aggregated by the caller), then the
   * row's place in the evaluation order (see the class comment; null when
   * the aggregations cannot tell), {@code ordinal} being the rule's place in
   * its rule set.
   */
  RelNode lower(Rule rule, int ordinal) {
    final List<String> aggregations = aggregations(rule, params, host);
    final boolean aggregated = aggregations.stream().anyMatch(a -> a != null);
    ordered = aggregated && !host.orderBlind(aggregations);
    settled.clear();
    final List<String> vars = new ArrayList<>();
    b.values(new String[] {UNIT}, true);
    vars.add(UNIT);
    final List<Atom> todo = new ArrayList<>(rule.body());
    // each atom's variables, computed once: a long body rescans the atoms left at every step
    final Map<Atom, Set<String>> reads = new IdentityHashMap<>();
    int positives = 0;
    for (Atom a : todo) {
      reads.put(a, reads(a));
      positives += isRelation(a) || a instanceof Atom.SearchApply ? 1 : 0;
    }
    final Set<String> bound = new HashSet<>(vars);
    // a body's cyclic part is joined at once, where its first relation is, by a generic join;
    // an order-sensitive aggregation sees CozoDB's nested loops, atom by atom, instead
    final List<Atom> cyclic = genericJoins && !ordered ? cyclicPart(rule.body()) : List.of();
    while (!todo.isEmpty()) {
      final Atom next = next(todo, reads, bound, positives > 0);
      if (next == null) {
        final Atom stuck = todo.get(0);
        throw new DatalogException(ErrorCode.EVAL_UNBOUND_VARIABLE,
            "Atom contains unbound variable, or rule contains no variable at all",
            stuck.pos().line(), stuck.pos().column());
      }
      positives -= isRelation(next) || next instanceof Atom.SearchApply ? 1 : 0;
      if (!cyclic.isEmpty() && cyclic.get(0) == next) {
        flush(vars);
        final int before = vars.size();
        todo.removeIf(a -> cyclic.stream().anyMatch(c -> c == a));
        positives -= cyclic.size() - 1;
        genericJoin(cyclic, vars);
        bound.addAll(vars.subList(before, vars.size()));
        continue;
      }
      if (batched(next, vars)) {
        bound.addAll(computed.keySet());
        continue;
      }
      flush(vars);
      final int before = vars.size();
      apply(next, vars);
      // columns are only ever added after the ones there
      bound.addAll(vars.subList(before, vars.size()));
    }
    flush(vars);
    final List<RexNode> head = new ArrayList<>();
    final List<String> names = new ArrayList<>();
    for (Rule.HeadArg h : rule.head()) {
      final int i = vars.indexOf(h.var().name());
      if (i < 0 || h.var().name().equals("_")) {
        throw new DatalogException(ErrorCode.EVAL_UNBOUND_SYMB_IN_HEAD,
            "Symbol '" + h.var().name() + "' in rule head is unbound",
            h.pos().line(), h.pos().column(),
            "Note that symbols occurring only in negated positions are not considered bound");
      }
      head.add(b.field(i));
      names.add("c" + names.size());
    }
    if (aggregated) {
      // list(ordinal, every binding in the order bound)
      final List<RexNode> place = new ArrayList<>();
      place.add(literal((long) ordinal));
      place.addAll(fields(1, vars.size()));
      head.add(ordered ? list(place) : literal(null));
      names.add("place");
    }
    b.project(head, names, true);
    return b.build();
  }

  /**
   * Per head position: its aggregation's {@link Aggregators#spec spec}, or
   * null for a grouping key. Of CozoDB's, only {@code collect} uses an
   * argument (a limit, a positive integer); CozoDB ignores the others'.
   * Of the bounded-meet ones, {@code min_cost_k} needs its k and
   * {@code pareto_min}/{@code pareto_max} take none. An unknown aggregation
   * is CozoDB's {@code parser::aggr_not_found}.
   */
  static List<String> aggregations(Rule rule, Map<String, ?> params, HostAggregations host) {
    final List<String> aggregations = new ArrayList<>();
    for (Rule.HeadArg h : rule.head()) {
      if (h.isAggregated() && !host.isDefined(h.aggregation())) {
        throw new DatalogException(ErrorCode.PARSER_AGGR_NOT_FOUND,
            "Aggregation '" + h.aggregation() + "' not found", h.pos().line(), h.pos().column());
      }
      if (h.isAggregated() && host.isBoundedMeet(h.aggregation())) {
        aggregations.add(boundedMeet(rule, h, params));
        continue;
      }
      if (h.isAggregated() && host.isRegistered(h.aggregation())) {
        if (!h.aggregationArgs().isEmpty()) {
          final Expr arg = h.aggregationArgs().get(0);
          throw new DatalogException(ErrorCode.MNESTIC_AGGREGATE_ARGUMENTS, "'" + h.aggregation()
              + "' is registered by the host and takes no arguments", arg.pos().line(),
              arg.pos().column());
        }
        aggregations.add(h.aggregation());
        continue;
      }
      Long limit = null;
      if (h.isAggregated() && h.aggregation().equals("collect")
          && !h.aggregationArgs().isEmpty()) {
        limit = positive("collect", h.aggregationArgs().get(0), params);
      }
      aggregations.add(h.isAggregated() ? Aggregators.spec(h.aggregation(), limit) : null);
    }
    return aggregations;
  }

  /**
   * The spec of a bounded-meet aggregation, which must be its head's only
   * aggregation and in its last position (each survivor of a group is a
   * row). {@code pareto_min} and {@code pareto_max} take no arguments (the
   * direction is in the name, and mixed objectives negate components);
   * {@code min_cost_k} takes one, k, a positive integer.
   */
  private static String boundedMeet(Rule rule, Rule.HeadArg h, Map<String, ?> params) {
    final List<Rule.HeadArg> head = rule.head();
    if (head.get(head.size() - 1) != h
        || head.stream().filter(Rule.HeadArg::isAggregated).count() > 1) {
      throw new DatalogException(ErrorCode.MNESTIC_BOUNDED_MEET_HEAD,
          "'" + h.aggregation() + "' must be the only aggregation of the head of rule '"
              + rule.name() + "', in its last position: each survivor of a group is a row",
          h.pos().line(), h.pos().column());
    }
    final List<Expr> args = h.aggregationArgs();
    if (h.aggregation().equals(MinCostK.NAME)) {
      if (args.size() != 1) {
        throw new DatalogException(ErrorCode.MNESTIC_AGGREGATE_ARGUMENTS,
            "'min_cost_k' takes one argument, how many derivations to keep: min_cost_k(pc, 3)",
            h.pos().line(), h.pos().column());
      }
      final long k = positive(MinCostK.NAME, args.get(0), params);
      if (k > Integer.MAX_VALUE) {
        throw new DatalogException(ErrorCode.MNESTIC_AGGREGATE_ARGUMENTS,
            "'min_cost_k' keeps at most " + Integer.MAX_VALUE + ", got " + k,
            args.get(0).pos().line(), args.get(0).pos().column());
      }
      return Aggregators.spec(MinCostK.NAME, k);
    }
    if (!args.isEmpty()) {
      throw new DatalogException(ErrorCode.MNESTIC_AGGREGATE_ARGUMENTS,
          "'" + h.aggregation() + "' takes no arguments: the direction is in its name, and"
              + " mixed objectives negate the components to maximise ([price, -quality])",
          args.get(0).pos().line(), args.get(0).pos().column());
    }
    return h.aggregation();
  }

  /** An aggregation's argument that must be a positive integer (CozoDB's messages, for collect's). */
  private static long positive(String aggregation, Expr arg, Map<String, ?> params) {
    final Object n = ConstantEvaluator.evaluate(arg, params);
    final boolean integral = n instanceof Long
        || n instanceof Double && (Double) n == Math.rint((Double) n);
    if (!integral) {
      throw new DatalogException(null, "the argument to '" + aggregation
          + "' must be an integer, got " + Values.display(n), arg.pos().line(),
          arg.pos().column());
    }
    final long value = ((Number) n).longValue();
    if (value <= 0) {
      throw new DatalogException(null, "argument to '" + aggregation + "' must be positive, got "
          + value, arg.pos().line(), arg.pos().column());
    }
    return value;
  }

  private static boolean isRelation(Atom a) {
    return a instanceof Atom.RuleApply || a instanceof Atom.StoredApply;
  }

  /**
   * Removes and returns the first atom of {@code todo} applicable once {@code bound} are
   * bound (null for none).
   */
  private static Atom next(List<Atom> todo, Map<Atom, Set<String>> reads, Set<String> bound,
      boolean positivesLeft) {
    for (Iterator<Atom> it = todo.iterator(); it.hasNext();) {
      final Atom a = it.next();
      final boolean applicable = isRelation(a) || (a instanceof Atom.Negation
          ? !positivesLeft : bound.containsAll(reads.get(a)));
      if (applicable) {
        it.remove();
        return a;
      }
    }
    return null;
  }

  /**
   * The variables an atom must find bound to be applied: a unification's, membership's or
   * filter's expression's; none for a relation or a negation.
   */
  private static Set<String> reads(Atom a) {
    if (a instanceof Atom.Unify) {
      return variables(((Atom.Unify) a).value());
    }
    if (a instanceof Atom.Member) {
      return variables(((Atom.Member) a).list());
    }
    if (a instanceof Atom.Filter) {
      return variables(((Atom.Filter) a).condition());
    }
    if (a instanceof Atom.SearchApply) {
      // the query's variables: the search runs once per row binding them
      final Set<String> vars = new LinkedHashSet<>();
      for (Atom.Binding p : ((Atom.SearchApply) a).parameters()) {
        if (p.column().equals("query")) {
          vars.addAll(variables(p.value()));
        }
      }
      return vars;
    }
    if (isRelation(a) || a instanceof Atom.Negation) {
      return Set.of();
    }
    throw new IllegalStateException("not in normal form: " + a);
  }

  /**
   * Adds a unification or filter that reads only the current columns {@code vars} to the
   * pending ones (a new column of {@code computed}, or a condition); false if {@code a} is
   * another atom or reads (or binds again) a pending column.
   */
  private boolean batched(Atom a, List<String> vars) {
    final Expr read = a instanceof Atom.Unify ? ((Atom.Unify) a).value()
        : a instanceof Atom.Filter ? ((Atom.Filter) a).condition() : null;
    if (read == null || variables(read).stream().anyMatch(computed::containsKey)) {
      return false;
    }
    if (a instanceof Atom.Filter) {
      conditions.add(b.call(Operators.TEST, rex(read, vars)));
      return true;
    }
    final String v = ((Atom.Unify) a).var().name();
    if (computed.containsKey(v)) {
      return false;
    }
    final int i = vars.indexOf(v);
    if (i >= 0) {
      conditions.add(b.call(Operators.SAME, b.field(i), rex(read, vars)));
    } else {
      computed.put(v, rex(read, vars));
    }
    return true;
  }

  /** Applies the pending new columns (one Project) and conditions (one Filter). */
  private void flush(List<String> vars) {
    if (!computed.isEmpty()) {
      final List<RexNode> columns = new ArrayList<>(fields(0, vars.size()));
      columns.addAll(computed.values());
      vars.addAll(computed.keySet());
      b.project(columns, vars, true);
    }
    if (!conditions.isEmpty()) {
      b.filter(conditions);
    }
    computed.clear();
    conditions.clear();
  }

  private static boolean bound(Set<String> needed, List<String> vars) {
    return vars.containsAll(needed);
  }

  private void apply(Atom a, List<String> vars) {
    if (isRelation(a)) {
      join(a, vars, JoinRelType.INNER);
    } else if (a instanceof Atom.Unify) {
      final Atom.Unify u = (Atom.Unify) a;
      final RexNode value = rex(u.value(), vars);
      final int i = vars.indexOf(u.var().name());
      if (i >= 0) {
        b.filter(b.call(Operators.SAME, b.field(i), value));
      } else {
        b.projectPlus(b.alias(value, u.var().name()));
        vars.add(u.var().name());
      }
    } else if (a instanceof Atom.Member) {
      member((Atom.Member) a, vars);
    } else if (a instanceof Atom.Filter) {
      b.filter(b.call(Operators.TEST, rex(((Atom.Filter) a).condition(), vars)));
    } else if (a instanceof Atom.SearchApply) {
      search((Atom.SearchApply) a, vars);
    } else {
      negation((Atom.Negation) a, vars);
    }
  }

  /**
   * A search atom {@code ~rel:idx{bindings | parameters}}, as CozoDB normalizes it: {@code
   * query} an expression over bound variables (a column computed first when it is not one),
   * {@code filter} an expression over the relation's columns and the bound values, the {@code
   * bind_*} parameters variables, every other parameter a constant checked by the index's
   * kind; then a {@code SearchApply} over the rows so far and the relation, whose columns bind
   * as a named stored atom's do.
   */
  private void search(Atom.SearchApply s, List<String> vars) {
    final StratumLowering.SearchTarget target = tables.search(s);
    Expr query = null;
    Expr filter = null;
    final Map<String, Object> constants = new LinkedHashMap<>();
    final Map<String, Expr.Var> bound = new LinkedHashMap<>();
    for (Atom.Binding p : s.parameters()) {
      if (p.column().equals("query")) {
        query = p.value();
      } else if (p.column().equals("filter")) {
        filter = p.value();
      } else if (target.kind().bindParameters().contains(p.column())) {
        if (!(p.value() instanceof Expr.Var)) {
          throw new DatalogException(ErrorCode.PARSER_PEST, "'" + p.column()
              + "' binds a variable: expected a variable name", p.pos().line(), p.pos().column());
        }
        bound.put(p.column(), (Expr.Var) p.value());
        constants.put(p.column(), ((Expr.Var) p.value()).name());
      } else {
        constants.put(p.column(), new ConstantEvaluator(params).evaluate(p.value()));
      }
    }
    if (query == null) {
      throw new DatalogException(ErrorCode.PARSER_HNSW_QUERY_REQUIRED,
          "Field `query` is required for HNSW search", s.pos().line(), s.pos().column());
    }
    final SearchIndex.Request request;
    try {
      request = target.kind().request(target.definition(), target.columns(), constants);
    } catch (ValueException e) {
      throw new DatalogException(e.errorCode(), e.getMessage(), s.pos().line(),
          s.pos().column(), e.help());
    }
    final List<String> columns = target.columns().names();
    // the query's column
    int queryColumn = query instanceof Expr.Var ? vars.indexOf(((Expr.Var) query).name()) : -1;
    if (queryColumn < 0) {
      b.projectPlus(rex(query, vars));
      queryColumn = vars.size();
      vars.add(hidden());
    }
    SearchIndex.RowFilter rowFilter = null;
    if (filter != null) {
      final List<String> names = new ArrayList<>(columns);
      for (String p : request.binds()) {
        names.add(bound.get(p).name());
      }
      final java.util.function.Function<Object[], Object> f =
          new ConstantEvaluator(params).bind(filter, names);
      rowFilter = row -> {
        final Object v = f.apply(row);
        if (!(v instanceof Boolean)) {
          throw new ValueException(ErrorCode.EVAL_PREDICATE_NOT_BOOL,
              "Predicate evaluated to non-boolean value", null);
        }
        return (Boolean) v;
      };
    }
    final RelNode relation = tables.stored(
        new Atom.StoredApply(s.relation(), List.of(), null, null, s.pos()), Map.of());
    final int left = vars.size();
    b.push(relation);
    final String description = "~" + s.relation() + ":" + s.index() + constants
        + (filter == null ? "" : " filter");
    MnesticRelBuilder.searchApply(b, new SearchRun.Spec(description, target.index(), target.table(), request,
        queryColumn, rowFilter, columns.size()), request.binds().size());
    // the atom's bindings of the relation's columns, then its bound values
    final Map<String, Integer> fresh = new LinkedHashMap<>();
    final List<RexNode> same = new ArrayList<>();
    final Map<Integer, Expr> atColumn = new LinkedHashMap<>();
    for (Atom.Binding binding : s.bindings()) {
      final int i = column(columns, binding.column());
      if (i < 0) {
        throw new DatalogException(ErrorCode.EVAL_NAMED_FIELD_NOT_FOUND,
            "stored relation " + s.relation() + " does not have field " + binding.column(),
            binding.pos().line(), binding.pos().column());
      }
      atColumn.put(left + i, binding.value());
    }
    for (int i = 0; i < request.binds().size(); i++) {
      atColumn.put(left + columns.size() + i, bound.get(request.binds().get(i)));
    }
    for (Map.Entry<Integer, Expr> e : atColumn.entrySet()) {
      final Expr value = e.getValue();
      if (isWildcard(value)) {
        continue;
      }
      if (value instanceof Expr.Var) {
        final String v = ((Expr.Var) value).name();
        if (vars.contains(v)) {
          same.add(b.call(Operators.SAME, b.field(vars.indexOf(v)), b.field(e.getKey())));
        } else if (fresh.containsKey(v)) {
          same.add(b.call(Operators.SAME, b.field(fresh.get(v)), b.field(e.getKey())));
        } else {
          fresh.put(v, e.getKey());
        }
      } else {
        same.add(b.call(Operators.SAME, b.field(e.getKey()), rex(value, vars)));
      }
    }
    if (!same.isEmpty()) {
      b.filter(same);
    }
    final List<RexNode> keep = new ArrayList<>(fields(0, vars.size()));
    final List<String> names = new ArrayList<>(vars);
    for (Map.Entry<String, Integer> e : fresh.entrySet()) {
      keep.add(b.field(e.getValue()));
      names.add(e.getKey());
    }
    b.project(keep, names, true);
    vars.clear();
    vars.addAll(names);
  }

  private void negation(Atom.Negation n, List<String> vars) {
    final Atom inner = n.atom();
    if (isRelation(inner)) {
      // CozoDB negates only a relation partly bound by the rest of the rule.
      final List<Expr> args = inner instanceof Atom.RuleApply
          ? ((Atom.RuleApply) inner).args()
          : ((Atom.StoredApply) inner).isNamed()
              ? ((Atom.StoredApply) inner).named().stream().map(Atom.Binding::value).toList()
              : ((Atom.StoredApply) inner).positional();
      final boolean anyBound = args.stream().anyMatch(a -> !isWildcard(a)
          && (!(a instanceof Expr.Var) || vars.contains(((Expr.Var) a).name())));
      if (!anyBound) {
        throw unsafeNegation(n);
      }
      join(inner, vars, JoinRelType.ANTI);
    } else if (inner instanceof Atom.Filter) {
      if (!bound(variables(((Atom.Filter) inner).condition()), vars)) {
        throw unsafeNegation(n);
      }
      b.filter(b.not(b.call(Operators.TEST, rex(((Atom.Filter) inner).condition(), vars))));
    } else if (inner instanceof Atom.Unify) {
      final Atom.Unify u = (Atom.Unify) inner;
      final int i = vars.indexOf(u.var().name());
      if (i < 0 || !bound(variables(u.value()), vars)) {
        throw unsafeNegation(n);
      }
      b.filter(b.not(b.call(Operators.SAME, b.field(i), rex(u.value(), vars))));
    } else {
      // CozoDB negates no 'x in list'.
      throw unsafeNegation(n);
    }
  }

  private static DatalogException unsafeNegation(Atom a) {
    return new DatalogException(ErrorCode.EVAL_UNSAFE_NEGATION,
        "Encountered unsafe negation, or empty rule definition", a.pos().line(), a.pos().column(),
        "Only rule applications that are partially bounded, or expressions / unifications that"
            + " are completely bounded, can be safely negated. You may also encounter this error"
            + " if your rule can never produce any rows.");
  }

  /**
   * {@code v in list}, the list any expression over bound variables. With
   * {@code v} bound, CozoDB's {@code is_in(v, list)} as a filter; else each
   * element of the list, in order, binds {@code v} (not a list is
   * {@code eval::invalid_spread_unif}). A constant list is a table, joined
   * (a semi-join as a filter); any other is unnested row by row.
   */
  private void member(Atom.Member m, List<String> vars) {
    final int i = vars.indexOf(m.var().name());
    if (variables(m.list()).isEmpty()) {
      memberOfConstant(m, vars, i);
    } else if (i >= 0) {
      b.filter(b.call(Operators.TEST, call("is_in", List.of(b.field(i), rex(m.list(), vars)))));
    } else {
      memberOfComputed(m, vars);
    }
  }

  private void memberOfConstant(Atom.Member m, List<String> vars, int i) {
    final Object list = ConstantEvaluator.evaluate(m.list(), params);
    final Pos pos = m.list().pos();
    if (!(list instanceof List) && i >= 0) {
      throw new DatalogException(ErrorCode.EVAL_THROW, ValueException.EVAL_FAILED,
          pos.line(), pos.column(), "right hand side of 'is_in' must be a list");
    }
    if (!(list instanceof List)) {
      throw new DatalogException(ErrorCode.EVAL_INVALID_SPREAD_UNIF, "Invalid spread unification",
          pos.line(), pos.column(), "Spread unification requires a list at the right");
    }
    final boolean indexed = ordered && i < 0;
    b.push(LogicalTableScan.create(b.getCluster(),
        tables.constants((List<?>) list, indexed), List.of()));
    if (i >= 0) {
      b.join(JoinRelType.SEMI, b.isNotDistinctFrom(b.field(2, 0, i), b.field(2, 1, 0)));
      return;
    }
    b.join(JoinRelType.INNER, b.literal(true));
    if (indexed) {
      vars.add(hidden());
    }
    vars.add(m.var().name());
    b.project(fields(0, vars.size()), vars, true);
  }

  private void memberOfComputed(Atom.Member m, List<String> vars) {
    final int width = vars.size();
    // When ordered, elements come as [index, element] (Calcite's UNNEST WITH
    // ORDINALITY needs Comparable elements).
    b.projectPlus(b.alias(b.call(ordered ? Operators.SPREAD_INDEXED : Operators.SPREAD,
        rex(m.list(), vars)), LIST));
    final Holder<RexCorrelVariable> row = Holder.empty();
    b.variable(row::set);
    // for each left row: UNNEST($cor.list)
    b.values(new String[] {UNIT}, true)
        .project(b.field(row.get(), LIST))
        .uncollect(List.of(m.var().name()), false)
        .correlate(JoinRelType.INNER, row.get().id, b.field(2, 0, LIST));
    final List<RexNode> keep = new ArrayList<>(fields(0, width));
    final RexNode element = b.field(width + 1);
    if (ordered) {
      keep.add(call("get", List.of(element, literal(0L))));
      vars.add(hidden());
      keep.add(call("get", List.of(element, literal(1L))));
    } else {
      keep.add(element);
    }
    vars.add(m.var().name());
    b.project(keep, vars, true);
  }

  /** A fresh name for a binding no variable names (a skipped column, a list index). */
  private String hidden() {
    return "#" + hiddenCount++;
  }

  /** Joins (or anti-joins) the current rows with a relation atom. */
  private void join(Atom atom, List<String> vars, JoinRelType type) {
    final List<Expr> args = new ArrayList<>();
    // the values of its columns the read looks up (constants, a few settled values)
    final Map<Integer, Collection<Object>> looked = new HashMap<>();
    final Supplier<RelNode> relation = relation(atom, args, vars, looked);
    final Map<String, Integer> fresh = join(relation,
        atom instanceof Atom.StoredApply s ? s : null, looked, args, vars, type);
    if (atom instanceof Atom.RuleApply r) {
      final List<Object[]> rows = tables.settledRows(r);
      if (rows != null) {
        fresh.forEach((v, i) -> settled.put(v, Map.entry(rows, i)));
      }
    }
  }

  /**
   * Joins the rows so far (the top of the builder's stack, columns {@code vars}) with
   * {@code relation}, whose column i binds {@code args.get(i)}; returns the relation's new
   * variables and their columns in it. Where {@code stored} (the stored atom the relation
   * reads, or null) is joined on a column an index leads with, an index join looks it up
   * instead ({@code looked}: the values its read looks up already).
   */
  private Map<String, Integer> join(Supplier<RelNode> relation, Atom.StoredApply stored,
      Map<Integer, Collection<Object>> looked, List<Expr> args, List<String> vars,
      JoinRelType type) {
    final int arity = args.size();
    // Expressions over bound variables become columns of the left side first.
    final List<Integer> leftKeys = new ArrayList<>();
    final List<Integer> rightKeys = new ArrayList<>();
    final List<RexNode> extra = new ArrayList<>();
    // new variables in column order, which is the order they are bound in
    final Map<String, Integer> fresh = new LinkedHashMap<>();
    final List<int[]> sameInRelation = new ArrayList<>();
    final List<Object[]> constantsInRelation = new ArrayList<>();
    for (int i = 0; i < arity; i++) {
      final Expr arg = args.get(i);
      if (arg == null || isWildcard(arg)) {
        if (ordered && type != JoinRelType.ANTI) {
          fresh.put(hidden(), i);
        }
        continue;
      }
      if (arg instanceof Expr.Var) {
        final String v = ((Expr.Var) arg).name();
        final int bound = vars.indexOf(v);
        if (bound >= 0) {
          leftKeys.add(bound);
          rightKeys.add(i);
        } else if (fresh.containsKey(v)) {
          sameInRelation.add(new int[] {fresh.get(v), i});
        } else {
          fresh.put(v, i);
        }
      } else if (variables(arg).isEmpty()) {
        constantsInRelation.add(new Object[] {i, arg});
      } else if (bound(variables(arg), vars)) {
        leftKeys.add(vars.size() + extra.size());
        extra.add(rex(arg, vars));
        rightKeys.add(i);
      } else {
        throw new DatalogException(ErrorCode.EVAL_UNBOUND_VARIABLE,
            "Atom contains unbound variable, or rule contains no variable at all",
            arg.pos().line(), arg.pos().column());
      }
    }
    if (!extra.isEmpty()) {
      b.projectPlus(extra);
    }
    final int left = b.peek().getRowType().getFieldCount();
    // A variable bound so far on a column an index leads with, no value known while lowering
    // (a constant, a few settled ones: the read looks those up): looked up as the rows come.
    if (type == JoinRelType.INNER && stored != null && !leftKeys.isEmpty()
        && tables.indexJoin(stored, looked, leftKeys, rightKeys)) {
      for (int[] same : sameInRelation) {
        b.filter(b.call(Operators.SAME, b.field(left + same[0]), b.field(left + same[1])));
      }
      for (Object[] c : constantsInRelation) {
        b.filter(b.call(Operators.SAME, b.field(left + (Integer) c[0]),
            rex((Expr) c[1], List.of())));
      }
    } else {
      b.push(relation.get());
      for (int[] same : sameInRelation) {
        b.filter(b.call(Operators.SAME, b.field(same[0]), b.field(same[1])));
      }
      for (Object[] c : constantsInRelation) {
        b.filter(b.call(Operators.SAME, b.field((Integer) c[0]),
            rex((Expr) c[1], List.of())));
      }
      final List<RexNode> conditions = new ArrayList<>();
      for (int k = 0; k < leftKeys.size(); k++) {
        conditions.add(b.isNotDistinctFrom(b.field(2, 0, leftKeys.get(k)),
            b.field(2, 1, rightKeys.get(k))));
      }
      b.join(type, conditions.isEmpty() ? List.of(b.literal(true)) : conditions);
    }
    if (type == JoinRelType.ANTI) {
      if (!extra.isEmpty()) {
        b.project(fields(0, vars.size()), vars, true);
      }
      return fresh;
    }
    // keep the bound variables, then the relation's new ones
    final List<RexNode> keep = new ArrayList<>(fields(0, vars.size()));
    final List<String> names = new ArrayList<>(vars);
    for (Map.Entry<String, Integer> e : fresh.entrySet()) {
      keep.add(b.field(left + e.getValue()));
      names.add(e.getKey());
    }
    b.project(keep, names, true);
    vars.clear();
    vars.addAll(names);
    return fresh;
  }

  /**
   * The relations of a rule body that make a cycle, such as a triangle {@code e[a, b], e[b, c],
   * e[a, c]}, in body order; empty when the body's relations are acyclic. Of the relations
   * whose arguments are variables and constants (a relation applied to a computed expression
   * is joined alone), this is what is left of the hypergraph of their variables after the GYO
   * reduction: a variable of one relation only is dropped, and so is a relation whose
   * variables another's hold, until neither applies; an acyclic body leaves nothing.
   */
  static List<Atom> cyclicPart(List<Atom> body) {
    final List<Atom> atoms = new ArrayList<>();
    final List<Set<String>> edges = new ArrayList<>();
    for (Atom a : body) {
      final List<Expr> args = arguments(a);
      if (args != null && args.stream()
          .allMatch(e -> e instanceof Expr.Var || variables(e).isEmpty())) {
        atoms.add(a);
        edges.add(new HashSet<>(boundBy(args).keySet()));
      }
    }
    final boolean[] gone = new boolean[atoms.size()];
    boolean changed = true;
    while (changed) {
      changed = false;
      final Map<String, Integer> holders = new HashMap<>();
      for (int i = 0; i < edges.size(); i++) {
        if (!gone[i]) {
          edges.get(i).forEach(v -> holders.merge(v, 1, Integer::sum));
        }
      }
      for (int i = 0; i < edges.size(); i++) {
        if (!gone[i]) {
          changed |= edges.get(i).removeIf(v -> holders.get(v) == 1);
        }
      }
      for (int i = 0; i < edges.size(); i++) {
        for (int j = 0; j < edges.size() && !gone[i]; j++) {
          if (j != i && !gone[j] && edges.get(j).containsAll(edges.get(i))
              || edges.get(i).isEmpty()) {
            gone[i] = true;
            changed = true;
          }
        }
      }
    }
    final List<Atom> cyclic = new ArrayList<>();
    for (int i = 0; i < atoms.size(); i++) {
      if (!gone[i]) {
        cyclic.add(atoms.get(i));
      }
    }
    return cyclic;
  }

  /** A relation atom's arguments, one per column (null for a column it leaves out); else null. */
  private static List<Expr> arguments(Atom a) {
    if (a instanceof Atom.RuleApply r) {
      return r.args();
    }
    if (a instanceof Atom.StoredApply s) {
      return s.isNamed() ? s.named().stream().map(Atom.Binding::value).toList() : s.positional();
    }
    return null;
  }

  /** The variables {@code args} bind, each with the first column binding it. */
  private static Map<String, Integer> boundBy(List<Expr> args) {
    final Map<String, Integer> first = new LinkedHashMap<>();
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i) instanceof Expr.Var v && !isWildcard(v)) {
        first.putIfAbsent(v.name(), i);
      }
    }
    return first;
  }

  /**
   * Joins the rows so far with a body's cyclic part {@code atoms} ({@link #cyclicPart}), their
   * natural join found by a generic join ({@code rel.GenericJoin}): each relation read with
   * its constants and repeated variables filtered, as a relation joined alone is, and cut to
   * its variables; the variables joined most often first, then as written. A stored relation
   * of Int columns whose constants here are Ints is read by the join itself from the store's
   * packed copy ({@link GenericJoinRun.Stored}), its plan (every row) read only where the store
   * has no packed copy.
   */
  private void genericJoin(List<Atom> atoms, List<String> vars) {
    final Map<String, Integer> holders = new LinkedHashMap<>();
    for (Atom a : atoms) {
      boundBy(arguments(a)).keySet().forEach(v -> holders.merge(v, 1, Integer::sum));
    }
    final List<String> order = new ArrayList<>(holders.keySet());
    order.sort((x, y) -> holders.get(y) - holders.get(x));
    final List<int[]> bindings = new ArrayList<>();
    final List<GenericJoinRun.Stored> packed = new ArrayList<>();
    for (Atom a : atoms) {
      final List<Expr> args = new ArrayList<>();
      final Supplier<RelNode> relation = relation(a, args, vars, new HashMap<>());
      final Map<String, Integer> first = boundBy(args);
      final Long[] constants = a instanceof Atom.StoredApply ? intConstants(args) : null;
      final StratumLowering.Read read =
          constants == null ? null : tables.packedRead((Atom.StoredApply) a);
      if (read == null) {
        b.push(relation.get());
        packed.add(null);
      } else {
        b.push(read.plan());
        final List<String> given = new ArrayList<>(first.keySet());
        final int[] places = new int[args.size()];
        for (int i = 0; i < args.size(); i++) {
          places[i] = args.get(i) instanceof Expr.Var v ? given.indexOf(v.name()) : -1;
        }
        packed.add(new GenericJoinRun.Stored(read.table(), read.ints().columns(),
            read.ints().how(), places, constants));
      }
      final List<RexNode> same = new ArrayList<>();
      for (int i = 0; i < args.size(); i++) {
        final Expr arg = args.get(i);
        if (arg == null || isWildcard(arg)) {
          continue;
        }
        if (!(arg instanceof Expr.Var v)) {
          same.add(b.call(Operators.SAME, b.field(i), rex(arg, List.of())));
        } else if (first.get(v.name()) != i) {
          same.add(b.call(Operators.SAME, b.field(first.get(v.name())), b.field(i)));
        }
      }
      if (!same.isEmpty()) {
        b.filter(same);
      }
      b.project(first.values().stream().map(i -> b.field(i)).toList(), first.keySet(), true);
      bindings.add(first.keySet().stream().mapToInt(order::indexOf).toArray());
    }
    MnesticRelBuilder.genericJoin(b, new GenericJoinRun.Spec(order, bindings, packed));
    final RelNode joined = b.build();
    join(() -> joined, null, Map.of(), order.stream().<Expr>map(v -> new Expr.Var(v, atoms.get(0).pos())).toList(),
        vars, JoinRelType.INNER);
  }

  /**
   * Per argument of a stored atom, the Int a constant one must equal (a literal or a parameter),
   * null for a variable or a column left out; null for them all when a constant is not an Int
   * (a packed read of Int columns does not filter by it: the plan does).
   */
  private Long[] intConstants(List<Expr> args) {
    final Long[] constants = new Long[args.size()];
    for (int i = 0; i < args.size(); i++) {
      final Expr arg = args.get(i);
      final Object value = arg instanceof Expr.Literal literal ? literal.value()
          : arg instanceof Expr.Param param && params.containsKey(param.name())
              ? Values.of(params.get(param.name())) : null;
      if (value instanceof Long l) {
        constants[i] = l;
      } else if (arg != null && !(arg instanceof Expr.Var)) {
        return null;
      }
    }
    return constants;
  }

  private List<RexNode> fields(int from, int to) {
    final List<RexNode> fields = new ArrayList<>();
    for (int i = from; i < to; i++) {
      fields.add(b.field(i));
    }
    return fields;
  }

  /**
   * The relation an atom reads, its columns as CozoDB values, made when asked (a stored
   * relation's read is not made when an index join reads it); fills {@code args} per column.
   * Where {@code vars} are bound so far; {@code looked} gets the values of its columns a read
   * of a stored relation looks up ({@link #values}).
   */
  private Supplier<RelNode> relation(Atom atom, List<Expr> args, List<String> vars,
      Map<Integer, Collection<Object>> looked) {
    if (atom instanceof Atom.RuleApply) {
      final Atom.RuleApply r = (Atom.RuleApply) atom;
      args.addAll(r.args());
      final RelNode scan = b.push(LogicalTableScan.create(b.getCluster(), tables.rule(r),
          List.of())).build();
      return () -> scan;
    }
    final Atom.StoredApply s = (Atom.StoredApply) atom;
    final List<String> columns = tables.storedColumns(s.relation(), s.pos());
    if (s.isNamed()) {
      for (int i = 0; i < columns.size(); i++) {
        args.add(null);
      }
      for (Atom.Binding binding : s.named()) {
        final int i = column(columns, binding.column());
        if (i < 0) {
          throw new DatalogException(ErrorCode.EVAL_NAMED_FIELD_NOT_FOUND,
              "stored relation " + s.relation() + " does not have field " + binding.column(),
              binding.pos().line(), binding.pos().column());
        }
        args.set(i, binding.value());
      }
    } else {
      if (s.positional().size() != columns.size()) {
        // CozoDB's code and message, as for a rule
        throw new DatalogException(ErrorCode.EVAL_RULE_ARITY_MISMATCH,
            "Arity mismatch for rule application " + s.relation(), s.pos().line(),
            s.pos().column(), "Required arity: " + columns.size()
                + ", number of arguments given: " + s.positional().size());
      }
      args.addAll(s.positional());
    }
    looked.putAll(values(args, vars));
    if (s.validAt() != null) {
      // made now: its time travel's errors come before the atom's arguments'
      final RelNode read = tables.stored(s, looked);
      return () -> read;
    }
    return () -> tables.stored(s, looked);
  }

  /**
   * The values each argument can take, by column: a constant (literal, parameter), or a
   * variable bound so far ({@code vars}) by a settled relation's column, whose distinct values
   * are those ({@link #settled}) when there are no more than a read looks up.
   */
  private Map<Integer, Collection<Object>> values(List<Expr> args, List<String> vars) {
    final Map<Integer, Collection<Object>> values = new LinkedHashMap<>();
    for (int i = 0; i < args.size(); i++) {
      final Expr arg = args.get(i);
      if (arg instanceof Expr.Literal literal && literal.value() != null) {
        values.put(i, List.of(literal.value()));
      } else if (arg instanceof Expr.Param param && params.get(param.name()) != null) {
        values.put(i, List.of(params.get(param.name())));
      } else if (arg instanceof Expr.Var v && vars.contains(v.name())
          && settled.containsKey(v.name())) {
        final Map.Entry<List<Object[]>, Integer> from = settled.get(v.name());
        final Set<Object> distinct = new LinkedHashSet<>();
        for (Object[] row : from.getKey()) {
          // more values than a read looks up are not worth counting
          if (distinct.add(row[from.getValue()])
              && distinct.size() > StratumLowering.MAX_LOOKUPS) {
            break;
          }
        }
        if (distinct.size() <= StratumLowering.MAX_LOOKUPS) {
          values.put(i, distinct);
          tables.readsRows();
        }
      }
    }
    return values;
  }

  /** The index of the column named {@code name} (exactly, else ignoring case); -1 if none. */
  static int column(List<String> columns, String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).equals(name)) {
        return i;
      }
    }
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isWildcard(Expr e) {
    return e instanceof Expr.Var && ((Expr.Var) e).name().equals("_");
  }

  /** The variables an expression reads. */
  static Set<String> variables(Expr e) {
    final Set<String> vars = new LinkedHashSet<>();
    collect(e, vars);
    return vars;
  }

  private static void collect(Expr e, Set<String> vars) {
    if (e instanceof Expr.Var) {
      vars.add(((Expr.Var) e).name());
    } else if (e instanceof Expr.ListExpr) {
      ((Expr.ListExpr) e).items().forEach(i -> collect(i, vars));
    } else if (e instanceof Expr.Apply) {
      ((Expr.Apply) e).args().forEach(a -> collect(a, vars));
    }
  }

  /** An expression as a row expression over the current columns {@code vars}. */
  private RexNode rex(Expr e, List<String> vars) {
    if (e instanceof Expr.Var) {
      final int i = vars.indexOf(((Expr.Var) e).name());
      if (i < 0) {
        throw new DatalogException(ErrorCode.EVAL_UNBOUND_VARIABLE,
            "Atom contains unbound variable, or rule contains no variable at all",
            e.pos().line(), e.pos().column());
      }
      return b.field(i);
    }
    if (e instanceof Expr.Literal || e instanceof Expr.Param) {
      return literal(ConstantEvaluator.evaluate(e, params));
    }
    if (e instanceof Expr.ListExpr) {
      final List<RexNode> items = new ArrayList<>();
      for (Expr item : ((Expr.ListExpr) e).items()) {
        items.add(rex(item, vars));
      }
      return list(items);
    }
    final Expr.Apply apply = (Expr.Apply) e;
    if (ConstantEvaluator.isConditional(apply)) {
      return conditional(apply, vars);
    }
    if (apply.args().size() > CozoCalls.MAX_ARITY && variables(e).isEmpty()) {
      // a long chain of constants (1 + 2 + ... ) is one constant, not a tree of calls
      return literal(ConstantEvaluator.evaluate(e, params));
    }
    final List<RexNode> args = new ArrayList<>();
    for (Expr a : apply.args()) {
      args.add(rex(a, vars));
    }
    try {
      Functions.checkArity(apply.function(), args.size());
    } catch (ValueException ex) {
      throw new DatalogException(ex.errorCode(), ex.getMessage(), e.pos().line(), e.pos().column(),
          ex.help());
    }
    if (apply.function().equals("list")) {
      return list(args);
    }
    if (args.size() > CozoCalls.MAX_ARITY && ASSOCIATIVE.contains(apply.function())) {
      return associate(apply.function(), args);
    }
    if (args.size() > CozoCalls.MAX_ARITY) {
      throw new DatalogException(ErrorCode.MNESTIC_UNSUPPORTED, "'" + apply.function()
          + "' with more than " + CozoCalls.MAX_ARITY + " arguments is not supported yet",
          e.pos().line(), e.pos().column());
    }
    return call(apply.function(), args);
  }

  /**
   * {@code if(c, a, b)} and {@code cond(c1, v1, c2, v2, ...)} as CozoDB parses them, a list of
   * clauses (condition, value): {@code if} is {@code (c, a), (true, b)} ({@code b} null when
   * left out); an odd {@code cond}'s last argument is a value whose condition is null, and a
   * {@code cond} whose last condition is not the literal {@code true} ends with
   * {@code (true, null)}. The value is that of the first clause whose condition is true, each
   * condition a Bool ({@code eval::predicate_not_bool} otherwise); null when none is. Lowered
   * to a CASE, whose generated code evaluates only the clauses it reaches.
   */
  private RexNode conditional(Expr.Apply apply, List<String> vars) {
    ConstantEvaluator.checkConditional(apply);
    final List<Expr> args = new ArrayList<>(apply.args());
    final Expr always = new Expr.Literal(true, apply.pos());
    final Expr none = new Expr.Literal(null, apply.pos());
    if (apply.function().equals("if")) {
      args.add(2, always);
      if (args.size() == 3) {
        args.add(none);
      }
    } else {
      if (args.size() % 2 == 1) {
        args.add(args.size() - 1, new Expr.Literal(null, args.get(args.size() - 1).pos()));
      }
      if (!(args.get(args.size() - 2) instanceof Expr.Literal l && Boolean.TRUE.equals(l.value()))) {
        args.add(always);
        args.add(none);
      }
    }
    // CASE WHEN TEST(c1) THEN v1 WHEN TEST(c2) THEN v2 ... ELSE NULL END
    final List<RexNode> operands = new ArrayList<>();
    for (int i = 0; i < args.size(); i += 2) {
      operands.add(b.call(Operators.TEST, rex(args.get(i), vars)));
      operands.add(rex(args.get(i + 1), vars));
    }
    operands.add(literal(null));
    return b.call(SqlStdOperatorTable.CASE, operands);
  }

  /** Variadic functions that associate: {@code f(a, b, c)} is {@code f(f(a, b), c)}. */
  private static final Set<String> ASSOCIATIVE = Set.of("or", "and", "add", "mul", "concat");

  /**
   * {@code function} of {@code args} (more than MAX_ARITY), as a tree of calls of at most
   * MAX_ARITY arguments each, in order: its height grows as the logarithm of the count.
   */
  private RexNode associate(String function, List<RexNode> args) {
    List<RexNode> level = args;
    while (level.size() > CozoCalls.MAX_ARITY) {
      final List<RexNode> up = new ArrayList<>();
      for (int from = 0; from < level.size(); from += CozoCalls.MAX_ARITY) {
        final List<RexNode> group = level.subList(from,
            Math.min(level.size(), from + CozoCalls.MAX_ARITY));
        up.add(group.size() == 1 ? group.get(0) : call(function, group));
      }
      level = up;
    }
    return call(function, level);
  }

  private RexNode call(String function, List<RexNode> args) {
    final List<RexNode> operands = new ArrayList<>();
    operands.add(b.literal(function));
    operands.addAll(args);
    return b.call(Operators.call(Functions.resolve(function, args.size()), args.size()),
        operands);
  }

  /** A list of any length: lists of at most MAX_ARITY items, concatenated (a balanced tree). */
  private RexNode list(List<RexNode> items) {
    if (items.size() <= CozoCalls.MAX_ARITY) {
      return call("list", items);
    }
    final List<RexNode> chunks = new ArrayList<>();
    for (int from = 0; from < items.size(); from += CozoCalls.MAX_ARITY) {
      chunks.add(call("list",
          items.subList(from, Math.min(items.size(), from + CozoCalls.MAX_ARITY))));
    }
    return chunks.size() == 1 ? chunks.get(0) : associate("concat", chunks);
  }

  /** A constant value as a row expression. */
  private RexNode literal(Object v) {
    final RexBuilder rex = b.getRexBuilder();
    if (v == null) {
      return rex.makeNullLiteral(any());
    }
    // Every constant goes through VALUE, so that its column is of type ANY too.
    if (v instanceof Boolean) {
      return b.call(Operators.VALUE, rex.makeLiteral((Boolean) v));
    }
    if (v instanceof Long) {
      return b.call(Operators.VALUE, rex.makeBigintLiteral(BigDecimal.valueOf((Long) v)));
    }
    if (v instanceof Double) {
      final double d = (Double) v;
      if (Double.isFinite(d) && !(d == 0 && 1 / d < 0)) {
        return b.call(Operators.VALUE, rex.makeApproxLiteral(new BigDecimal(d)));
      }
      return b.call(Operators.FLOAT_OF, b.literal(Double.toString(d)));
    }
    if (v instanceof String) {
      return b.call(Operators.VALUE, rex.makeLiteral((String) v));
    }
    if (v instanceof List) {
      final List<RexNode> items = new ArrayList<>();
      for (Object item : (List<?>) v) {
        items.add(literal(item));
      }
      return list(items);
    }
    throw new IllegalArgumentException("not a value: " + v);
  }

  private RelDataType any() {
    return b.getTypeFactory().createTypeWithNullability(
        b.getTypeFactory().createSqlType(SqlTypeName.ANY), true);
  }

  /** Rule atoms that read relations of {@code component}, in body order. */
  static List<Atom.RuleApply> recursiveAtoms(Rule rule, Set<String> component) {
    final List<Atom.RuleApply> found = new ArrayList<>();
    for (Atom a : rule.body()) {
      if (a instanceof Atom.RuleApply && component.contains(((Atom.RuleApply) a).rule())) {
        found.add((Atom.RuleApply) a);
      }
    }
    return found;
  }
}
