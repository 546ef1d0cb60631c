package dev.mnestic.runtime;

import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule;
import dev.mnestic.value.StopCheck;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs a fixed rule ({@link FixedRule}, CozoDB's {@code out[...] <~ Name(...)}) over its input
 * relations' rows, the runtime of {@code rel.FixedRuleApply}: each input read whole and sorted
 * in CozoDB's order of tuples ({@link Values#ORDER}), the rule's rows collected as a relation
 * (distinct, in that order). The rule sees the statement's stop as a {@link StopCheck}, and so
 * does every row it gives.
 */
public final class FixedRuleRun {
  /** Rows a rule may give between two looks at the statement's stop. */
  private static final int CHECK_EVERY = 4096;

  private FixedRuleRun() {
  }

  /**
   * What the planner hands the runtime (stashed, never written as code): the rule, its options
   * evaluated by the front end, and what each input binds.
   *
   * @param name the rule's name as written
   * @param description the application as the plan shows it ({@code ReorderSort(out: [a])})
   * @param inputs per input relation, in the order written: its width and what it binds
   * @param arity the width of every row the rule gives
   */
  public record Spec(String name, String description, FixedRule rule, FixedRule.Options options,
      List<Shape> inputs, int arity) {
    public Spec {
      inputs = List.copyOf(inputs);
    }

    @Override public String toString() {
      return description;
    }
  }

  /** An input relation's width and the variables the application binds, by position. */
  public record Shape(int arity, List<String> bindings) {
    public Shape {
      bindings = List.copyOf(bindings);
    }
  }

  /** The rows of {@code spec}'s rule over {@code inputs} (their rows {@code Object[]}). */
  public static Enumerable<Object[]> run(DataContext root, Enumerable<?>[] inputs, Spec spec) {
    final AtomicBoolean flag = DataContext.Variable.CANCEL_FLAG.get(root);
    final StopCheck stop = () -> RunningStatement.check(flag);
    return new AbstractEnumerable<Object[]>() {
      @Override public Enumerator<Object[]> enumerator() {
        return Linq4j.enumerator(rows(inputs, spec, stop));
      }
    };
  }

  /** Runs the rule; its rows as a relation. */
  static List<Object[]> rows(Enumerable<?>[] inputs, Spec spec, StopCheck stop) {
    final List<FixedRule.Input> relations = new ArrayList<>();
    for (int i = 0; i < inputs.length; i++) {
      relations.add(input(inputs[i], spec.inputs().get(i), stop));
    }
    final TreeSet<List<Object>> out = new TreeSet<>(Values::compare);
    final int[] given = {0};
    spec.rule().run(new Call(spec, relations, stop), row -> {
      if (row.length != spec.arity()) {
        throw new ValueException(ErrorCode.PARSER_SIMPLE_FIXED_RULE_ARITY_MISMATCH,
            "arity mismatch: expect " + spec.arity() + ", got " + row.length, null);
      }
      out.add(Arrays.asList(row));
      if (++given[0] % CHECK_EVERY == 0) {
        stop.check();
      }
    });
    final List<Object[]> rows = new ArrayList<>(out.size());
    for (List<Object> row : out) {
      rows.add(row.toArray());
    }
    return rows;
  }

  private static FixedRule.Input input(Enumerable<?> rows, Shape shape, StopCheck stop) {
    final List<Object[]> sorted = new ArrayList<>();
    int n = 0;
    for (Object row : rows) {
      sorted.add((Object[]) row);
      if (++n % CHECK_EVERY == 0) {
        stop.check();
      }
    }
    sorted.sort((x, y) -> Values.compare(Arrays.asList(x), Arrays.asList(y)));
    return new Input(shape.arity(), shape.bindings(), List.copyOf(sorted));
  }

  /** An input relation: its rows, read whole. */
  private record Input(int arity, List<String> bindings, List<Object[]> rows)
      implements FixedRule.Input {
  }

  /** One application, as the rule sees it. */
  private record Call(Spec spec, List<FixedRule.Input> inputs, StopCheck stop)
      implements FixedRule.Call {
    @Override public String name() {
      return spec.name();
    }

    @Override public FixedRule.Input input(int index) {
      if (index >= inputs.size()) {
        throw new ValueException(ErrorCode.FIXED_RULE_NOT_ENOUGH_ARGS,
            "Cannot find a required positional argument at index " + index + " for '"
                + spec.name() + "'", null);
      }
      return inputs.get(index);
    }

    @Override public FixedRule.Options options() {
      return spec.options();
    }
  }
}
