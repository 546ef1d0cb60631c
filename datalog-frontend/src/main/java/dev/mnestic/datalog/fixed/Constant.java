package dev.mnestic.datalog.fixed;

import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * CozoDB's {@code Constant}: the rows of its option {@code data}, a list of lists of one length;
 * what a constant rule {@code r[a] <- [[1]]} is. With no rows, its width is the head's.
 */
public final class Constant implements FixedRule {
  @Override public int arity(Options options, List<String> head) {
    final List<List<Object>> rows = rows(data(options));
    if (!rows.isEmpty()) {
      return rows.get(0).size();
    }
    if (head.isEmpty()) {
      throw new ValueException(ErrorCode.PARSER_EMPTY_CONST_RULE, "Constant rule does not have data",
          "If you insist on using this empty rule, explicitly give its head");
    }
    return head.size();
  }

  @Override public void run(Call call, Consumer<Object[]> out) {
    for (List<Object> row : rows(data(call.options()))) {
      out.accept(row.toArray());
    }
  }

  private static Object data(Options options) {
    if (!options.has("data")) {
      throw wrongData();
    }
    return options.value("data");
  }

  /**
   * The rows of {@code data}, which must be a list of lists of one length, as a set: without
   * duplicates, in {@link Values#ORDER} (as CozoDB keeps them).
   *
   * @throws ValueException {@code fixed_rule::arg_wrong} (not a list),
   *     {@code parser::bad_row_for_const} (a row is not a list),
   *     {@code parser::const_data_arity_mismatch} (rows of different lengths)
   */
  public static List<List<Object>> rows(Object data) {
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

  private static ValueException wrongData() {
    return new ValueException(ErrorCode.FIXED_RULE_ARG_WRONG,
        "Wrong value for option 'data' of 'Constant'", "a list of lists is required");
  }
}
