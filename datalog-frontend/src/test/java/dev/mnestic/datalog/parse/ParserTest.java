package dev.mnestic.datalog.parse;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.ast.Atom;
import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.ast.Script;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CozoScript's grammar, and errors that name the place. */
class ParserTest {
  private static Script.Query query(String script) {
    final Script s = Parser.parse(script);
    assertEquals(1, s.queries().size());
    return s.queries().get(0);
  }

  @Test void jsonObjectLiteralIsJsonObjectOfItsPairs() {
    final Script.Query q = query("?[o] := x = 1, o = {'a': x + 1, [x]: {}, 'n': {'m': x}->'m',}");
    final Atom.Unify unify = assertInstanceOf(Atom.Unify.class, q.rules().get(0).body().get(1));
    assertEquals("json_object('a', add(x, 1), (x), json_object(), 'n', "
        + "maybe_get(json_object('m', x), 'm'))", unify.value().toString());
    final DatalogException e = assertThrows(DatalogException.class,
        () -> Parser.parse("?[o] <- [[{'a', 1}]]"));
    assertEquals("parser::pest", e.code());
  }

  @Test void rulesOfEveryKind() {
    final Script.Query q = query("""
        # the agent-memory frontier
        frontier[entity, pareto_max(p)] := *mentions{memory: mem, entity},
                                           *memory{id: mem, importance, at},
                                           p = [importance, (at - 1751328000.0) / 86400]
        edge[a, b] <- [[1, 2], [2, 3]]
        ?[name, id] := frontier[entity, p], *entity[entity, name], id in [1, 2], not edge[id, _]
        :order name, -id
        :limit 10
        """);
    assertEquals(3, q.rules().size());
    final Rule frontier = q.rules().get(0);
    assertEquals("frontier", frontier.name());
    assertEquals(Rule.Kind.INLINE, frontier.kind());
    assertEquals("[entity, pareto_max(p)]", frontier.head().toString());
    final Atom.StoredApply mentions = assertInstanceOf(Atom.StoredApply.class, frontier.body().get(0));
    assertTrue(mentions.isNamed());
    assertEquals("memory", mentions.named().get(0).column());
    assertEquals("mem", mentions.named().get(0).value().toString());
    assertEquals("entity", mentions.named().get(1).value().toString(), "col alone binds its name");
    final Atom.Unify unify = assertInstanceOf(Atom.Unify.class, frontier.body().get(2));
    assertEquals("[importance, div(sub(at, 1.751328E9), 86400)]", unify.value().toString());

    assertEquals(Rule.Kind.CONSTANT, q.rules().get(1).kind());
    assertEquals("[[1, 2], [2, 3]]", q.rules().get(1).constant().toString());

    final Rule entry = q.rules().get(2);
    assertEquals(Rule.ENTRY, entry.name());
    assertInstanceOf(Atom.StoredApply.class, entry.body().get(1));
    assertInstanceOf(Atom.Member.class, entry.body().get(2));
    final Atom.Negation not = assertInstanceOf(Atom.Negation.class, entry.body().get(3));
    assertInstanceOf(Atom.RuleApply.class, not.atom());

    assertEquals(List.of(new Script.Sort("name", false, q.options().order().get(0).pos()),
        new Script.Sort("id", true, q.options().order().get(1).pos())), q.options().order());
    assertEquals("10", q.options().limit().toString());
  }

  @Test void precedenceFollowsCozo() {
    final Expr e = ((Atom.Filter) query("?[x] := x = 1, x + 2 * 3 ^ 2 ^ 1 > 4 || !x == -x ~ 0")
        .rules().get(0).body().get(1)).condition();
    // prefix operators bind tighter than ~, which binds tighter than ^
    assertEquals("or(gt(add(x, mul(2, pow(3, pow(2, 1)))), 4),"
        + " eq(negate(x), coalesce(minus(x), 0)))", e.toString());
    final Expr mod = ((Atom.Unify) query("?[y] := y = 7 + 1 % 3").rules().get(0).body().get(0)).value();
    assertEquals("mod(add(7, 1), 3)", mod.toString(), "% binds looser than + in CozoDB");
  }

  /** Chains of an associative operator are one call; others nest to the left (issue 13). */
  @Test void associativeChainsAreOneCall() {
    final Expr e = ((Atom.Unify) query("?[y] := y = 1 + 2 + 3 * 4 * 5 - 6 - 7 ++ 'a' ++ 'b'")
        .rules().get(0).body().get(0)).value();
    assertEquals("concat(sub(sub(add(1, 2, mul(3, 4, 5)), 6), 7), 'a', 'b')", e.toString());
  }

  /** Test case for issue 13: an empty head under -ea was an AssertionError in Calcite. */
  @Test void aHornRuleNeedsAHead() {
    final DatalogException e = assertThrows(DatalogException.class,
        () -> Parser.parse("?[a] := a = 1\nr[] := a = 1"));
    assertEquals("parser::empty_horn_rule_head", e.code());
    assertEquals(2, e.line());
    assertEquals(1, e.column());
  }

  @Test void orAndGroupingAndOrAsAFunction() {
    final List<Atom> body = query(
        "?[a] := (r[a] or s[a]), or(a > 1, a < 0), (a > 2 or (t[a], a < 9))").rules().get(0).body();
    final Atom.Conjunction grouped = assertInstanceOf(Atom.Conjunction.class, body.get(0));
    assertInstanceOf(Atom.Disjunction.class, grouped.atoms().get(0));
    final Atom.Filter orCall = assertInstanceOf(Atom.Filter.class, body.get(1));
    assertEquals("or(gt(a, 1), lt(a, 0))", orCall.condition().toString());
    final Atom.Conjunction third = assertInstanceOf(Atom.Conjunction.class, body.get(2));
    final Atom.Disjunction d = assertInstanceOf(Atom.Disjunction.class, third.atoms().get(0));
    assertEquals(2, d.disjuncts().size());
    assertEquals(2, d.disjuncts().get(1).size(), "(t[a], a < 9) is one disjunct of two atoms");
  }

  @Test void literals() {
    final Expr e = query("?[x] <- [[null, true, false, 1_000, 0x1F, 0o17, 0b101, 1.5, 2e3, 'it\\'s', \"raw\\n\", ___\"a\"b\"___, $p]]")
        .rules().get(0).constant();
    assertEquals("[[null, true, false, 1000, 31, 15, 5, 1.5, 2000.0, 'it's', 'raw\\n', 'a\"b', $p]]",
        e.toString());
  }

  @Test void relationOpsAndSchemas() {
    final Script.Query q = query("""
        ?[k, v] <- [[1, 'a']]
        :create store {k: Int, t: String? default 'x' => v: [Float], w = k}
        """);
    final Script.RelationOp op = q.options().relationOp();
    assertEquals(Script.RelationOp.Kind.CREATE, op.kind());
    assertEquals("store", op.relation());
    assertEquals(2, op.schema().keys().size());
    assertTrue(op.schema().keys().get(1).type().nullable());
    assertEquals("'x'", op.schema().keys().get(1).defaultValue().toString());
    assertEquals("List", op.schema().values().get(0).type().base());
    assertEquals("k", op.schema().values().get(1).from());
  }

  /** A column's default keeps its source text, so that the store can record it. */
  @Test void columnDeclarations() {
    final Script.Column c = Parser.parseColumn("v: [Int; 1 + 2]? default [1, 2 ,3]");
    assertEquals("List", c.type().base());
    assertEquals("Int", c.type().elements().get(0).base());
    assertEquals("add(1, 2)", c.type().length().toString());
    assertTrue(c.type().nullable());
    assertEquals("[1, 2 ,3]", c.defaultSource());
    assertEquals("(Int, String?)", Parser.parseColumn("t: (Int, String?)").type().elements()
        .stream().map(t -> t.base() + (t.nullable() ? "?" : "")).toList().toString()
        .replace('[', '(').replace(']', ')'));
    assertThrows(DatalogException.class, () -> Parser.parseColumn("v: Int, w: Int"));
  }

  @Test void multiBlockAndSysOps() {
    assertEquals(2, Parser.parse("{?[a] <- [[1]] :put r {a}} {?[a] := *r[a]}").queries().size());
    assertEquals(Script.SysOp.Kind.RELATIONS, Parser.parse("::relations").sysOp().kind());
    assertEquals(List.of("a", "b"), Parser.parse("::remove a, b").sysOp().relations());
    assertEquals(List.of("a", "b", "c", "d"),
        Parser.parse("::rename a -> b, c -> d").sysOp().relations());
    final Script.SysOp explain = Parser.parse("::explain { ?[a] := *r[a] }").sysOp();
    assertEquals(1, explain.explained().rules().size());
    assertNull(Parser.parse("::columns r").queries().isEmpty() ? null : "queries");
  }

  @Test void errorsNameLineAndColumn() {
    final String script = "?[a] := *r[a],\n   a > ,\n";
    final DatalogException e = assertThrows(DatalogException.class, () -> Parser.parse(script));
    assertEquals("parser::pest", e.code());
    assertEquals(2, e.line());
    assertEquals(8, e.column());
    assertEquals("2:8: expected an expression, found ',' [parser::pest]\n   a > ,\n       ^",
        e.render(script));
    final DatalogException head = assertThrows(DatalogException.class,
        () -> Parser.parse("?[a] = 1"));
    assertEquals("expected ':=', '<-' or '<~' after the rule head, found '='", head.getMessage());
    final DatalogException option = assertThrows(DatalogException.class,
        () -> Parser.parse("?[a] <- [[1]]\n:lmit 3"));
    assertEquals(2, option.line());
    assertTrue(option.getMessage().startsWith("unknown option ':lmit'"), option.getMessage());
    final DatalogException string = assertThrows(DatalogException.class,
        () -> Parser.parse("?[a] <- [['abc]]"));
    assertEquals("unterminated string", string.getMessage());
    assertEquals(11, string.column());
  }
}
