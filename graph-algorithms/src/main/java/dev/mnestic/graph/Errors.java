package dev.mnestic.graph;

import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule.Input;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;

/** The errors of the graph algorithms, worded as CozoDB 0.7.6 words them. */
final class Errors {
  private Errors() {}

  static ValueException notAnEdge() {
    return new ValueException(ErrorCode.ALGO_NOT_AN_EDGE,
        "The relation cannot be interpreted as an edge",
        "Edge relation requires tuples of length at least two");
  }

  static ValueException invalidEdgeWeight(Object weight) {
    return new ValueException(ErrorCode.ALGO_INVALID_EDGE_WEIGHT,
        "The value " + Values.display(weight)
            + " at the third position in the relation cannot be interpreted as edge weights",
        "Edge weights must be finite numbers. Some algorithm also requires positivity.");
  }

  static ValueException nodeNotFound(Object key) {
    return new ValueException(ErrorCode.ALGO_NODE_WITH_KEY_NOT_FOUND,
        "Required node with key " + Values.display(key) + " not found",
        "The relation is interpreted as a relation of nodes, but the required key is missing");
  }

  static ValueException unacceptableValue(Object value, String help) {
    return new ValueException(ErrorCode.ALGO_UNACCEPTABLE_VALUE,
        "Unacceptable value " + Values.display(value) + " encountered", help);
  }

  /** {@code input}, failing unless its rows have at least {@code arity} values. */
  static Input atLeast(Input input, int arity) {
    if (input.arity() < arity) {
      throw new ValueException(ErrorCode.ALGO_INPUT_RELATION_BAD_ARITY,
          "Input relation to algorithm has insufficient arity",
          "Arity should be at least " + arity + " but is " + input.arity());
    }
    return input;
  }
}
