package dev.mnestic.search.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Full-text search against CozoDB 0.7.6 itself: {@code fts-oracle.json} (English and other
 * alphabetic texts) and {@code cangjie-oracle.json} (300 Chinese sentences, the Cangjie
 * tokenizer's kinds) hold, recorded by {@code search/src/test/cozo/record.py}, each index's
 * relation and the rows and scores CozoDB gives for each query over an index of each analyzer
 * on the same documents (or that it rejects the query). The scores must be the same doubles.
 */
class FtsOracleTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TestFactory
  Stream<DynamicTest> sameRowsAndScoresAsCozo() throws IOException {
    return oracleTests("fts-oracle.json");
  }

  @TestFactory
  Stream<DynamicTest> cangjieSameRowsAndScoresAsCozo() throws IOException {
    return oracleTests("cangjie-oracle.json");
  }

  private Stream<DynamicTest> oracleTests(String file) throws IOException {
    JsonNode oracle;
    try (InputStream in = getClass().getResourceAsStream("/dev/mnestic/search/" + file)) {
      oracle = JSON.readTree(in);
    }
    Map<String, FtsIndex<String>> indices = new HashMap<>();
    for (JsonNode a : oracle.get("analyzers")) {
      List<TextAnalyzer.Config> filters = new ArrayList<>();
      for (JsonNode f : a.get("filters")) {
        filters.add(config(f));
      }
      FtsIndex<String> index =
          new FtsIndex<>(
              TextAnalyzer.of(config(a.get("tokenizer")), filters), Comparator.naturalOrder());
      for (JsonNode doc : oracle.get("docs")) {
        index.put(doc.get(0).asText(), doc.get(1).isNull() ? null : doc.get(1).asText());
      }
      indices.put(a.get("name").asText(), index);
    }
    long rowCount = oracle.get("docs").size();
    List<DynamicTest> tests = new ArrayList<>();
    oracle
        .get("index_relations")
        .fields()
        .forEachRemaining(
            e ->
                tests.add(
                    DynamicTest.dynamicTest(
                        e.getKey() + " index relation",
                        () -> assertEquals(e.getValue().toString(), relation(indices.get(e.getKey()))))));
    for (JsonNode q : oracle.get("queries")) {
      String analyzer = q.get("analyzer").asText();
      String query = q.get("query").asText();
      FtsIndex.ScoreKind kind =
          q.get("score_kind").asText().equals("tf")
              ? FtsIndex.ScoreKind.TF
              : FtsIndex.ScoreKind.TF_IDF;
      FtsIndex<String> index = indices.get(analyzer);
      tests.add(
          DynamicTest.dynamicTest(
              analyzer + " " + kind + " " + query,
              () -> {
                if (q.has("error")) {
                  // CozoDB's own message: pest's rendering of where and what it expected
                  assertEquals(
                      q.get("error").asText(),
                      assertThrows(
                              FtsQuery.SyntaxError.class,
                              () -> index.search(query, kind, rowCount))
                          .getMessage());
                  return;
                }
                Map<String, Double> expected = new TreeMap<>();
                for (JsonNode row : q.get("rows")) {
                  expected.put(row.get(0).asText(), row.get(1).asDouble());
                }
                Map<String, Double> actual = new TreeMap<>();
                for (FtsIndex.Hit<String> h : index.search(query, kind, rowCount)) {
                  actual.put(h.key(), h.score());
                }
                assertEquals(expected, actual);
              }));
    }
    return tests.stream();
  }

  /** The index's rows as CozoDB's JSON: word, key, offsets from and to, positions, count. */
  private static String relation(FtsIndex<String> index) {
    List<List<Object>> rows = new ArrayList<>();
    for (FtsIndex.Entry<String> e : index.entries()) {
      FtsIndex.Posting p = e.posting();
      rows.add(
          List.of(
              e.word(),
              e.key(),
              p.offsetFrom(),
              p.offsetTo(),
              p.positions(),
              p.totalLength()));
    }
    return JSON.valueToTree(rows).toString();
  }

  private static TextAnalyzer.Config config(JsonNode pair) {
    List<Object> args = new ArrayList<>();
    for (JsonNode a : pair.get(1)) {
      args.add(value(a));
    }
    return new TextAnalyzer.Config(pair.get(0).asText(), args);
  }

  private static Object value(JsonNode a) {
    if (a.isBoolean()) {
      return a.asBoolean();
    } else if (a.isIntegralNumber()) {
      return a.asLong();
    } else if (a.isNumber()) {
      return a.asDouble();
    } else if (a.isArray()) {
      List<Object> l = new ArrayList<>();
      a.forEach(x -> l.add(value(x)));
      return l;
    }
    return a.asText();
  }
}
