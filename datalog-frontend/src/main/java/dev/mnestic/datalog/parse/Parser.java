package dev.mnestic.datalog.parse;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.ast.Atom;
import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.FixedApply;
import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.ast.Script;
import dev.mnestic.value.ErrorCode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Parses CozoScript (CozoDB's grammar, {@code cozoscript.pest}) into
 * {@link Script}s. Errors are {@link DatalogException}s with code
 * {@code parser::pest} naming the line and column and what was expected.
 *
 * <p>Operator precedence, loosest first, all left-associative but
 * {@code ^}: {@code ||}; {@code &&}; {@code > < >= <=}; {@code == !=};
 * {@code %}; {@code + - ++}; {@code * /}; {@code ^}; {@code ~}; prefix
 * {@code -} and {@code !}; {@code ->}.
 */
public final class Parser {
  /** Binary operators by precedence level (loosest first) and the functions they stand for. */
  private static final List<Map<String, String>> LEVELS = List.of(
      Map.of("||", "or"),
      Map.of("&&", "and"),
      Map.of(">", "gt", "<", "lt", ">=", "ge", "<=", "le"),
      Map.of("==", "eq", "!=", "neq"),
      Map.of("%", "mod"),
      Map.of("+", "add", "-", "sub", "++", "concat"),
      Map.of("*", "mul", "/", "div"),
      Map.of("^", "pow"),
      Map.of("~", "coalesce"));
  private static final int POW_LEVEL = 7;
  /** Functions of operators whose chains are one call of every operand: they associate. */
  private static final Set<String> ASSOCIATIVE = Set.of("or", "and", "add", "mul", "concat");
  /**
   * How deep a script may nest ({@code parser::too_deep}): each expression (in parentheses,
   * brackets, a call's arguments), prefix operator, {@code ->}, link of a chain of a
   * non-associative operator ({@code a - b - c} is two), atom ({@code not}, a grouped body)
   * and column type is a level.
   */
  public static final int MAX_NESTING = 3_000;
  /**
   * Sizes past which a script is refused ({@code parser::too_large}) before anything runs:
   * each query is planned and compiled as Calcite plans whose cost grows faster than their
   * size (docs/reliability.md, section 5, has the times at these limits). Atoms of one rule
   * body, counted inside groups, disjunctions and negations:
   */
  public static final int MAX_BODY_ATOMS = 500;
  /** Relations (rule and stored relation applications) of one rule body, each a join. */
  public static final int MAX_BODY_RELATIONS = 50;
  /** Rules of one query, a body with disjunctions counting a rule per conjunction it expands to. */
  public static final int MAX_RULES = 200;
  /** Query blocks ({@code {...}}) of one script. */
  public static final int MAX_BLOCKS = 100;

  private final String source;
  private final List<Token> tokens;
  private int at;
  /** Levels of nesting open at {@link #at} ({@link #enter}). */
  private int depth;
  /** How many {@code _} the script's unifications have bound ({@link #bindingVar}). */
  private int ignored;
  /** The query blocks of an imperative script read so far, in order. */
  private final List<Script.Query> blocks = new ArrayList<>();

  private Parser(String source) {
    this.source = source;
    this.tokens = Lexer.tokenize(source);
  }

  /** Parses a whole script. */
  public static Script parse(String source) {
    return new Parser(source).script();
  }

  /** Parses one column of a relation schema, such as {@code v: [Int; 3]? default [1, 2, 3]}. */
  public static Script.Column parseColumn(String declaration) {
    final Parser p = new Parser(declaration);
    final List<Script.Column> columns = p.columns();
    if (columns.size() != 1) {
      throw p.unexpected("a column");
    }
    p.expectEnd();
    return columns.get(0);
  }

  /** Parses one expression, such as a search index's {@code filter} option kept as text. */
  public static Expr parseExpression(String source) {
    final Parser p = new Parser(source);
    final Expr e = p.expr();
    p.expectEnd();
    return e;
  }

  /** The names of the script's {@code $params}, each once, in the order they first appear. */
  public static List<String> parameters(String source) {
    final Set<String> names = new LinkedHashSet<>();
    for (Token t : Lexer.tokenize(source)) {
      if (t.kind() == Token.Kind.PARAM) {
        names.add(t.text());
      }
    }
    return List.copyOf(names);
  }

  // script := '::' sysop | statement+ | block
  // statement := '{' block '}' ('as' _name)? | '{' '::' sysop '}' ('as' _name)? | '%' ...

  private Script script() {
    if (peek().is("::")) {
      final Script.SysOp op = sysOp();
      expectEnd();
      return new Script(List.of(), op, null);
    }
    if (peek().is("{") || percent() != null) {
      final List<Script.Statement> program = statements();
      expectEnd();
      return new Script(List.copyOf(blocks), null, program);
    }
    final List<Script.Query> queries = List.of(query(null));
    expectEnd();
    return new Script(queries, null, null);
  }

  /** The word of a {@code %word} at the cursor ({@code %} right before it), or null. */
  private String percent() {
    final Token t = peek();
    if (!t.is("%") || at + 1 >= tokens.size()) {
      return null;
    }
    final Token word = tokens.get(at + 1);
    return word.kind() == Token.Kind.IDENT && word.start() == t.end() ? word.text() : null;
  }

  /** Consumes {@code %word}. */
  private Token expectPercent(String word) {
    if (!word.equals(percent())) {
      throw unexpected("'%" + word + "'");
    }
    final Token t = next();
    next();
    return t;
  }

  /** Statements up to a {@code %then}, {@code %else}, {@code %end} or the end of the script. */
  private List<Script.Statement> statements() {
    final List<Script.Statement> statements = new ArrayList<>();
    while (true) {
      final String word = percent();
      if (peek().is("{")) {
        statements.add(braced());
      } else if (word == null || word.equals("then") || word.equals("else")
          || word.equals("end")) {
        return statements;
      } else {
        statements.add(percentStatement(word));
      }
    }
  }

  /** One statement or more, as a %if's branches and a %loop's body hold. */
  private List<Script.Statement> someStatements() {
    final List<Script.Statement> statements = statements();
    if (statements.isEmpty()) {
      throw unexpected("a statement ('{' or a '%' statement)");
    }
    return statements;
  }

  /** {@code {query}} or {@code {::op}}, then {@code as _name} or not. */
  private Script.Statement braced() {
    final Token open = expect("{");
    if (peek().is("::")) {
      final Script.SysOp op = sysOp();
      expect("}");
      return new Script.SysBlock(op, storeAs(), open.pos());
    }
    return clause(open, false);
  }

  /** The rest of {@code {query}} after its {@code {}, then {@code as _name} or not. */
  private Script.Block clause(Token open, boolean ignoreError) {
    if (blocks.size() == MAX_BLOCKS) {
      throw tooLarge(open.pos(), "the script chains more than " + MAX_BLOCKS
          + " query blocks here", "run the blocks as several scripts");
    }
    final Script.Query query = query("}");
    blocks.add(query);
    expect("}");
    return new Script.Block(query, storeAs(), ignoreError, open.pos());
  }

  /** {@code as _name} (an ephemeral relation's name), or null. */
  private String storeAs() {
    if (!peek().is("as") || peek().kind() != Token.Kind.IDENT) {
      return null;
    }
    next();
    final Token name = expectIdent("an ephemeral relation's name (_name) after 'as'");
    if (!name.text().startsWith("_") || name.text().length() < 2) {
      throw new DatalogException(ErrorCode.PARSER_PEST, "expected an ephemeral relation's name"
          + " (_name) after 'as', found '" + name.text() + "'", name.pos().line(),
          name.pos().column());
    }
    return name.text();
  }

  /** A relation's name or a {@code {query}}: a %if's condition, an operand of %return. */
  private Script.Operand operand() {
    final Token t = peek();
    if (t.is("{")) {
      next();
      return new Script.Operand(clause(t, false), null, t.pos());
    }
    return new Script.Operand(null, expectIdent("a relation's name or a {query}").text(), t.pos());
  }

  private Script.Statement percentStatement(String word) {
    final Token start = peek();
    switch (word) {
    case "if":
    case "if_not": {
      expectPercent(word);
      final Script.Operand condition = operand();
      if ("then".equals(percent())) {
        expectPercent("then");
      }
      final List<Script.Statement> then = someStatements();
      List<Script.Statement> otherwise = List.of();
      if ("else".equals(percent())) {
        expectPercent("else");
        otherwise = someStatements();
      }
      expectPercent("end");
      return new Script.If(condition, word.equals("if_not"), then, otherwise, start.pos());
    }
    case "mark":
    case "loop": {
      String label = null;
      if (word.equals("mark")) {
        expectPercent("mark");
        label = expectIdent("the loop's mark").text();
      }
      expectPercent("loop");
      final List<Script.Statement> body = someStatements();
      expectPercent("end");
      return new Script.Loop(label, body, start.pos());
    }
    case "break":
    case "continue": {
      expectPercent(word);
      final String label = peek().kind() == Token.Kind.IDENT ? next().text() : null;
      return new Script.Jump(word.equals("break"), label, start.pos());
    }
    case "return": {
      expectPercent(word);
      final List<Script.Operand> operands = new ArrayList<>();
      if (peek().is("{") || peek().kind() == Token.Kind.IDENT) {
        do {
          operands.add(operand());
        } while (accept(","));
      }
      return new Script.Return(operands, start.pos());
    }
    case "debug":
      expectPercent(word);
      return new Script.Debug(expectIdent("a relation's name").text(), start.pos());
    case "ignore_error":
      expectPercent(word);
      return clause(expect("{"), true);
    case "swap": {
      expectPercent(word);
      final String left = expectIdent("an ephemeral relation's name").text();
      return new Script.Swap(left, expectIdent("an ephemeral relation's name").text(),
          start.pos());
    }
    default:
      throw new DatalogException(ErrorCode.PARSER_PEST, "unknown statement '%" + word
          + "'; expected %if, %if_not, %loop, %mark, %break, %continue, %return, %debug,"
          + " %ignore_error or %swap", start.pos().line(), start.pos().column());
    }
  }

  private void expectEnd() {
    if (peek().kind() != Token.Kind.EOF) {
      throw unexpected("end of script");
    }
  }

  private Script.SysOp sysOp() {
    final Pos pos = expect("::").pos();
    final Token op = expectIdent("a system operation (relations, columns, remove, rename,"
        + " explain, show_triggers, set_triggers, access_level, index, indices, fixed_rules,"
        + " running, kill, compact)");
    switch (op.text()) {
    case "relations":
      return new Script.SysOp(Script.SysOp.Kind.RELATIONS, List.of(), null, pos);
    case "columns":
      return new Script.SysOp(Script.SysOp.Kind.COLUMNS, List.of(relationOrIndex()), null, pos);
    case "indices":
      return new Script.SysOp(Script.SysOp.Kind.INDICES, List.of(relationOrIndex()), null, pos);
    case "index":
      return index(pos);
    case "hnsw":
    case "fts":
    case "lsh":
      return searchIndex(op.text(), pos);
    case "remove":
      final List<String> names = new ArrayList<>();
      do {
        names.add(expectIdent("a relation name").text());
      } while (accept(","));
      return new Script.SysOp(Script.SysOp.Kind.REMOVE, names, null, pos);
    case "rename":
      final List<String> pairs = new ArrayList<>();
      do {
        pairs.add(storedName("renamed"));
        expect("->");
        pairs.add(storedName("renamed"));
      } while (accept(","));
      return new Script.SysOp(Script.SysOp.Kind.RENAME, pairs, null, pos);
    case "fixed_rules":
      return new Script.SysOp(Script.SysOp.Kind.FIXED_RULES, List.of(), null, pos);
    case "explain":
      expect("{");
      final Script.Query q = query("}");
      expect("}");
      return new Script.SysOp(Script.SysOp.Kind.EXPLAIN, List.of(), q, pos);
    case "show_triggers":
      return new Script.SysOp(Script.SysOp.Kind.SHOW_TRIGGERS,
          List.of(storedName("shown triggers")), null, pos);
    case "set_triggers":
      return setTriggers(pos);
    case "access_level":
      return accessLevel(pos);
    case "running":
      return new Script.SysOp(Script.SysOp.Kind.RUNNING, List.of(), null, pos);
    case "kill":
      return new Script.SysOp(Script.SysOp.Kind.KILL, List.of(), null, pos, List.of(), null,
          expr());
    case "compact":
      return new Script.SysOp(Script.SysOp.Kind.COMPACT, List.of(), null, pos);
    default:
      throw new DatalogException(ErrorCode.PARSER_PEST, "unsupported system operation '::"
          + op.text() + "'; expected relations, columns, remove, rename, explain,"
          + " show_triggers, set_triggers, access_level, index, indices, fixed_rules, running,"
          + " kill or compact", op.pos().line(), op.pos().column());
    }
  }

  // set_triggers := 'set_triggers' name ('on' ('put' | 'rm' | 'replace') '{' block '}')*

  private Script.SysOp setTriggers(Pos pos) {
    final String relation = storedName("given triggers");
    final List<Script.Trigger> triggers = new ArrayList<>();
    while (accept("on")) {
      final Token on = expectIdent("put, rm or replace");
      if (!Set.of("put", "rm", "replace").contains(on.text())) {
        throw new DatalogException(ErrorCode.PARSER_PEST, "unexpected '" + on.text()
            + "'; expected put, rm or replace", on.pos().line(), on.pos().column());
      }
      expect("{");
      // as CozoDB keeps it: the text from the block's first token up to the closing brace
      final int from = peek().start();
      query("}");
      triggers.add(new Script.Trigger(on.text(), source.substring(from, expect("}").start())));
    }
    return new Script.SysOp(Script.SysOp.Kind.SET_TRIGGERS, List.of(relation), null, pos,
        triggers, null, null);
  }

  // access_level := 'access_level' ('normal' | 'protected' | 'read_only' | 'hidden') name (',' name)*

  private Script.SysOp accessLevel(Pos pos) {
    final Token level = expectIdent("normal, protected, read_only or hidden");
    if (!Set.of("normal", "protected", "read_only", "hidden").contains(level.text())) {
      throw new DatalogException(ErrorCode.PARSER_PEST, "unexpected '" + level.text()
          + "'; expected normal, protected, read_only or hidden", level.pos().line(),
          level.pos().column());
    }
    final List<String> names = new ArrayList<>();
    do {
      names.add(storedName("given an access level"));
    } while (accept(","));
    return new Script.SysOp(Script.SysOp.Kind.ACCESS_LEVEL, names, null, pos, List.of(),
        level.text(), null);
  }

  /**
   * {@code create rel:idx {a, b}} or {@code drop rel:idx}, after {@code ::index}: the relation,
   * the index's name and (create) its columns, at least one
   * ({@code parser::empty_index} otherwise).
   */
  private Script.SysOp index(Pos pos) {
    final Token verb = expectIdent("create or drop");
    if (!verb.is("create") && !verb.is("drop")) {
      throw new DatalogException(ErrorCode.PARSER_PEST, "expected create or drop after ::index,"
          + " found " + verb.describe(), verb.pos().line(), verb.pos().column());
    }
    final Token relation = expectIdent("a relation name");
    final List<String> names = new ArrayList<>(List.of(relation.text()));
    final Token colon = expect(":");
    final Token name = expectIdent("an index name");
    if (colon.start() != relation.end() || name.start() != colon.end()) {
      throw new DatalogException(ErrorCode.PARSER_PEST, "expected rel:index without spaces",
          colon.pos().line(), colon.pos().column());
    }
    names.add(name.text());
    if (verb.is("drop")) {
      return new Script.SysOp(Script.SysOp.Kind.INDEX_DROP, names, null, pos);
    }
    expect("{");
    while (!peek().is("}")) {
      names.add(expectIdent("a column name").text());
      if (!accept(",")) {
        break;
      }
    }
    expect("}");
    if (names.size() == 2) {
      throw new DatalogException(ErrorCode.PARSER_EMPTY_INDEX,
          "index must have at least one column specified", verb.pos().line(),
          verb.pos().column());
    }
    return new Script.SysOp(Script.SysOp.Kind.INDEX_CREATE, names, null, pos);
  }

  /**
   * {@code create rel:idx {name: expr, ...}} or {@code drop rel:idx}, after {@code ::hnsw},
   * {@code ::fts} or {@code ::lsh}: CozoDB's {@code index_create_adv} and {@code index_drop}.
   * The options are checked when the op runs, by the index's kind.
   */
  private Script.SysOp searchIndex(String kind, Pos pos) {
    final Token verb = expectIdent("create or drop");
    if (!verb.is("create") && !verb.is("drop")) {
      throw new DatalogException(ErrorCode.PARSER_PEST, "expected create or drop after ::"
          + kind + ", found " + verb.describe(), verb.pos().line(), verb.pos().column());
    }
    final Token relation = expectIdent("a relation name");
    final Token colon = expect(":");
    final Token name = expectIdent("an index name");
    if (colon.start() != relation.end() || name.start() != colon.end()) {
      throw new DatalogException(ErrorCode.PARSER_PEST, "expected rel:index without spaces",
          colon.pos().line(), colon.pos().column());
    }
    final List<String> names = List.of(relation.text(), name.text());
    if (verb.is("drop")) {
      return new Script.SysOp(Script.SysOp.Kind.INDEX_DROP, names, null, pos);
    }
    expect("{");
    final List<Atom.Binding> options = new ArrayList<>();
    final List<String> texts = new ArrayList<>();
    while (!peek().is("}")) {
      final Token option = expectIdent("an option name");
      expect(":");
      final int from = peek().start();
      final Expr value = expr();
      options.add(new Atom.Binding(option.text(), value, option.pos()));
      texts.add(source.substring(from, tokens.get(at - 1).end()));
      if (!accept(",")) {
        break;
      }
    }
    expect("}");
    return new Script.SysOp(Script.SysOp.Kind.SEARCH_INDEX_CREATE, names, null, pos, List.of(),
        kind, null, options, texts);
  }

  /**
   * A relation's name, or an index's ({@code rel:idx}, or a part of one such as MinHash-LSH's
   * {@code rel:idx:inv}; without spaces).
   */
  private String relationOrIndex() {
    Token name = expectIdent("a relation name");
    while (joinsName(name)) {
      name = indexName(name);
    }
    return name.text();
  }

  /** Whether {@code :name} follows {@code name} without spaces, naming an index of it. */
  private boolean joinsName(Token name) {
    return peek().is(":") && peek().start() == name.end()
        && peek(1).kind() == Token.Kind.IDENT && peek(1).start() == peek().end();
  }

  /** The name of a stored relation (never an ephemeral {@code _name}: CozoDB's grammar refuses it). */
  private String storedName(String what) {
    final Token name = expectIdent("a relation name");
    if (name.text().startsWith("_")) {
      throw new DatalogException(ErrorCode.PARSER_PEST, "an ephemeral relation ('" + name.text()
          + "') cannot be " + what + "; expected a stored relation's name", name.pos().line(),
          name.pos().column());
    }
    return name.text();
  }

  /** A query block: rules and options, up to {@code closer} (or the end). */
  private Script.Query query(String closer) {
    final Pos pos = peek().pos();
    final List<Rule> rules = new ArrayList<>();
    final OptionsBuilder options = new OptionsBuilder();
    long expanded = 0;
    while (peek().kind() != Token.Kind.EOF && !(closer != null && peek().is(closer))) {
      if (peek().is(":")) {
        option(options);
      } else {
        final Rule rule = rule();
        expanded += checkBody(rule);
        if (expanded > MAX_RULES) {
          throw tooLarge(rule.pos(), "the query holds more than " + MAX_RULES + " rules here",
              "a body counts one rule per conjunction its disjunctions expand to; split the"
                  + " query into blocks that store their results");
        }
        rules.add(rule);
      }
      accept(";");
    }
    if (rules.isEmpty() && options.relationOp == null) {
      throw unexpected("a rule");
    }
    return new Script.Query(rules, options.build(), pos);
  }

  // rule := head (':=' body | '<-' expr | '<~' ...)

  private Rule rule() {
    final Token name = peek();
    final String ruleName;
    if (name.is("?")) {
      next();
      ruleName = Rule.ENTRY;
    } else if (name.kind() == Token.Kind.IDENT) {
      next();
      ruleName = name.text();
    } else {
      throw unexpected("a rule head such as ?[a, b] or name[a, b], or an option such as :limit");
    }
    expect("[");
    final List<Rule.HeadArg> head = new ArrayList<>();
    while (!peek().is("]")) {
      head.add(headArg());
      if (!accept(",")) {
        break;
      }
    }
    expect("]");
    final Token def = peek();
    if (accept(":=")) {
      if (head.isEmpty()) {
        throw new DatalogException(ErrorCode.PARSER_EMPTY_HORN_RULE_HEAD,
            "Horn-clause rule cannot have empty rule head", name.pos().line(),
            name.pos().column());
      }
      return new Rule(ruleName, head, Rule.Kind.INLINE, body(), null, name.pos());
    }
    if (accept("<-")) {
      return new Rule(ruleName, head, Rule.Kind.CONSTANT, List.of(), expr(), name.pos());
    }
    if (accept("<~")) {
      for (Rule.HeadArg h : head) {
        if (h.isAggregated()) {
          throw new DatalogException(ErrorCode.PARSER_FIXED_AGGR_CONFLICT,
              "fixed rule cannot be combined with aggregation", h.pos().line(), h.pos().column());
        }
      }
      return new Rule(ruleName, head, Rule.Kind.FIXED, List.of(), null, name.pos(), fixedApply());
    }
    throw unexpected("':=', '<-' or '<~' after the rule head");
  }

  // fixed := Name '(' (input | option) (',' (input | option))* ','? ')'
  // input := name '[' vars ']' | '*' name '[' vars ']' | '*' name '{' col (':' var)? ... '}'

  private FixedApply fixedApply() {
    final Token name = expectIdent("the name of a fixed rule");
    final Pos args = expect("(").pos();
    final List<FixedApply.Input> inputs = new ArrayList<>();
    final Map<String, Expr> options = new LinkedHashMap<>();
    final Set<String> bound = new HashSet<>();
    int fresh = 0;
    while (!peek().is(")")) {
      final Token t = peek();
      if (t.is("*") && peek(1).kind() == Token.Kind.IDENT && peek(1).start() == t.end()) {
        next();
        final String relation = next().text();
        if (accept("{")) {
          final List<Atom.Binding> named = new ArrayList<>();
          while (!peek().is("}")) {
            final Token col = expectIdent("a column name");
            final Token v = accept(":") ? expectIdent("a variable") : col;
            fixedBinding(v, bound);
            named.add(new Atom.Binding(col.text(), new Expr.Var(v.text(), v.pos()), col.pos()));
            if (!accept(",")) {
              break;
            }
          }
          final Expr validAt = validityClause();
          expect("}");
          inputs.add(new FixedApply.Input(relation, true, null, named, validAt, t.pos()));
        } else {
          fresh = fixedBindings(relation, true, t.pos(), inputs, bound, fresh);
        }
      } else if (t.kind() == Token.Kind.IDENT && peek(1).is("[")) {
        next();
        fresh = fixedBindings(t.text(), false, t.pos(), inputs, bound, fresh);
      } else if (t.kind() == Token.Kind.IDENT && peek(1).is(":")) {
        next();
        next();
        options.put(t.text(), expr());
      } else {
        throw unexpected("an input relation (rule[...], *stored[...] or *stored{...}) or an"
            + " option (name: value) of the fixed rule");
      }
      if (!accept(",")) {
        break;
      }
    }
    expect(")");
    return new FixedApply(name.text(), inputs, options, name.pos(), args);
  }

  /** {@code [v, ...]} of an input relation; returns the count of fresh variables made. */
  private int fixedBindings(String relation, boolean stored, Pos pos,
      List<FixedApply.Input> inputs, Set<String> bound, int fresh) {
    expect("[");
    final List<Expr.Var> vars = new ArrayList<>();
    int made = fresh;
    while (!peek().is("]")) {
      final Token v = expectIdent("a variable");
      if (v.is("_")) {
        vars.add(new Expr.Var("*_*" + made++, v.pos()));
      } else {
        fixedBinding(v, bound);
        vars.add(new Expr.Var(v.text(), v.pos()));
      }
      if (!accept(",")) {
        break;
      }
    }
    // as CozoDB's grammar: only a stored relation is read at a moment
    final Expr validAt = stored ? validityClause() : null;
    expect("]");
    inputs.add(new FixedApply.Input(relation, stored, vars, null, validAt, pos));
    return made;
  }

  /** A variable an input binds: once per fixed rule ({@code parser::duplicate_bindings_for_fixed_rule}). */
  private static void fixedBinding(Token v, Set<String> bound) {
    if (!bound.add(v.text())) {
      throw new DatalogException(ErrorCode.PARSER_DUPLICATE_BINDINGS_FOR_FIXED_RULE,
          "fixed rule cannot have duplicate bindings", v.pos().line(), v.pos().column());
    }
  }

  /**
   * Checks a rule's body against {@link #MAX_BODY_ATOMS} and {@link #MAX_BODY_RELATIONS};
   * returns how many conjunctions it expands to (1 with no disjunction), refusing it at the
   * atom where that passes {@link #MAX_RULES}.
   */
  private static long checkBody(Rule rule) {
    final long conjunctions = conjunctions(rule.body(), 1);
    final int[] counts = new int[2];
    for (Atom a : rule.body()) {
      count(a, counts);
    }
    return conjunctions;
  }

  /** Counts {@code a}'s atoms into {@code counts[0]} and its relations into {@code counts[1]}. */
  private static void count(Atom a, int[] counts) {
    if (a instanceof Atom.Conjunction c) {
      c.atoms().forEach(inner -> count(inner, counts));
      return;
    }
    if (a instanceof Atom.Disjunction d) {
      d.disjuncts().forEach(disjunct -> disjunct.forEach(inner -> count(inner, counts)));
      return;
    }
    if (++counts[0] > MAX_BODY_ATOMS) {
      throw tooLarge(a.pos(), "the rule body holds more than " + MAX_BODY_ATOMS + " atoms here",
          "split the rule into rules of a few hundred atoms each");
    }
    final Atom relation = a instanceof Atom.Negation n ? n.atom() : a;
    if ((relation instanceof Atom.RuleApply || relation instanceof Atom.StoredApply)
        && ++counts[1] > MAX_BODY_RELATIONS) {
      throw tooLarge(a.pos(), "the rule body joins more than " + MAX_BODY_RELATIONS
          + " relations here", "split the rule into rules joining fewer relations each");
    }
  }

  /**
   * How many conjunctions {@code atoms} expand to, {@code factor} times; refused at the
   * disjunct where {@code factor} times that passes {@link #MAX_RULES}.
   */
  private static long conjunctions(List<Atom> atoms, long factor) {
    long product = factor;
    for (Atom a : atoms) {
      if (a instanceof Atom.Conjunction c) {
        product = conjunctions(c.atoms(), product);
      } else if (a instanceof Atom.Disjunction d) {
        long sum = 0;
        for (List<Atom> disjunct : d.disjuncts()) {
          // each disjunct alone first: the product with what came before can only grow
          sum += conjunctions(disjunct, product) / product;
          if (sum * product > MAX_RULES) {
            throw tooLarge(disjunct.get(0).pos(), "the rule body expands to more than "
                + MAX_RULES + " conjunctions (one rule each) through its disjunctions here",
                "split the rule into rules of fewer alternatives each");
          }
        }
        product *= sum;
      }
    }
    return product;
  }

  private static DatalogException tooLarge(Pos pos, String message, String help) {
    return new DatalogException(ErrorCode.PARSER_TOO_LARGE, message, pos.line(), pos.column(), help);
  }

  private Rule.HeadArg headArg() {
    final Token t = expectIdent("a variable or an aggregation in the rule head");
    if (accept("(")) {
      final Token v = expectIdent("the aggregated variable");
      final List<Expr> args = new ArrayList<>();
      while (accept(",")) {
        args.add(expr());
      }
      expect(")");
      return new Rule.HeadArg(new Expr.Var(v.text(), v.pos()), t.text(), args, t.pos());
    }
    return new Rule.HeadArg(new Expr.Var(t.text(), t.pos()), null, List.of(), t.pos());
  }

  // body := disjunction (',' disjunction)* ','?

  private List<Atom> body() {
    final List<Atom> atoms = new ArrayList<>();
    atoms.add(disjunction());
    while (accept(",")) {
      if (endsBody()) {
        break;
      }
      atoms.add(disjunction());
    }
    return atoms;
  }

  private boolean endsBody() {
    final Token t = peek();
    return t.kind() == Token.Kind.EOF || t.is(";") || t.is(")") || t.is("}")
        || t.is(":") || startsRule();
  }

  /** Whether the tokens ahead begin a new rule: {@code name[...] :=} or {@code ?[}. */
  private boolean startsRule() {
    if (peek().is("?")) {
      return true;
    }
    if (peek().kind() != Token.Kind.IDENT || !peek(1).is("[")) {
      return false;
    }
    int depth = 0;
    for (int k = at + 1; k < tokens.size(); k++) {
      final Token t = tokens.get(k);
      if (t.is("[")) {
        depth++;
      } else if (t.is("]")) {
        depth--;
        if (depth == 0) {
          final Token after = tokens.get(k + 1);
          return after.is(":=") || after.is("<-") || after.is("<~");
        }
      } else if (t.kind() == Token.Kind.EOF) {
        return false;
      }
    }
    return false;
  }

  private Atom disjunction() {
    final Pos pos = peek().pos();
    final Atom first = atom();
    if (!peek().is("or")) {
      return first;
    }
    final List<List<Atom>> disjuncts = new ArrayList<>();
    disjuncts.add(conjuncts(first));
    while (accept("or")) {
      disjuncts.add(conjuncts(atom()));
    }
    return new Atom.Disjunction(disjuncts, pos);
  }

  private static List<Atom> conjuncts(Atom a) {
    return a instanceof Atom.Conjunction ? ((Atom.Conjunction) a).atoms() : List.of(a);
  }

  /**
   * The variable {@code v = ...} or {@code v in ...} binds: {@code _} is a fresh variable each
   * time, named {@code *^*n} as CozoDB names it (no variable of a script can be so named), so
   * that {@code _ = 1, _ = 2} binds two variables and tests nothing.
   */
  private Expr.Var bindingVar(Token t) {
    return new Expr.Var(t.text().equals("_") ? "*^*" + ignored++ : t.text(), t.pos());
  }

  private Atom atom() {
    enter();
    try {
      return nestedAtom();
    } finally {
      depth--;
    }
  }

  private Atom nestedAtom() {
    final Token t = peek();
    if (t.is("not")) {
      next();
      return new Atom.Negation(atom(), t.pos());
    }
    if (t.is("*") && peek(1).kind() == Token.Kind.IDENT && peek(1).start() == t.end()) {
      return storedApply();
    }
    if (t.is("~") && peek(1).kind() == Token.Kind.IDENT && peek(1).start() == t.end()) {
      return searchApply();
    }
    if (t.kind() == Token.Kind.IDENT && peek(1).is("[")) {
      next();
      return new Atom.RuleApply(t.text(), bracketArgs(), t.pos());
    }
    if (t.kind() == Token.Kind.IDENT && peek(1).is("=")) {
      next();
      next();
      return new Atom.Unify(bindingVar(t), expr(), t.pos());
    }
    if (t.kind() == Token.Kind.IDENT && peek(1).is("in")) {
      next();
      next();
      return new Atom.Member(bindingVar(t), expr(), t.pos());
    }
    if (t.is("(")) {
      // An expression in parentheses, or else a grouped body.
      final int mark = at;
      final int markDepth = depth;
      try {
        final Expr e = expr();
        if (endsAtom()) {
          return new Atom.Filter(e, t.pos());
        }
      } catch (DatalogException e) {
        if (e.errorCode() == ErrorCode.PARSER_TOO_DEEP) {
          throw e;
        }
        // not an expression: a grouped body
      }
      at = mark;
      depth = markDepth;
      next();
      final List<Atom> inner = body();
      expect(")");
      return new Atom.Conjunction(inner, t.pos());
    }
    return new Atom.Filter(expr(), t.pos());
  }

  private boolean endsAtom() {
    final Token t = peek();
    return t.is(",") || t.is("or") || t.is(")") || t.is(";") || t.is("}")
        || t.kind() == Token.Kind.EOF || t.is(":") || startsRule();
  }

  private Atom storedApply() {
    final Token star = next();
    final Token relation = next();
    Token name = relation;
    while (joinsName(name)) {
      name = indexName(name);
    }
    if (accept("{")) {
      final List<Atom.Binding> bindings = new ArrayList<>();
      while (!peek().is("}") && !peek().is("@")) {
        final Token col = expectIdent("a column name");
        final Expr value = accept(":") ? expr() : new Expr.Var(col.text(), col.pos());
        bindings.add(new Atom.Binding(col.text(), value, col.pos()));
        if (!accept(",")) {
          break;
        }
      }
      final Expr validAt = validityClause();
      expect("}");
      return new Atom.StoredApply(name.text(), null, bindings, validAt, star.pos());
    }
    if (accept("[")) {
      final List<Expr> args = new ArrayList<>();
      while (!peek().is("]") && !peek().is("@")) {
        args.add(expr());
        if (!accept(",")) {
          break;
        }
      }
      final Expr validAt = validityClause();
      expect("]");
      return new Atom.StoredApply(name.text(), args, null, validAt, star.pos());
    }
    throw unexpected("'[' or '{' after the stored relation *" + name.text());
  }

  /**
   * {@code ~rel:idx{bindings | name: expr, ...}}: CozoDB's {@code search_apply}, the bindings
   * as in a named stored atom, then the index's parameters.
   */
  private Atom searchApply() {
    final Token tilde = next();
    final Token relation = next();
    final Token colon = expect(":");
    final Token index = expectIdent("an index name");
    if (colon.start() != relation.end() || index.start() != colon.end()) {
      throw new DatalogException(ErrorCode.PARSER_PEST, "expected ~rel:index without spaces",
          colon.pos().line(), colon.pos().column());
    }
    expect("{");
    final List<Atom.Binding> bindings = new ArrayList<>();
    while (!peek().is("|")) {
      final Token col = expectIdent("a column name");
      final Expr value = accept(":") ? expr() : new Expr.Var(col.text(), col.pos());
      bindings.add(new Atom.Binding(col.text(), value, col.pos()));
      if (!accept(",")) {
        break;
      }
    }
    expect("|");
    final List<Atom.Binding> parameters = new ArrayList<>();
    while (!peek().is("}")) {
      final Token name = expectIdent("a parameter name");
      expect(":");
      parameters.add(new Atom.Binding(name.text(), expr(), name.pos()));
      if (!accept(",")) {
        break;
      }
    }
    expect("}");
    return new Atom.SearchApply(relation.text(), index.text(), bindings, parameters,
        tilde.pos());
  }

  /** {@code rel:idx} (and {@code rel:idx:part}) as one name token. */
  private Token indexName(Token relation) {
    next();
    final Token index = next();
    return new Token(Token.Kind.IDENT, relation.text() + ":" + index.text(), null,
        relation.pos(), relation.start(), index.end());
  }

  /** {@code @ expr}, the moment of a time-travel read, or null when there is none. */
  private Expr validityClause() {
    return accept("@") ? expr() : null;
  }

  private List<Expr> bracketArgs() {
    expect("[");
    final List<Expr> args = new ArrayList<>();
    while (!peek().is("]")) {
      args.add(expr());
      if (!accept(",")) {
        break;
      }
    }
    expect("]");
    return args;
  }

  // options

  private void option(OptionsBuilder o) {
    final Token colon = expect(":");
    final Token name = expectIdent("an option name");
    if (name.start() != colon.end()) {
      throw new DatalogException(ErrorCode.PARSER_PEST, "expected an option name right after ':'",
          colon.pos().line(), colon.pos().column());
    }
    switch (name.text()) {
    case "limit":
      o.limit = expr();
      return;
    case "offset":
      o.offset = expr();
      return;
    case "timeout":
      o.timeout = expr();
      return;
    case "max_epochs":
      o.maxEpochs = expr();
      return;
    case "disable_magic_rewrite":
      o.disableMagicRewrite = expr();
      return;
    case "returning":
      o.returning = true;
      return;
    case "sleep":
      o.sleep = expr();
      return;
    case "order":
    case "sort":
      do {
        final Token sign = peek();
        final boolean desc = accept("-");
        if (!desc) {
          accept("+");
        }
        final Token col = expectIdent("a column to order by");
        String column = col.text();
        if (accept("(")) {
          column = column + "(" + expectIdent("the aggregated variable").text() + ")";
          expect(")");
        }
        o.order.add(new Script.Sort(column, desc, sign.pos()));
      } while (accept(","));
      return;
    case "assert":
      final Token what = expectIdent("'none' or 'some'");
      if (what.is("none")) {
        o.assertion = Script.Assertion.NONE;
      } else if (what.is("some")) {
        o.assertion = Script.Assertion.SOME;
      } else {
        throw new DatalogException(ErrorCode.PARSER_PEST, "expected 'none' or 'some' after :assert",
            what.pos().line(), what.pos().column());
      }
      return;
    default:
      final Script.RelationOp.Kind kind;
      try {
        kind = Script.RelationOp.Kind.valueOf(name.text().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new DatalogException(ErrorCode.PARSER_PEST, "unknown option ':" + name.text()
            + "'; expected :limit, :offset, :order, :timeout, :max_epochs, :assert,"
            + " :disable_magic_rewrite, :returning, :sleep, :create,"
            + " :replace,"
            + " :put, :rm, :insert, :update, :delete, :ensure or :ensure_not",
            name.pos().line(), name.pos().column());
      }
      if (o.relationOp != null) {
        throw new DatalogException(ErrorCode.PARSER_PEST, "a query block takes one relation operation",
            colon.pos().line(), colon.pos().column());
      }
      final Token rel = expectIdent("a relation name");
      final Script.Schema schema = peek().is("{") ? schema() : null;
      o.relationOp = new Script.RelationOp(kind, rel.text(), schema, colon.pos());
    }
  }

  private Script.Schema schema() {
    expect("{");
    final List<Script.Column> keys = columns();
    final List<Script.Column> values = accept("=>") ? columns() : List.of();
    expect("}");
    return new Script.Schema(keys, values);
  }

  private List<Script.Column> columns() {
    final List<Script.Column> columns = new ArrayList<>();
    while (peek().kind() == Token.Kind.IDENT) {
      final Token name = next();
      final Script.ColumnType type = accept(":") ? columnType() : null;
      Expr defaultValue = null;
      String defaultSource = null;
      String from = null;
      if (accept("default")) {
        final int start = peek().start();
        defaultValue = expr();
        defaultSource = source.substring(start, tokens.get(at - 1).end());
      } else if (accept("=")) {
        from = expectIdent("the head variable the column takes").text();
      }
      columns.add(new Script.Column(name.text(), type, defaultValue, defaultSource, from,
          name.pos()));
      if (!accept(",")) {
        break;
      }
    }
    return columns;
  }

  private Script.ColumnType columnType() {
    enter();
    try {
      return nestedColumnType();
    } finally {
      depth--;
    }
  }

  private Script.ColumnType nestedColumnType() {
    final Token t = peek();
    final Script.ColumnType type;
    if (accept("[")) {
      final Script.ColumnType element = columnType();
      final Expr length = accept(";") ? expr() : null;
      expect("]");
      type = new Script.ColumnType("List", List.of(element), length, false, t.pos());
    } else if (accept("(")) {
      final List<Script.ColumnType> elements = new ArrayList<>();
      while (!peek().is(")")) {
        elements.add(columnType());
        if (!accept(",")) {
          break;
        }
      }
      expect(")");
      type = new Script.ColumnType("Tuple", elements, null, false, t.pos());
    } else if (accept("<")) {
      final Token element = expectIdent("a vector's element type");
      if (!List.of("F32", "F64", "Float", "Double").contains(element.text())) {
        throw new DatalogException(ErrorCode.PARSER_PEST, "unknown vector element type '"
            + element.text() + "'; expected F32, F64, Float or Double",
            element.pos().line(), element.pos().column());
      }
      expect(";");
      final Token n = peek();
      if (n.kind() != Token.Kind.INT || (Long) n.value() < 0) {
        throw new DatalogException(ErrorCode.PARSER_PEST, "expected the vector's length, an"
            + " integer", n.pos().line(), n.pos().column());
      }
      next();
      final Expr length = new Expr.Literal(n.value(), n.pos());
      expect(">");
      type = new Script.ColumnType("Vec", List.of(new Script.ColumnType(element.text(),
          List.of(), null, false, element.pos())), length, false, t.pos());
    } else {
      final Token base = expectIdent("a column type");
      if (!List.of("Any", "Bool", "Int", "Float", "String", "Bytes", "Uuid", "Json",
          "Validity").contains(base.text())) {
        throw new DatalogException(ErrorCode.PARSER_PEST, "unknown column type '" + base.text()
            + "'; expected Any, Bool, Int, Float, String, Bytes, Uuid, Json, a [list], a (tuple) or a <vector>",
            base.pos().line(), base.pos().column());
      }
      type = new Script.ColumnType(base.text(), List.of(), null, false, t.pos());
    }
    if (accept("?")) {
      return new Script.ColumnType(type.base(), type.elements(), type.length(), true, type.pos());
    }
    return type;
  }

  // expressions: precedence climbing over LEVELS

  private Expr expr() {
    enter();
    try {
      return binary(0);
    } finally {
      depth--;
    }
  }

  /**
   * The operators of {@code minLevel} and tighter, left-associative but {@code ^}; a chain of
   * one associative operator ({@code || && + * ++}) is one call of all its operands, so a
   * chain of any length is a tree of height 1 for the stages after parsing. Every other
   * operator nests its left operand one level deeper ({@link #enter}).
   */
  private Expr binary(int minLevel) {
    final int entry = depth;
    try {
      Expr left = unary();
      List<Expr> chain = null;
      String chained = null;
      while (true) {
        final Token op = peek();
        int level = -1;
        String function = null;
        if (op.kind() == Token.Kind.SYMBOL) {
          for (int l = minLevel; l < LEVELS.size() && function == null; l++) {
            function = LEVELS.get(l).get(op.text());
            level = l;
          }
        }
        if (function == null) {
          return left;
        }
        if (!function.equals(chained)) {
          enter();
        }
        next();
        // ^ is right-associative
        final Expr right = binary(level == POW_LEVEL ? level : level + 1);
        if (function.equals(chained)) {
          chain.add(right);
          left = new Expr.Apply(function, chain, ((Expr.Apply) left).pos());
        } else {
          chain = new ArrayList<>(List.of(left, right));
          chained = ASSOCIATIVE.contains(function) ? function : null;
          left = new Expr.Apply(function, chain, op.pos());
        }
      }
    } finally {
      depth = entry;
    }
  }

  /**
   * Prefix {@code -} and {@code !} (each a level deeper), then a term and its {@code ->}s; the
   * key after {@code ->} is a term, or a prefixed one with the {@code ->}s after it.
   */
  private Expr unary() {
    final int entry = depth;
    try {
      final List<Token> prefixes = new ArrayList<>();
      while (peek().is("-") || peek().is("!")) {
        enter();
        prefixes.add(next());
      }
      Expr e = term();
      while (peek().is("->")) {
        enter();
        final Token arrow = next();
        // -> binds tighter than a prefix: a -> -b -> c is a -> -(b -> c), as in CozoDB
        final Expr key = peek().is("-") || peek().is("!") ? unary() : term();
        e = new Expr.Apply("maybe_get", List.of(e, key), arrow.pos());
      }
      for (int i = prefixes.size() - 1; i >= 0; i--) {
        final Token t = prefixes.get(i);
        e = new Expr.Apply(t.is("-") ? "minus" : "negate", List.of(e), t.pos());
      }
      return e;
    } finally {
      depth = entry;
    }
  }

  /**
   * One level deeper into the script's nesting (an expression, a prefix operator, a negated or
   * grouped atom, a column type): past {@link #MAX_NESTING} levels the script is refused here.
   */
  private void enter() {
    if (++depth > MAX_NESTING) {
      final Token t = peek();
      throw new DatalogException(ErrorCode.PARSER_TOO_DEEP, "the script nests deeper than "
          + MAX_NESTING + " levels here", t.pos().line(), t.pos().column(),
          "nest parentheses, lists, calls and operators at most " + MAX_NESTING
          + " levels deep");
    }
  }

  private Expr term() {
    final Token t = peek();
    switch (t.kind()) {
    case INT:
    case FLOAT:
    case STRING:
      next();
      return new Expr.Literal(t.value(), t.pos());
    case PARAM:
      next();
      return new Expr.Param(t.text(), t.pos());
    case IDENT:
      next();
      switch (t.text()) {
      case "null":
        return new Expr.Literal(null, t.pos());
      case "true":
        return new Expr.Literal(Boolean.TRUE, t.pos());
      case "false":
        return new Expr.Literal(Boolean.FALSE, t.pos());
      default:
        break;
      }
      if (accept("(")) {
        final List<Expr> args = new ArrayList<>();
        while (!peek().is(")")) {
          args.add(expr());
          if (!accept(",")) {
            break;
          }
        }
        expect(")");
        return new Expr.Apply(t.text(), args, t.pos());
      }
      return new Expr.Var(t.text(), t.pos());
    case SYMBOL:
      if (accept("(")) {
        final Expr e = expr();
        expect(")");
        return e;
      }
      if (accept("[")) {
        final List<Expr> items = new ArrayList<>();
        while (!peek().is("]")) {
          items.add(expr());
          if (!accept(",")) {
            break;
          }
        }
        expect("]");
        return new Expr.ListExpr(items, t.pos());
      }
      if (accept("{")) {
        // a JSON object literal {k: v, ...} is CozoDB's json_object(k, v, ...)
        final List<Expr> args = new ArrayList<>();
        while (!peek().is("}")) {
          args.add(expr());
          expect(":");
          args.add(expr());
          if (!accept(",")) {
            break;
          }
        }
        expect("}");
        return new Expr.Apply("json_object", args, t.pos());
      }
      throw unexpected("an expression");
    default:
      throw unexpected("an expression");
    }
  }

  // token helpers

  private Token peek() {
    return tokens.get(at);
  }

  private Token peek(int ahead) {
    return tokens.get(Math.min(at + ahead, tokens.size() - 1));
  }

  private Token next() {
    final Token t = tokens.get(at);
    if (t.kind() != Token.Kind.EOF) {
      at++;
    }
    return t;
  }

  private boolean accept(String symbol) {
    if (peek().is(symbol)) {
      next();
      return true;
    }
    return false;
  }

  private Token expect(String symbol) {
    if (!peek().is(symbol)) {
      throw unexpected("'" + symbol + "'");
    }
    return next();
  }

  private Token expectIdent(String what) {
    if (peek().kind() != Token.Kind.IDENT) {
      throw unexpected(what);
    }
    return next();
  }

  private DatalogException unexpected(String expected) {
    final Token t = peek();
    return new DatalogException(ErrorCode.PARSER_PEST,
        "expected " + expected + ", found " + t.describe(), t.pos().line(), t.pos().column());
  }

  /** Options as they are read. */
  private static final class OptionsBuilder {
    final List<Script.Sort> order = new ArrayList<>();
    Expr limit;
    Expr offset;
    Expr timeout;
    Expr maxEpochs;
    Expr disableMagicRewrite;
    Script.Assertion assertion;
    Script.RelationOp relationOp;
    boolean returning;
    Expr sleep;

    Script.Options build() {
      return new Script.Options(List.copyOf(order), limit, offset, timeout, maxEpochs, assertion,
          relationOp, disableMagicRewrite, returning, sleep);
    }
  }
}
