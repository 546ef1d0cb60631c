package dev.mnestic.datalog.fixed;

import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * CozoDB's {@code ReorderSort}: its input's rows, each turned into the values of option
 * {@code out} (a list of expressions over the input's bindings), sorted by {@code sort_by}
 * (default null; {@code descending}, default false; a stable sort, ties in the input's order),
 * ranked from 1 (rows of equal {@code sort_by} share a rank unless {@code break_ties}), the
 * rows past {@code skip} (default 0) up to {@code skip + take} (default 0: so none, as in
 * CozoDB 0.7.6) given as {@code [rank, out...]}.
 */
final class ReorderSort implements FixedRule {
  static final String NAME = "ReorderSort";

  @Override public int arity(Options options, List<String> head) {
    final OptionValues o = (OptionValues) options;
    if (!o.has("out")) {
      throw noArity("option 'out' not provided");
    }
    final List<Expr> out = items(o);
    if (out == null) {
      throw noArity("invalid option 'out' given, expect a list");
    }
    return out.size() + 1;
  }

  @Override public void run(Call call, Consumer<Object[]> emit) {
    final Input in = call.input(0);
    // A built-in of this package: its options are the front end's, whose expressions it reads.
    final OptionValues o = (OptionValues) call.options();
    final List<Expr> outItems = o.has("out") ? items(o) : null;
    if (outItems == null) {
      throw new ValueException(ErrorCode.FIXED_RULE_ARG_WRONG,
          "Wrong value for option 'out' of '" + call.name() + "'",
          "This option must evaluate to a list");
    }
    final boolean descending = o.bool("descending", false);
    final boolean breakTies = o.bool("break_ties", false);
    final long skip = o.nonNegativeInteger("skip", 0L);
    final long take = o.nonNegativeInteger("take", 0L);
    final List<String> names = in.bindings();
    final Function<Object[], Object> sortBy = o.has("sort_by")
        ? o.expression("sort_by").bind(names) : row -> null;
    final List<Function<Object[], Object>> outs = new ArrayList<>();
    for (Expr item : outItems) {
      outs.add(o.bind(item, names));
    }
    // each row: its out values, then its sort key
    final List<Object[]> buffer = new ArrayList<>();
    for (Object[] row : in.rows()) {
      final Object[] sorted = new Object[outs.size() + 1];
      sorted[outs.size()] = sortBy.apply(row);
      for (int i = 0; i < outs.size(); i++) {
        sorted[i] = outs.get(i).apply(row);
      }
      buffer.add(sorted);
      call.stop().check();
    }
    final int key = outs.size();
    Comparator<Object[]> order = (l, r) -> Values.compare(l[key], r[key]);
    buffer.sort(descending ? order.reversed() : order);
    long count = 0;
    long rank = 0;
    Object last = null;
    boolean first = true;
    final long takePlusSkip = take + skip < 0 ? Long.MAX_VALUE : take + skip;
    for (Object[] row : buffer) {
      count++;
      if (first || !Values.equal(row[key], last)) {
        rank = count;
        last = row[key];
        first = false;
      }
      if (count > takePlusSkip) {
        break;
      }
      if (count <= skip) {
        continue;
      }
      final Object[] out = new Object[outs.size() + 1];
      out[0] = breakTies ? count : rank;
      System.arraycopy(row, 0, out, 1, outs.size());
      emit.accept(out);
      call.stop().check();
    }
  }

  /** The expressions of option {@code out}: a list written out, or a constant list; else null. */
  private static List<Expr> items(OptionValues o) {
    final Expr out = o.option("out");
    if (out instanceof Expr.ListExpr l) {
      return l.items();
    }
    if (out instanceof Expr.Literal || out instanceof Expr.Param) {
      if (o.value("out") instanceof List<?> values) {
        final List<Expr> items = new ArrayList<>();
        for (Object v : values) {
          items.add(new Expr.Literal(v, out.pos()));
        }
        return items;
      }
    }
    return null;
  }

  private static ValueException noArity(String why) {
    return new ValueException(ErrorCode.PARSER_NO_ALGO_ARITY,
        "Cannot determine arity for algo " + NAME + " since " + why, null);
  }
}
