package dev.mnestic.datalog.ast;

import java.util.List;

/**
 * A parsed script: query blocks (several {@code {...}} blocks run as one
 * transaction, the last one's result returned) or one system operation.
 */
public record Script(List<Query> queries, SysOp sysOp) {
  /** One query block: its rules and options. */
  public record Query(List<Rule> rules, Options options, Pos pos) {
  }

  /**
   * A block's options. Unset numbers are null. {@code maxEpochs}
   * ({@code :max_epochs}, mnestic's) bounds the rounds a recursion through a
   * bounded-meet aggregation may keep changing its result. {@code returning}
   * ({@code :returning}) makes a relation op answer with the rows it changed;
   * {@code sleep} ({@code :sleep}, null for none) is how long the block sleeps after it ran.
   */
  public record Options(List<Sort> order, Expr limit, Expr offset, Expr timeout,
      Expr maxEpochs, Assertion assertion, RelationOp relationOp, Expr disableMagicRewrite,
      boolean returning, Expr sleep) {
  }

  /** {@code :order -x} / {@code :order count(y)}. */
  public record Sort(String column, boolean descending, Pos pos) {
  }

  /** {@code :assert none} or {@code :assert some}. */
  public enum Assertion { NONE, SOME }

  /** {@code :create rel {k: Int => v: String default 'x'}} and the other writes. */
  public record RelationOp(Kind kind, String relation, Schema schema, Pos pos) {
    /** The writes CozoDB offers. */
    public enum Kind { CREATE, REPLACE, PUT, RM, INSERT, UPDATE, DELETE, ENSURE, ENSURE_NOT }
  }

  /** Key columns, then value columns. */
  public record Schema(List<Column> keys, List<Column> values) {
  }

  /**
   * A column of a schema: its name, type (null: {@code Any?}), default (its
   * expression and source text), and the head variable it takes (null: the
   * one of its name).
   */
  public record Column(String name, ColumnType type, Expr defaultValue, String defaultSource,
      String from, Pos pos) {
  }

  /**
   * A column type: a base name ({@code Int}, {@code String}, ...), or
   * {@code List} of one element type (with a length, or null) or
   * {@code Tuple} of element types.
   */
  public record ColumnType(String base, List<ColumnType> elements, Expr length, boolean nullable,
      Pos pos) {
  }

  /**
   * {@code ::relations}, {@code ::columns rel}, {@code ::remove a, b},
   * {@code ::rename a -> b, c -> d} (its relations: each old name, then its new one),
   * {@code ::explain {...}}.
   */
  public record SysOp(Kind kind, List<String> relations, Query explained, Pos pos) {
    /** The system operations mnestic runs. */
    public enum Kind { RELATIONS, COLUMNS, REMOVE, RENAME, EXPLAIN }
  }
}
