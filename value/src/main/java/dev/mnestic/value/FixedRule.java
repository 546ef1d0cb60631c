package dev.mnestic.value;

import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A fixed rule: CozoDB's {@code out[a, b] <~ Name(*edges[], nodes[n], option: expr, ...)}, an
 * algorithm over whole input relations and named options, whose rows feed rules like any
 * relation's. The built-in ones are CozoDB's (its graph algorithms, {@code Constant},
 * {@code ReorderSort}, {@code CsvReader}, {@code JsonReader}); a host program registers its own
 * on an engine. Values in and out are CozoDB's ({@link Values}).
 *
 * <p>A fixed rule fails by throwing a {@link ValueException} with CozoDB's code
 * ({@code fixed_rule::arg_wrong}, {@code algo::not_an_edge}, ...), message and help; the caller
 * adds the place (line:column) of the rule in the script.
 */
public interface FixedRule {
  /**
   * The width of the rows {@link #run} gives for these options, which must be exact; called
   * when the script is checked, before anything runs, and maybe more than once.
   *
   * @param head the variables of the rule's head, as written
   */
  int arity(Options options, List<String> head);

  /**
   * Computes the rule's rows, each of {@link #arity} values, handing each to {@code out} (which
   * may keep the array). Long work calls {@code call.stop().check()} every few thousand steps.
   */
  void run(Call call, Consumer<Object[]> out);

  /** One application of a fixed rule, as {@link #run} sees it. */
  interface Call {
    /** The rule's name as written ({@code ShortestPathDijkstra}). */
    String name();

    /** The input relations, in the order written. */
    List<Input> inputs();

    /**
     * The input at {@code index}; throws {@code fixed_rule::not_enough_args} ("Cannot find a
     * required positional argument at index {index} for '{name}'") when there is none.
     */
    Input input(int index);

    Options options();

    /** Stops the work when its statement was cancelled, timed out or ran out of memory. */
    StopCheck stop();
  }

  /** An input relation: a stored relation ({@code *rel[...]}) or a rule ({@code rule[...]}). */
  interface Input {
    /** The width of the relation's rows (may exceed {@link #bindings()}'s size). */
    int arity();

    /**
     * The variables the application binds, by position: {@code edges[a, b]} gives
     * {@code [a, b]}; fewer than {@link #arity()} where the rest are left out.
     */
    List<String> bindings();

    /** Every row of the relation (each of {@link #arity()} values), in CozoDB's order of tuples. */
    List<Object[]> rows();
  }

  /**
   * The named options of an application. Each typed accessor evaluates the option to a
   * constant and fails as CozoDB does: {@code fixed_rule::arg_not_found} ("Cannot find a
   * required named option '{name}' for '{rule}'") when it is missing and has no default
   * ({@code null} default), {@code fixed_rule::arg_wrong} ("Wrong value for option '{name}'
   * of '{rule}'", with the help CozoDB gives: "a string is required", "an integer is
   * required", "a positive integer is required", "a non-negative integer is required", "a
   * floating number is required", "a number between 0. and 1. is required", "a boolean value
   * is required") when it has the wrong type.
   */
  interface Options {
    /** The names given, in the order written. */
    Set<String> names();

    boolean has(String name);

    /** The option evaluated to a constant (variables are an error); fails if missing. */
    Object value(String name);

    String string(String name, String defaultValue);

    long integer(String name, Long defaultValue);

    /** An integer above 0. */
    long positiveInteger(String name, Long defaultValue);

    /** An integer of 0 or more. */
    long nonNegativeInteger(String name, Long defaultValue);

    double floating(String name, Double defaultValue);

    /** A number in [0, 1]. */
    double unitInterval(String name, Double defaultValue);

    boolean bool(String name, Boolean defaultValue);

    /**
     * The option as an expression over variables ({@code ShortestPathAStar}'s
     * {@code heuristic}, {@code ReorderSort}'s {@code out}); fails if missing.
     */
    Expression expression(String name);
  }

  /** An option's expression, evaluated per row once its variables are given positions. */
  interface Expression {
    /**
     * The expression as a function of a row in which variable {@code names.get(i)} is value
     * {@code i}; fails with {@code eval::bad_binding} if it uses a variable not named.
     */
    Function<Object[], Object> bind(List<String> names);
  }
}
