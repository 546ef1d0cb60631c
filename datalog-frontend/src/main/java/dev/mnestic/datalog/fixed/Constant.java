package dev.mnestic.datalog.fixed;

import dev.mnestic.datalog.eval.ConstantRules;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule;
import dev.mnestic.value.ValueException;

import java.util.List;
import java.util.function.Consumer;

/**
 * CozoDB's {@code Constant}: the rows of its option {@code data}, a list of lists of one length;
 * what a constant rule {@code r[a] <- [[1]]} is. With no rows, its width is the head's.
 */
final class Constant implements FixedRule {
  @Override public int arity(Options options, List<String> head) {
    final List<List<Object>> rows = ConstantRules.dataRows(data(options));
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
    for (List<Object> row : ConstantRules.dataRows(data(call.options()))) {
      out.accept(row.toArray());
    }
  }

  private static Object data(Options options) {
    if (!options.has("data")) {
      throw ConstantRules.wrongData();
    }
    return options.value("data");
  }
}
