package dev.mnestic.datalog;

import dev.mnestic.datalog.ast.Atom;
import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.ast.Script;
import dev.mnestic.value.HostAggregations;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An engine's evaluations of query blocks (shared by the engines derived from it: a
 * connection's) ({@link StrataRunner.Evaluation}), kept to be done
 * again: a block run again with the same parameters over the same store schema runs the plans
 * compiled the first time over the same row tables, emptied, and skips checking, stratifying,
 * the magic-set rewrite, lowering, Calcite's planning and code generation.
 *
 * <p>An evaluation is kept under its {@link Key}: the block (its rules and options as parsed,
 * positions included, so that an error points where it did), the parameters' values, the
 * store's schema version (HSQLDB's schema change stamp, which every DDL of any session moves:
 * {@code :create}, {@code ::remove}, an index, a relation's triggers or access level), and what
 * of the engine shapes plans (its aggregations, whether cyclic bodies take the generic join).
 * The stored relations it reads must still be in the tables they were in
 * ({@link StrataRunner.Evaluation#readsAsBefore}). A block calling {@code now()} or a
 * {@code rand_} function is not kept ({@link #keeps}): lowering folds a call on constants
 * (a constant rule's rows, a constant list) into a value, which must be new each run. A run takes its evaluation out while it runs
 * (another run of the same block at the same time evaluates anew) and puts it back, its
 * tables emptied, when it succeeded; a failed run's is dropped.
 *
 * <p>At most {@value #CAPACITY} blocks, the least recently used dropped first. Thread-safe.
 */
final class KeptEvaluations {
  /** Blocks kept per connection. */
  static final int CAPACITY = 16;

  private final Map<Key, StrataRunner.Evaluation> kept =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override protected boolean removeEldestEntry(
            Map.Entry<Key, StrataRunner.Evaluation> e) {
          return size() > CAPACITY;
        }
      };

  KeptEvaluations() {
  }

  /** Everything a block's plans depend on besides the rows. */
  record Key(Script.Query block, Map<String, Object> params, long schemaVersion,
      HostAggregations host, boolean genericJoins) {
    /** The key of {@code block} run with {@code params} (copied: the caller's may change). */
    static Key of(Script.Query block, Map<String, ?> params, long schemaVersion,
        HostAggregations host, boolean genericJoins) {
      // CozoDB's null is a value: no Map.copyOf
      return new Key(block, Collections.unmodifiableMap(new HashMap<String, Object>(params)),
          schemaVersion, host, genericJoins);
    }
  }

  /**
   * Whether {@code block}'s evaluation may be kept: it calls no function whose value changes
   * from call to call ({@code now()}, the {@code rand_} ones).
   */
  static boolean keeps(Script.Query block) {
    for (Rule r : block.rules()) {
      for (Rule.HeadArg h : r.head()) {
        if (!pure(h.aggregationArgs())) {
          return false;
        }
      }
      if ((r.constant() != null && !pure(r.constant())) || !pureAtoms(r.body())) {
        return false;
      }
    }
    return true;
  }

  private static boolean pureAtoms(List<Atom> atoms) {
    for (Atom a : atoms) {
      if (!pure(a)) {
        return false;
      }
    }
    return true;
  }

  private static boolean pure(Atom a) {
    if (a instanceof Atom.RuleApply r) {
      return pure(r.args());
    }
    if (a instanceof Atom.StoredApply s) {
      return pure(s.positional()) && pureBindings(s.named())
          && (s.validAt() == null || pure(s.validAt()));
    }
    if (a instanceof Atom.SearchApply s) {
      return pureBindings(s.bindings()) && pureBindings(s.parameters());
    }
    if (a instanceof Atom.Unify u) {
      return pure(u.value());
    }
    if (a instanceof Atom.Member m) {
      return pure(m.list());
    }
    if (a instanceof Atom.Negation n) {
      return pure(n.atom());
    }
    if (a instanceof Atom.Disjunction d) {
      return d.disjuncts().stream().allMatch(KeptEvaluations::pureAtoms);
    }
    if (a instanceof Atom.Conjunction c) {
      return pureAtoms(c.atoms());
    }
    return pure(((Atom.Filter) a).condition());
  }

  private static boolean pureBindings(List<Atom.Binding> bindings) {
    return bindings == null || bindings.stream().allMatch(b -> pure(b.value()));
  }

  private static boolean pure(List<Expr> exprs) {
    return exprs == null || exprs.stream().allMatch(KeptEvaluations::pure);
  }

  private static boolean pure(Expr e) {
    if (e instanceof Expr.Apply a) {
      return !a.function().equals("now") && !a.function().startsWith("rand_") && pure(a.args());
    }
    return !(e instanceof Expr.ListExpr l) || pure(l.items());
  }

  /** Takes out the evaluation kept under {@code key}, or null. */
  synchronized StrataRunner.Evaluation take(Key key) {
    return kept.remove(key);
  }

  /** Keeps {@code evaluation}, its tables emptied, under {@code key}. */
  void keep(Key key, StrataRunner.Evaluation evaluation) {
    evaluation.empty();
    synchronized (this) {
      kept.put(key, evaluation);
    }
  }
}
