package dev.mnestic.datalog.ast;

import java.util.List;

/**
 * A parsed script: query blocks (several {@code {...}} blocks run as one
 * transaction, the last one's result returned) or one system operation.
 * A script of {@code {...}} blocks and {@code %} statements is an imperative
 * {@code program} (null otherwise), its {@code queries} every query block in it
 * in the order they are written.
 */
public record Script(List<Query> queries, SysOp sysOp, List<Statement> program) {
  /**
   * A statement of an imperative script (CozoDB's {@code imperative_stmt}). A
   * list of them runs in order; the result of the last one that gives rows is
   * the list's.
   */
  public sealed interface Statement permits Block, SysBlock, If, Loop, Jump, Return, Debug, Swap {
  }

  /**
   * {@code {query}}, its result kept as the ephemeral relation {@code storeAs}
   * ({@code as _name}, null for none); with {@code ignoreError}
   * ({@code %ignore_error}) a failure undoes the block and gives {@code status FAILED}.
   */
  public record Block(Query query, String storeAs, boolean ignoreError, Pos pos)
      implements Statement {
  }

  /** {@code {::op}}, its result kept as {@code storeAs} (null for none). */
  public record SysBlock(SysOp op, String storeAs, Pos pos) implements Statement {
  }

  /** A relation's rows ({@code relation}) or a block's: what %if tests and %return gives. */
  public record Operand(Block block, String relation, Pos pos) {
  }

  /**
   * {@code %if cond %then ... %else ... %end} ({@code %if_not}: {@code negated}):
   * the condition holds when its rows are not empty.
   */
  public record If(Operand condition, boolean negated, List<Statement> then,
      List<Statement> otherwise, Pos pos) implements Statement {
  }

  /** {@code %mark label %loop ... %end} ({@code label} null without a mark). */
  public record Loop(String label, List<Statement> body, Pos pos) implements Statement {
  }

  /** {@code %break} or ({@code isBreak} false) {@code %continue}, of the loop {@code label} (null: the innermost). */
  public record Jump(boolean isBreak, String label, Pos pos) implements Statement {
  }

  /** {@code %return}: the script ends with the first operand's rows (none: no rows). */
  public record Return(List<Operand> operands, Pos pos) implements Statement {
  }

  /** {@code %debug relation}. */
  public record Debug(String relation, Pos pos) implements Statement {
  }

  /** {@code %swap _a _b}: the two ephemeral relations trade their rows. */
  public record Swap(String left, String right, Pos pos) implements Statement {
  }

  /** One query block: its rules and options. */
  public record Query(List<Rule> rules, Options options, Pos pos) {
  }

  /**
   * A block's options. Unset numbers are null. {@code maxEpochs}
   * ({@code :max_epochs}, mnestic's) bounds the rounds a recursion through a
   * bounded-meet aggregation may keep changing its result. {@code returning}
   * ({@code :returning}) makes a relation op answer with the rows it changed;
   * {@code sleep} ({@code :sleep}, null for none) is how many seconds the block sleeps after it ran.
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
   * {@code ::explain {...}}, {@code ::show_triggers rel},
   * {@code ::set_triggers rel on put {...} ...} (its triggers, in the order written),
   * {@code ::access_level read_only a, b} (its level as CozoDB spells it),
   * {@code ::indices rel}, {@code ::index create rel:idx {a, b}}
   * (its relations: the relation, the index's name, then its columns),
   * {@code ::index drop rel:idx} (the relation, then the index's name), {@code ::fixed_rules},
   * {@code ::running}, {@code ::kill id} (its {@code argument}, null for the others),
   * {@code ::compact}. A relation of {@code ::columns} may be an index, {@code rel:idx}.
   * {@code ::hnsw create rel:idx {dim: 128, ...}} (also {@code ::fts}, {@code ::lsh}) is a
   * {@link Kind#SEARCH_INDEX_CREATE} whose {@code level} is the kind ({@code hnsw}), its
   * relations the relation and the index's name, its {@code options} each option as written
   * and {@code optionTexts} each option's source text; {@code ::hnsw drop rel:idx} is an
   * {@link Kind#INDEX_DROP}, as in CozoDB (one drop for every kind of index).
   */
  public record SysOp(Kind kind, List<String> relations, Query explained, Pos pos,
      List<Trigger> triggers, String level, Expr argument, List<Atom.Binding> options,
      List<String> optionTexts) {
    /** The system operations mnestic runs. */
    public enum Kind {
      RELATIONS, COLUMNS, REMOVE, RENAME, EXPLAIN, SHOW_TRIGGERS, SET_TRIGGERS, ACCESS_LEVEL,
      INDICES, INDEX_CREATE, INDEX_DROP, SEARCH_INDEX_CREATE, FIXED_RULES, RUNNING, KILL,
      COMPACT
    }

    /** A system op without an argument, triggers or level. */
    public SysOp(Kind kind, List<String> relations, Query explained, Pos pos) {
      this(kind, relations, explained, pos, List.of(), null, null, List.of(), List.of());
    }

    /** A system op with triggers, a level or an argument, but no options. */
    public SysOp(Kind kind, List<String> relations, Query explained, Pos pos,
        List<Trigger> triggers, String level, Expr argument) {
      this(kind, relations, explained, pos, triggers, level, argument, List.of(), List.of());
    }
  }

  /**
   * A trigger of {@code ::set_triggers}: the write it follows ({@code put}, {@code rm},
   * {@code replace}) and its script's text as written between the braces.
   */
  public record Trigger(String on, String script) {
  }
}
