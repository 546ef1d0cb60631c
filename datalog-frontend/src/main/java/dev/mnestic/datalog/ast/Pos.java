package dev.mnestic.datalog.ast;

/** Where a piece of a script starts: 1-based line and column. */
public record Pos(int line, int column) {
  @Override public String toString() {
    return line + ":" + column;
  }
}
