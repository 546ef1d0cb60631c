package dev.mnestic.datalog.eval;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The relation a constant rule {@code name[a, b] <- [[1, 2], [3, 4]]}
 * defines, checked as CozoDB's {@code Constant} fixed rule checks it.
 */
public final class ConstantRules {
  private ConstantRules() {
  }

  /**
   * The rows of constant rule {@code rule}: its body evaluated by
   * {@link ConstantEvaluator}, which must give a list of lists of one length
   * (that of the head, if the head is not empty). The rows come as a set:
   * without duplicates, in {@link dev.mnestic.value.Values#ORDER} (as CozoDB returns them).
   *
   * @throws DatalogException with CozoDB's code, message and help:
   *     {@code fixed_rule::arg_wrong} (the body is not a list),
   *     {@code parser::bad_row_for_const} (a row is not a list),
   *     {@code parser::const_data_arity_mismatch} (rows of different lengths),
   *     {@code parser::empty_const_rule} (no rows and no head),
   *     {@code parser::const_rule_empty_row} (rows of length 0),
   *     {@code parser::fixed_rule_head_arity_mismatch} (rows and head differ),
   *     or any error of {@link ConstantEvaluator}
   */
  public static List<List<Object>> rows(Rule rule, Map<String, ?> params) {
    if (rule.kind() != Rule.Kind.CONSTANT) {
      throw new IllegalArgumentException("not a constant rule: " + rule.name());
    }
    final List<List<Object>> rows;
    try {
      rows = dataRows(ConstantEvaluator.evaluate(rule.constant(), params));
    } catch (ValueException e) {
      throw error(rule, e.errorCode(), e.getMessage(), e.help());
    }
    final int headArity = rule.head().size();
    final int arity;
    if (!rows.isEmpty()) {
      arity = rows.get(0).size();
    } else if (headArity == 0) {
      throw error(rule, ErrorCode.PARSER_EMPTY_CONST_RULE, "Constant rule does not have data",
          "If you insist on using this empty rule, explicitly give its head");
    } else {
      arity = headArity;
    }
    if (arity == 0) {
      throw error(rule, ErrorCode.PARSER_CONST_RULE_EMPTY_ROW, "Encountered empty row for constant rule", null);
    }
    if (headArity != 0 && arity != headArity) {
      throw error(rule, ErrorCode.PARSER_FIXED_RULE_HEAD_ARITY_MISMATCH, "Fixed rule head arity mismatch",
          "Expected arity: " + arity + ", number of arguments given: " + headArity);
    }
    return rows;
  }

  /**
   * The rows of {@code data} (a constant rule's body, {@code Constant}'s option {@code data}), which must be a list of lists of one length, as a set: without
   * duplicates, in {@link Values#ORDER} (as CozoDB keeps them).
   *
   * @throws ValueException {@code fixed_rule::arg_wrong} (not a list),
   *     {@code parser::bad_row_for_const} (a row is not a list),
   *     {@code parser::const_data_arity_mismatch} (rows of different lengths)
   */
  public static List<List<Object>> dataRows(Object data) {
    if (!(data instanceof List)) {
      throw wrongData();
    }
    final List<List<Object>> rows = new ArrayList<>();
    for (Object row : (List<?>) data) {
      if (!(row instanceof List)) {
        throw new ValueException(ErrorCode.PARSER_BAD_ROW_FOR_CONST, "Bad row for constant rule: "
            + Values.display(row), "The body of a constant rule should evaluate to a list of lists");
      }
      @SuppressWarnings("unchecked")
      final List<Object> tuple = (List<Object>) row;
      if (!rows.isEmpty() && rows.get(0).size() != tuple.size()) {
        throw new ValueException(ErrorCode.PARSER_CONST_DATA_ARITY_MISMATCH,
            "Constant head must have the same arity as the data given",
            "First row length: " + rows.get(0).size() + "; the mismatch: " + Values.display(tuple));
      }
      rows.add(tuple);
    }
    final TreeSet<List<Object>> set = new TreeSet<>(Values.ORDER::compare);
    set.addAll(rows);
    return List.copyOf(set);
  }

  /** {@code Constant}'s option {@code data} is not a list of lists. */
  public static ValueException wrongData() {
    return new ValueException(ErrorCode.FIXED_RULE_ARG_WRONG,
        "Wrong value for option 'data' of 'Constant'", "a list of lists is required");
  }

  /**
   * {@code rule} itself; or, for a constant rule with an empty head
   * ({@code r[] <- [[1, 2]]}), that rule with the head CozoDB gives it,
   * {@code _0, _1, ...}, one per column of its rows; but the entry rule
   * whose body is one row of parameters only ({@code ?[] <- [[$x, $y]]})
   * is headed by their names ({@code x, y}), as CozoDB does.
   *
   * @throws DatalogException as {@link #rows} for such a rule
   */
  public static Rule headed(Rule rule, Map<String, ?> params) {
    if (rule.kind() != Rule.Kind.CONSTANT || !rule.head().isEmpty()) {
      return rule;
    }
    final List<String> named = rule.name().equals(Rule.ENTRY) ? paramRow(rule.constant()) : List.of();
    final List<Rule.HeadArg> head = new ArrayList<>();
    for (int i = 0; i < rows(rule, params).get(0).size(); i++) {
      final String name = named.isEmpty() ? "_" + i : named.get(i);
      head.add(new Rule.HeadArg(new Expr.Var(name, rule.pos()), null, List.of(), rule.pos()));
    }
    return new Rule(rule.name(), head, rule.kind(), rule.body(), rule.constant(), rule.pos());
  }

  /** The names of {@code [[$a, $b, ...]]}'s parameters; empty for any other expression. */
  private static List<String> paramRow(Expr data) {
    if (!(data instanceof Expr.ListExpr rows && rows.items().size() == 1
        && rows.items().get(0) instanceof Expr.ListExpr row)) {
      return List.of();
    }
    final List<String> names = new ArrayList<>();
    for (Expr item : row.items()) {
      if (!(item instanceof Expr.Param p)) {
        return List.of();
      }
      names.add(p.name());
    }
    return names;
  }

  private static DatalogException error(Rule rule, ErrorCode code, String message, String help) {
    return new DatalogException(code, message, rule.pos().line(), rule.pos().column(), help);
  }
}
