package dev.mnestic.datalog;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.fixed.ReadPolicy;
import dev.mnestic.value.FixedRule;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fixed rules beyond what CozoDB's WebAssembly build can answer (conformance/queries/
 * fixed-rules.json has the rest): the readers on files of {@code src/test/resources/fixed}
 * (the oracle cannot read files: "operation not supported on this platform"), whose expected
 * rows are read off those small files by hand; the reading policy; a host's own fixed rule;
 * the named form of a stored input (which panics CozoDB 0.7.6); the step {@code ::explain}
 * shows.
 */
class FixedRulesTest {
  private QueryConformanceTest.Store store;
  private Engine engine;

  @BeforeEach void open() throws Exception {
    store = new QueryConformanceTest.Store();
    engine = store.engine();
  }

  @AfterEach void close() throws Exception {
    store.close();
  }

  private static String json(Engine engine, String script) throws Exception {
    return engine.run(script, Map.of()).toJson();
  }

  private static Path resource(String name) throws URISyntaxException {
    return Paths.get(FixedRulesTest.class.getResource("/fixed/" + name).toURI());
  }

  private static String url(String name) throws URISyntaxException {
    return resource(name).toUri().toString();
  }

  @Test void csvReaderTypesQuotesAndNulls() throws Exception {
    // people.csv: a header, quoted fields (a comma, doubled quotes), an empty field, a blank
    // line, and 'n/a' where a nullable Float stands
    assertEquals("{\"headers\":[\"i\",\"id\",\"name\",\"score\",\"tag\"],\"rows\":["
        + "[0,1,\"Smith, Ann\",2.5,\"\"],[1,2,\"say \\\"hi\\\"\",3.0,\"x\"],[2,3,\"Bo\",null,\"y\"]]}",
        json(engine, "?[i, id, name, score, tag] <~ CsvReader(url: '" + url("people.csv")
            + "', types: ['Int', 'String', 'Float?', 'String?'], prepend_index: true)"));
    final DatalogException notInt = assertThrows(DatalogException.class, () -> json(engine,
        "?[id, name, score] <~ CsvReader(url: '" + url("people.csv") + "', types: ['Int', 'Any',"
            + " 'Int'])"));
    assertEquals("mnestic::read_failed", notInt.code());
    assertEquals("cannot convert 2.5 to type Int", notInt.getMessage());
    assertEquals("{\"headers\":[\"id\",\"score\"],\"rows\":[[1,null],[2,3],[3,null]]}",
        json(engine, "s[id, name, score] <~ CsvReader(url: '" + url("people.csv") + "', types:"
            + " ['Int', 'Any', 'Int?'])\n?[id, score] := s[id, _, score]"));
  }

  @Test void csvReaderDelimiterNoHeadersAndPlainPath() throws Exception {
    assertEquals("{\"headers\":[\"n\",\"s\"],\"rows\":[[1,\"a\"],[2,\"b\"]]}",
        json(engine, "?[n, s] <~ CsvReader(url: '" + resource("plain.csv")
            + "', types: ['Int', 'String'], delimiter: ';', has_headers: false)"));
  }

  @Test void jsonReaderLinesAndArray() throws Exception {
    assertEquals("{\"headers\":[\"a\",\"b\"],\"rows\":[[1,\"x\"],[2.5,[1,2]]]}",
        json(engine, "?[a, b] <~ JsonReader(url: '" + url("rows.jsonl") + "', fields: ['a', 'b'])"));
    assertEquals("{\"headers\":[\"a\",\"c\"],\"rows\":[[1,null],[2.5,{\"k\":true}]]}",
        json(engine, "?[a, c] <~ JsonReader(url: '" + url("rows.jsonl")
            + "', fields: ['a', 'c'], null_if_absent: true)"));
    final DatalogException absent = assertThrows(DatalogException.class, () -> json(engine,
        "?[a, c] <~ JsonReader(url: '" + url("rows.jsonl") + "', fields: ['a', 'c'])"));
    assertEquals("field c is absent from JSON line", absent.getMessage());
    assertEquals("{\"headers\":[\"i\",\"a\",\"b\"],\"rows\":[[0,1,null],[1,2,null]]}",
        json(engine, "?[i, a, b] <~ JsonReader(url: '" + url("rows.json") + "', fields: ['a', 'b'],"
            + " json_lines: false, null_if_absent: true, prepend_index: true)"));
  }

  @Test void readPolicy(@TempDir Path dir) throws Exception {
    final Path inside = Files.createDirectory(dir.resolve("data"));
    Files.writeString(inside.resolve("in.csv"), "x\n1\n");
    Files.writeString(dir.resolve("out.csv"), "x\n2\n");
    Files.createSymbolicLink(inside.resolve("link.csv"), dir.resolve("out.csv"));
    final Engine narrowed = engine.readingFiles(ReadPolicy.under(inside));
    final String read = "?[x] <~ CsvReader(types: ['Int'], url: '";
    assertEquals("{\"headers\":[\"x\"],\"rows\":[[1]]}",
        json(narrowed, read + inside.resolve("in.csv").toUri() + "')"));
    for (String outside : List.of(inside.resolve("../out.csv").toString(),
        inside.resolve("link.csv").toUri().toString(), dir.resolve("out.csv").toString())) {
      final DatalogException e = assertThrows(DatalogException.class,
          () -> json(narrowed, read + outside + "')"), outside);
      assertEquals("mnestic::read_not_allowed", e.code(), outside);
      assertTrue(e.help().contains("outside " + inside.toRealPath()), e.help());
    }
    final DatalogException none = assertThrows(DatalogException.class,
        () -> json(engine.readingFiles(ReadPolicy.NONE), read + inside.resolve("in.csv") + "')"));
    assertEquals("mnestic::read_not_allowed", none.code());
    assertTrue(none.help().contains("--allow-read"), none.help());
    // never over the network, whatever the policy
    final DatalogException http = assertThrows(DatalogException.class,
        () -> json(engine, read + "http://127.0.0.1:9/x.csv')"));
    assertEquals("mnestic::read_not_allowed", http.code());
    assertTrue(http.help().contains("never over the network"), http.help());
  }

  /** {@code Scaled(rel[a], by: 3, f: expr)}: per input row, its first value and {@code f} of it. */
  static final class Scaled implements FixedRule {
    @Override public int arity(Options options, List<String> head) {
      return 3;
    }

    @Override public void run(Call call, Consumer<Object[]> out) {
      final Input in = call.input(0);
      final long by = call.options().positiveInteger("by", 1L);
      final Function<Object[], Object> f = call.options().expression("f").bind(in.bindings());
      for (Object[] row : in.rows()) {
        out.accept(new Object[] {row[0], (Long) row[0] * by, f.apply(row)});
      }
    }
  }

  @Test void hostFixedRule() throws Exception {
    final Engine host = engine.withFixedRule("Scaled", new Scaled());
    assertEquals("{\"headers\":[\"a\",\"b\",\"c\"],\"rows\":[[1,3,\"1!\"],[2,6,\"2!\"]]}",
        json(host, "r[x] <- [[2], [1]]\ns[a, b, c] <~ Scaled(r[x], by: 3, f: to_string(x) ++ '!')"
            + "\n?[a, b, c] := s[a, b, c]"));
    final DatalogException wrong = assertThrows(DatalogException.class,
        () -> json(host, "r[x] <- [[1]]\n?[a, b, c] <~ Scaled(r[x], by: 0, f: x)"));
    assertEquals("fixed_rule::arg_wrong", wrong.code());
    assertEquals("a positive integer is required", wrong.help());
    // the engine it came from does not know it
    assertEquals("parser::fixed_rule_not_found", assertThrows(DatalogException.class,
        () -> json(engine, "?[a, b, c] <~ Scaled(by: 1)")).code());
    assertThrows(IllegalArgumentException.class, () -> engine.withFixedRule("Constant", new Scaled()));
    assertThrows(IllegalArgumentException.class, () -> host.withFixedRule("Scaled", new Scaled()));
    assertThrows(IllegalArgumentException.class, () -> engine.withFixedRule("no-name", new Scaled()));
    final Engine.Result builtIn = engine.run("::fixed_rules", Map.of());
    final Engine.Result listed = host.run("::fixed_rules", Map.of());
    assertEquals(builtIn.rows().size() + 1, listed.rows().size(), listed.toJson());
    assertTrue(listed.rows().contains(List.of("Scaled")), listed.toJson());
  }

  @Test void aRuleThatNeverEndsStopsAtTheTimeout() throws Exception {
    final Engine host = engine.withFixedRule("Spin", new FixedRule() {
      @Override public int arity(Options options, List<String> head) {
        return 1;
      }

      @Override public void run(Call call, Consumer<Object[]> out) {
        while (true) {
          call.stop().check();
        }
      }
    });
    final DatalogException killed = assertThrows(DatalogException.class,
        () -> json(host, "?[x] <~ Spin()\n:timeout 1"));
    assertEquals("eval::killed", killed.code());
  }

  @Test void namedStoredInputIsItsPositionalForm() throws Exception {
    engine.run(":create rel {k: Int => v: String, w: Int}", Map.of());
    engine.run("?[k, v, w] <- [[1, 'a', 30], [2, 'b', 20], [3, 'c', 10]]\n:put rel {k, v, w}",
        Map.of());
    final String named = json(engine,
        "?[rank, x] <~ ReorderSort(*rel{w, v: x}, out: [x], sort_by: w, take: 2)");
    assertEquals("{\"headers\":[\"rank\",\"x\"],\"rows\":[[1,\"c\"],[2,\"b\"]]}", named);
    assertEquals(named, json(engine,
        "?[rank, x] <~ ReorderSort(*rel[_, x, w], out: [x], sort_by: w, take: 2)"));
  }

  @Test void explainShowsTheFixedRuleStep() throws Exception {
    final String plan = json(engine, "::explain { r[a] <- [[1], [2]]\n"
        + "?[rank, a] <~ ReorderSort(r[a], out: [a], sort_by: a, take: 1) }");
    assertTrue(plan.contains("EnumerableFixedRuleApply(rule=[ReorderSort(r[a], out: [a],"
        + " sort_by: a, take: 1)], arity=[2])"), plan);
  }
}
