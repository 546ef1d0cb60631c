package dev.mnestic.datalog.analysis;

import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.eval.ConstantEvaluator;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.Values;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks that the definitions of each rule of a query fit together, as
 * CozoDB's parser does while it collects them (in script order):
 *
 * <ol>
 *   <li>A constant rule ({@code r[a] <- [[1]]}) is a rule's only definition
 *       ({@code parser::mult_rule_def}).</li>
 *   <li>Every inline definition of a rule has the first one's head arity and,
 *       position by position, the same aggregation with the same arguments (their
 *       values, parameters bound: {@code collect(x, 2)} and {@code collect(x, 2.0)}
 *       differ), or none ({@code parser::head_aggr_mismatch}).</li>
 * </ol>
 *
 * <p>Errors are placed where CozoDB's first label is: the first definition
 * (its head's first argument for a mismatch), or an inline definition that
 * follows a constant one.
 */
public final class Definitions {
  private Definitions() {
  }

  /**
   * Checks {@code rules}, a query's rules in script order, with parameters {@code params}.
   *
   * @throws DatalogException {@code parser::mult_rule_def} or {@code parser::head_aggr_mismatch}
   */
  public static void check(List<Rule> rules, Map<String, ?> params) {
    final Map<String, Rule> first = new HashMap<>();
    final Map<String, List<Object>> heads = new HashMap<>();
    for (Rule rule : rules) {
      final Rule before = first.putIfAbsent(rule.name(), rule);
      if (before == null) {
        if (rule.kind() == Rule.Kind.INLINE) {
          heads.put(rule.name(), aggregations(rule, params));
        }
        continue;
      }
      if (before.kind() != Rule.Kind.INLINE || rule.kind() != Rule.Kind.INLINE) {
        // CozoDB's first label: the inline rule that meets a constant one, else the first rule
        final Rule at = rule.kind() == Rule.Kind.INLINE ? rule : before;
        throw new DatalogException(ErrorCode.PARSER_MULT_RULE_DEF, "The rule '" + rule.name()
            + "' cannot have multiple definitions since it contains non-Horn clauses",
            at.pos().line(), at.pos().column());
      }
      if (!Values.equal(heads.get(rule.name()), aggregations(rule, params))) {
        final Rule.HeadArg at = before.head().get(0);
        throw new DatalogException(ErrorCode.PARSER_HEAD_AGGR_MISMATCH, "Rule " + rule.name()
            + " has multiple definitions with conflicting heads", at.pos().line(), at.pos().column(),
            "The arity of each rule head must match. In addition, any aggregation applied must be"
                + " the same.");
      }
    }
  }

  /** Per head position: null, or the aggregation's name and its arguments' values. */
  private static List<Object> aggregations(Rule rule, Map<String, ?> params) {
    final List<Object> aggregations = new ArrayList<>();
    for (Rule.HeadArg h : rule.head()) {
      if (!h.isAggregated()) {
        aggregations.add(null);
        continue;
      }
      final List<Object> aggregation = new ArrayList<>();
      aggregation.add(h.aggregation());
      for (Expr arg : h.aggregationArgs()) {
        aggregation.add(ConstantEvaluator.evaluate(arg, params));
      }
      aggregations.add(Values.listOf(aggregation));
    }
    return Values.listOf(aggregations);
  }
}
