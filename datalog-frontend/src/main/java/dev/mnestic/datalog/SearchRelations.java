package dev.mnestic.datalog;

import dev.mnestic.datalog.ast.Atom;
import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.FixedApply;
import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.fixed.FixedRules;
import dev.mnestic.store.Session;
import dev.mnestic.store.TablePolicy;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule;
import dev.mnestic.value.SearchIndex;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Reads of a search index's own relation, CozoDB's {@code *rel:idx{...}} (and MinHash-LSH's
 * {@code *rel:idx:inv{...}}): the relation CozoDB keeps the index in, whose rows mnestic does
 * not store (its indices live in memory, {@link SearchIndexes}). Each such read is rewritten
 * into the application of a rule of that name, a fixed rule over the indexed relation as the
 * query sees it ({@code *rel[...]}: committed rows and the transaction's own) that builds a
 * fresh instance of the index from those rows and gives the index's relation rows ({@code
 * SearchIndex#relationRows}). So the rows are a function of the relation, as CozoDB's are:
 * the full-text index's are CozoDB's own; the MinHash-LSH buckets and the HNSW graph are
 * mnestic's (drawn from seeds of the definition, where CozoDB draws at random), with CozoDB's
 * columns and layout. A read costs building the index over the whole relation.
 */
final class SearchRelations {
  /** The fixed rules' names start so ({@code FixedRules} names are identifiers). */
  private static final String RULE_PREFIX = "MnesticSearchIndexRelation";

  /** The rules rewritten, and the fixed rules their index reads apply. */
  record Rewritten(List<Rule> rules, FixedRules fixedRules) {
  }

  private final Session session;
  private final Function<String, Optional<String>> tables;
  /** Per index relation read ({@code rel:idx}): the rule computing it. */
  private final Map<String, Rule> made = new LinkedHashMap<>();
  private FixedRules fixedRules;
  private int fresh;

  private SearchRelations(Session session, Function<String, Optional<String>> tables,
      FixedRules fixedRules) {
    this.session = session;
    this.tables = tables;
    this.fixedRules = fixedRules;
  }

  /**
   * {@code rules} with every read {@code *rel:idx} of a search index's relation an application
   * of rule {@code rel:idx} (a name no script can give a rule), defined by a fixed rule added to
   * {@code fixedRules}; {@code rules} and {@code fixedRules} themselves when there is none.
   *
   * @param tables the table holding a relation as the script sees it, if any
   */
  static Rewritten rewrite(List<Rule> rules, FixedRules fixedRules, Session session,
      Function<String, Optional<String>> tables) {
    final SearchRelations r = new SearchRelations(session, tables, fixedRules);
    final List<Rule> out = new ArrayList<>();
    for (Rule rule : rules) {
      out.add(rule.kind() == Rule.Kind.INLINE ? new Rule(rule.name(), rule.head(), rule.kind(),
          r.atoms(rule.body()), rule.constant(), rule.pos(), rule.fixed()) : rule);
    }
    if (r.made.isEmpty()) {
      return new Rewritten(rules, fixedRules);
    }
    out.addAll(r.made.values());
    return new Rewritten(out, r.fixedRules);
  }

  private List<Atom> atoms(List<Atom> atoms) {
    final List<Atom> out = new ArrayList<>();
    for (Atom a : atoms) {
      out.add(atom(a));
    }
    return out;
  }

  private Atom atom(Atom a) {
    if (a instanceof Atom.Negation n) {
      return new Atom.Negation(atom(n.atom()), n.pos());
    }
    if (a instanceof Atom.Conjunction c) {
      return new Atom.Conjunction(atoms(c.atoms()), c.pos());
    }
    if (a instanceof Atom.Disjunction d) {
      final List<List<Atom>> disjuncts = new ArrayList<>();
      for (List<Atom> conjunct : d.disjuncts()) {
        disjuncts.add(atoms(conjunct));
      }
      return new Atom.Disjunction(disjuncts, d.pos());
    }
    if (a instanceof Atom.StoredApply s && s.relation().indexOf(':') > 0) {
      return read(s);
    }
    return a;
  }

  /** {@code s} as a rule application, if it reads a search index's relation. */
  private Atom read(Atom.StoredApply s) {
    final String[] parts = s.relation().split(":", -1);
    if (parts.length > 3) {
      return s;
    }
    final Optional<String> table = tables.apply(parts[0]);
    if (table.isEmpty() || StoredRelations.indices(session, table.get())
        .containsKey(s.relation().substring(parts[0].length() + 1))) {
      return s;
    }
    final SearchIndex.Definition definition =
        TablePolicy.of(session, table.get()).searchIndices().get(parts[1]);
    if (definition == null) {
      return s;
    }
    final SearchIndex.Kind kind = SearchIndexes.kind(definition.kind());
    final SearchIndex.Columns relation =
        SearchIndexes.columns(StoredSchema.read(session, table.get()));
    final String part = parts.length == 3 ? parts[2] : "";
    final List<SearchIndex.RelationColumn> columns =
        kind.relationColumns(definition, relation, part);
    if (columns == null) {
      return s;
    }
    if (s.validAt() != null) {
      throw new DatalogException(ErrorCode.MNESTIC_UNSUPPORTED, "the relation of search index "
          + s.relation() + " has no validity to read it at", s.pos().line(), s.pos().column());
    }
    final List<String> names = columns.stream().map(SearchIndex.RelationColumn::name).toList();
    if (!made.containsKey(s.relation())) {
      made.put(s.relation(), rule(s, parts[0], relation, names,
          new RelationRows(definition, relation, part, names.size())));
    }
    final List<Expr> args = new ArrayList<>();
    if (s.isNamed()) {
      for (int i = 0; i < names.size(); i++) {
        args.add(new Expr.Var("*^*search" + fresh++, s.pos()));
      }
      for (Atom.Binding b : s.named()) {
        final int i = names.indexOf(b.column());
        if (i < 0) {
          throw new DatalogException(ErrorCode.EVAL_NAMED_FIELD_NOT_FOUND, "stored relation "
              + s.relation() + " does not have field " + b.column(), b.pos().line(),
              b.pos().column());
        }
        args.set(i, b.value());
      }
    } else {
      if (s.positional().size() != names.size()) {
        throw new DatalogException(ErrorCode.EVAL_RULE_ARITY_MISMATCH,
            "Arity mismatch for rule application " + s.relation(), s.pos().line(),
            s.pos().column(), "Required arity: " + names.size()
                + ", number of arguments given: " + s.positional().size());
      }
      args.addAll(s.positional());
    }
    return new Atom.RuleApply(s.relation(), args, s.pos());
  }

  /** Rule {@code rel:idx}: {@code rows} applied to the whole indexed relation. */
  private Rule rule(Atom.StoredApply s, String base, SearchIndex.Columns relation,
      List<String> names, FixedRule rows) {
    final Pos at = s.pos();
    String name = RULE_PREFIX + made.size();
    while (fixedRules.find(name).isPresent()) {
      name = name + "_";
    }
    fixedRules = fixedRules.with(name, rows);
    final List<Expr.Var> inputs = new ArrayList<>();
    for (String column : relation.names()) {
      inputs.add(new Expr.Var(column, at));
    }
    final FixedApply apply = new FixedApply(name,
        List.of(new FixedApply.Input(base, true, inputs, null, null, at)), Map.of(), at, at);
    final List<Rule.HeadArg> head = new ArrayList<>();
    for (String column : names) {
      head.add(new Rule.HeadArg(new Expr.Var(column, at), null, List.of(), at));
    }
    return new Rule(s.relation(), head, Rule.Kind.FIXED, List.of(), null, at, apply);
  }

  /**
   * The rows of an index's relation: a fresh instance of the index synced with the whole
   * relation (its one input), then its {@code relationRows}.
   */
  private record RelationRows(SearchIndex.Definition definition,
      SearchIndex.Columns relation, String part, int arity) implements FixedRule {
    @Override public int arity(Options options, List<String> head) {
      return arity;
    }

    @Override public void run(Call call, Consumer<Object[]> out) {
      final SearchIndex index = SearchIndexes.create(definition, relation);
      index.sync(call.input(0).rows(), call.stop());
      index.relationRows(part, call.stop()).forEach(out);
    }
  }
}
