package dev.mnestic.sql.parser;

import dev.mnestic.sql.PromQl;
import dev.mnestic.sql.PromQlException;
import dev.mnestic.sql.SqlCreateStandingQuery;
import dev.mnestic.sql.SqlPromQl;
import dev.mnestic.sql.SqlStandingQuery;

import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The PromQL subset of standing queries ({@link PromQl}) and {@code AS PROMQL '...'}. */
class PromQlTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "quantile_over_time(0.9,m[5m])|quantile_over_time(0.9, m[5m])",
      "quantile_over_time(.5, m{job=\"a\", instance!~'x.*',}[1h30m])"
          + "|quantile_over_time(0.5, m{instance!~\"x.*\", job=\"a\"}[1h30m])",
      "quantile_over_time(0.99, {__name__=\"http:latency\"}[90s])"
          + "|quantile_over_time(0.99, http:latency[1m30s])",
      "quantile_over_time(0.9, a[1m]) / quantile_over_time(0.5, a[60000ms])"
          + "|quantile_over_time(0.9, a[1m]) / quantile_over_time(0.5, a[1m])",
      "1000 * (quantile_over_time(0.9, a[1m]) - 2) / -4"
          + "|1000 * (quantile_over_time(0.9, a[1m]) - 2) / -4",
      "1 - (2 - quantile_over_time(1, a[1d]))|1 - (2 - quantile_over_time(1, a[1d]))",
      "(1 - 2) - quantile_over_time(0e0, a[1y2w])|1 - 2 - quantile_over_time(0, a[1y2w])",
  })
  void canonicalText(String text, String canonical) {
    final PromQl.Expr e = assertDoesParse(text);
    assertEquals(canonical, e.toString());
    // the canonical text parses to itself
    assertEquals(canonical, PromQl.parse(canonical).toString());
  }

  private static PromQl.Expr assertDoesParse(String text) {
    try {
      return PromQl.parse(text);
    } catch (PromQlException e) {
      throw new AssertionError(text + ": " + e.getMessage(), e);
    }
  }

  @Test void durations() {
    assertEquals(Duration.ofMinutes(90), PromQl.parseDuration("1h30m"));
    assertEquals(Duration.ofMillis(1500), PromQl.parseDuration("1s500ms"));
    assertEquals(Duration.ofDays(365 + 14), PromQl.parseDuration("1y2w"));
    assertEquals(Duration.ofDays(1), PromQl.parseDuration("1d"));
    assertEquals("1y2w3d4h5m6s7ms", PromQl.duration(PromQl.parseDuration("1y2w3d4h5m6s7ms")));
    for (String bad : new String[] {"30m1h", "5", "5x", "1m1m", "", "0s", "1.5m"}) {
      assertThrows(IllegalArgumentException.class, () -> PromQl.parseDuration(bad), bad);
    }
  }

  @Test void matchersSelectAsPrometheusDoes() {
    final PromQl.Quantile q = (PromQl.Quantile) PromQl.parse("quantile_over_time(0.5,"
        + " m{a=\"x\", b!=\"y\", c=~\"v.|w\", d!~\"z+\", e=\"\"}[1m])");
    assertTrue(q.selector().matches(Map.of("a", "x", "c", "v1", "d", "zq")));
    assertTrue(q.selector().matches(Map.of("a", "x", "c", "w", "b", "yy")));
    // regular expressions are anchored at both ends
    assertFalse(q.selector().matches(Map.of("a", "x", "c", "wv")));
    assertFalse(q.selector().matches(Map.of("a", "x", "c", "v1", "d", "zzz")));
    assertFalse(q.selector().matches(Map.of("a", "x", "c", "v1", "b", "y")));
    // a missing label is the empty string: e="" holds, a="x" does not
    assertFalse(q.selector().matches(Map.of("c", "v1")));
    assertFalse(q.selector().matches(Map.of("a", "x", "c", "v1", "e", "1")));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "rate(m[5m])|1:1: unsupported: the function rate",
      "sum by (job) (quantile_over_time(0.9, m[1m]))|1:1: unsupported: the aggregation sum",
      "quantile_over_time(0.9, m[1m] offset 5m)|1:31: unsupported: offset",
      "quantile_over_time(0.9, m[1m]) offset 5m|1:32: unsupported: offset",
      "quantile_over_time(0.9, m[1m] @ 100)|1:31: unsupported: the @ modifier",
      "quantile_over_time(0.9, m[1m:10s])|1:29: unsupported: a subquery",
      "m{job=\"a\"}|1:1: unsupported: a selector outside quantile_over_time (m)",
      "quantile_over_time(0.9, a[1m]) / on(job) quantile_over_time(0.9, b[1m])"
          + "|1:34: unsupported: vector matching modifier on",
      "quantile_over_time(0.9, a[1m]) > 2|1:32: unsupported: the operator >",
      "quantile_over_time(0.9, a[1m]) % 2|1:32: unsupported: the operator %",
      "quantile_over_time(0.9, a[1m]) and quantile_over_time(0.9, b[1m])"
          + "|1:32: unsupported: the operator or modifier and",
      "-quantile_over_time(0.9, a[1m])|1:1: unsupported: a unary - before a vector",
      "quantile_over_time(0.9, a[1m]|1:30: parse error: unexpected end of input, expected \")\"",
      "quantile_over_time(0.9, a[5])|1:27: parse error: a duration's number takes a unit",
      "quantile_over_time(0.9, a[30m1h])|1:27: parse error: a duration's units come once each",
      "quantile_over_time(0.9, a{b=~\"(\"}[1m])|1:27: parse error: invalid regular expression",
      "quantile_over_time(0.9, a[1m]) 2|1:32: parse error: unexpected \"2\", expected an operator",
  })
  void errorsNameThePlaceAndWhat(String text, String message) {
    final PromQlException e = assertThrows(PromQlException.class, () -> PromQl.parse(text));
    assertTrue(e.getMessage().startsWith(message), e.getMessage());
  }

  @Test void anErrorOnTheSecondLine() {
    final PromQlException e = assertThrows(PromQlException.class,
        () -> PromQl.parse("quantile_over_time(0.9,\n  a{job=\"x\"[1m])"));
    assertEquals("2:12: parse error: unexpected \"[1m])\", expected \",\" or \"}\"",
        e.getMessage());
    assertEquals(2, e.line);
    assertEquals(12, e.column);
  }

  @Test void createStandingQueryAsPromQl() throws SqlParseException {
    final SqlCreateStandingQuery create = assertInstanceOf(SqlCreateStandingQuery.class,
        StandingQueryParserTest.parse("CREATE STANDING QUERY p90 AS PROMQL 'quantile_over_time(0.9, m[1m])'"
            + " EVERY INTERVAL '10' SECOND WITHIN RANK ERROR 0.01 RETAIN INTERVAL '1' HOUR"));
    final SqlStandingQuery target = create.query;
    assertEquals(SqlStandingQuery.Metric.RANK, target.metric);
    final SqlPromQl promql = assertInstanceOf(SqlPromQl.class, target.query);
    assertEquals("quantile_over_time(0.9, m[1m])", promql.text.getValueAs(String.class));
    assertEquals(10_000, SqlParserUtil.intervalToMillis(
        (SqlIntervalLiteral.IntervalValue) promql.every.getValue()));
    assertEquals(1, promql.getParserPosition().getLineNum());
    assertEquals(30, promql.getParserPosition().getColumnNum());
    // without EVERY; PROMQL stays usable as a name
    final SqlCreateStandingQuery plain = assertInstanceOf(SqlCreateStandingQuery.class,
        StandingQueryParserTest.parse("CREATE STANDING QUERY promql AS PROMQL 'quantile_over_time(0.9, m[1m])'"
            + " WITHIN RELATIVE ERROR 0.01"));
    assertEquals(null, ((SqlPromQl) plain.query.query).every);
    assertEquals("promql", plain.name.getSimple());
    assertInstanceOf(SqlStandingQuery.class, StandingQueryParserTest.parse("SELECT promql FROM t GROUP BY promql"
        + " WITHIN RANK ERROR 0.1"));
  }

  /** After AS, PROMQL begins PromQL only where a string follows; else it is the name promql. */
  @Test void afterAsPromqlWithoutAStringIsAName() throws SqlParseException {
    final SqlCreateStandingQuery create = assertInstanceOf(SqlCreateStandingQuery.class,
        StandingQueryParserTest.parse("CREATE STANDING QUERY q AS SELECT promql FROM promql"
            + " WITHIN RANK ERROR 0.1"));
    assertInstanceOf(SqlSelect.class, create.query.query);
    // not a query: the error of the ordinary query branch, as for another name of that length
    final String promql = assertThrows(SqlParseException.class, () -> StandingQueryParserTest
        .parse("CREATE STANDING QUERY q AS promql * 2 WITHIN RANK ERROR 0.1")).getMessage();
    final String metric = assertThrows(SqlParseException.class, () -> StandingQueryParserTest
        .parse("CREATE STANDING QUERY q AS metric * 2 WITHIN RANK ERROR 0.1")).getMessage();
    assertEquals(metric, promql);
    assertTrue(promql.contains("Non-query expression"), promql);
  }
}
