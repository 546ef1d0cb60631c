package dev.mnestic.datalog.eval;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.parse.Parser;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.Values;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Where {@link ConstantEvaluator}'s errors point, and what it does with parameters. */
class ConstantEvaluatorTest {
  private static Rule rule(String script) {
    return Parser.parse(script).queries().get(0).rules().get(0);
  }

  private static Expr body(String script) {
    return rule(script).constant();
  }

  private static DatalogException fails(String script, Map<String, ?> params) {
    return assertThrows(DatalogException.class, () -> ConstantEvaluator.evaluate(body(script), params));
  }

  @Test void evaluatesClosedExpressions() {
    assertEquals("[[3,\"ab\",[1,1.0],null,true]]", Values.toJson(ConstantEvaluator.evaluate(
        body("?[a, b, c, d, e] <- [[1 + 2, 'a' ++ 'b', [1, 1.0], null ~ null, 1 == 1.0]]"), Map.of())));
  }

  @Test void errorsNameTheirPlace() {
    DatalogException e = fails("?[a, b] <- [[1,\n    y]]", Map.of());
    assertEquals(ErrorCode.EVAL_NOT_CONSTANT.code(), e.code());
    assertEquals("2:5", e.line() + ":" + e.column());

    e = fails("?[a] <- [[ 1 + 'a' ]]", Map.of());
    assertEquals("eval::throw", e.code());
    assertEquals("addition requires numbers", e.help());
    assertEquals("1:14", e.line() + ":" + e.column(), "the operator");

    e = fails("?[a] <- [[ sub(1) ]]", Map.of());
    assertEquals("parser::func_wrong_num_args", e.code());
    assertEquals("1:12", e.line() + ":" + e.column());

    e = fails("?[a] <- [[ foo(1) ]]", Map.of());
    assertEquals(ErrorCode.EVAL_NOT_CONSTANT.code(), e.code());
    assertEquals("1:12", e.line() + ":" + e.column());

    e = fails("?[a] <- [[ $missing ]]", Map.of("other", 1));
    assertEquals(ErrorCode.PARSER_PARAM_NOT_FOUND.code(), e.code());
    assertEquals("Required parameter missing not found", e.getMessage());
    assertEquals("1:12", e.line() + ":" + e.column());
  }

  /** CozoDB checks parameters and arities while parsing, before it evaluates anything. */
  @Test void parseTimeChecksComeFirst() {
    assertEquals(ErrorCode.PARSER_PARAM_NOT_FOUND.code(), fails("?[a] <- [[1 + 'a', $p]]", Map.of()).code());
    assertEquals("eval::throw", fails("?[a] <- [[y, 1 + 'a']]", Map.of()).code());
    assertEquals(ErrorCode.EVAL_NOT_CONSTANT.code(), fails("?[a] <- [[if(1 + 'a', 1)]]", Map.of()).code());
  }

  @Test void parametersBecomeValues() {
    final Object v = ConstantEvaluator.evaluate(body("?[a, b] <- [[$i + 1, $l]]"),
        Map.of("i", 41, "l", List.of(1.5f, "x")));
    assertEquals("[[42,[1.5,\"x\"]]]", Values.toJson(v));
  }

  @Test void constantRulesAreSets() {
    final List<List<Object>> rows = ConstantRules.rows(
        rule("r[a, b] <- [[2, 'b'], [1, 'z'], [2, 'a'], [1, 'z'], [1.0, 'z']]"), Map.of());
    assertEquals("[[1,\"z\"],[1.0,\"z\"],[2,\"a\"],[2,\"b\"]]", Values.toJson(rows));
    final DatalogException e = assertThrows(DatalogException.class,
        () -> ConstantRules.rows(rule("r[a] <- [[1], [2, 3]]"), Map.of()));
    assertEquals("parser::const_data_arity_mismatch", e.code());
    assertEquals("First row length: 1; the mismatch: [2, 3]", e.help());
  }
}
