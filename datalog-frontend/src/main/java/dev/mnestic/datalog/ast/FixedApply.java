package dev.mnestic.datalog.ast;

import java.util.List;
import java.util.Map;

/**
 * The body of a fixed rule, {@code out[a, b] <~ Name(*stored[x, y], rule[z], option: expr)}:
 * the rule's name, its input relations in the order written and its named options (the last
 * of a name written twice wins, as in CozoDB).
 *
 * @param pos where the name is
 * @param argsPos where the argument list's {@code (} is (CozoDB places option errors there)
 */
public record FixedApply(String name, List<Input> inputs, Map<String, Expr> options, Pos pos,
    Pos argsPos) {
  public FixedApply {
    inputs = List.copyOf(inputs);
  }

  /**
   * An input relation: {@code rule[a, b]}, {@code *stored[a, b]} or {@code *stored{col, col2: v}},
   * a stored one with a moment {@code @ t} before its closing bracket if it is to time-travel.
   * Each binding is a variable; an {@code _} is a fresh variable of its own.
   *
   * @param bindings by position (null for the named form)
   * @param named by column name (null for the positional forms); each value a variable
   * @param validAt the moment a stored input is read at ({@code *stored[a, b @ 'NOW']}), or null
   */
  public record Input(String relation, boolean stored, List<Expr.Var> bindings,
      List<Atom.Binding> named, Expr validAt, Pos pos) {
  }
}
