package dev.mnestic.sql.parser;

import dev.mnestic.sql.SqlCreateStandingQuery;
import dev.mnestic.sql.SqlDropStandingQuery;
import dev.mnestic.sql.SqlStandingQuery;
import dev.mnestic.sql.parser.impl.MnesticSqlParserImpl;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Standing queries' targets ({@code WITHIN ... ERROR}), CREATE and DROP STANDING QUERY. */
class StandingQueryParserTest {
  private static final String P95 = "SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
      + " APPROX_QUANTILE(latency, 0.95) FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)";

  /** A statement parsed by mnestic's grammar, names as written. */
  static SqlNode parse(String sql) throws SqlParseException {
    return SqlParser.create(sql, SqlParser.config()
            .withParserFactory(MnesticSqlParserImpl.FACTORY)
            .withUnquotedCasing(Casing.UNCHANGED))
        .parseStmt();
  }

  private static String flat(SqlNode node) {
    return node.toString().replace("\n", " ").replaceAll(" +", " ");
  }

  /** The example: the target follows GROUP BY TUMBLE(...) and belongs to the query. */
  @Test void targetAfterGroupByTumble() throws SqlParseException {
    final SqlStandingQuery q = assertInstanceOf(SqlStandingQuery.class,
        parse(P95 + " WITHIN RANK ERROR 0.01"));
    assertEquals(SqlStandingQuery.Metric.RANK, q.metric);
    assertEquals(new BigDecimal("0.01"), ((SqlNumericLiteral) q.bound).getValueAs(BigDecimal.class));
    final SqlSelect select = assertInstanceOf(SqlSelect.class, q.query);
    assertEquals(1, select.getGroup().size());
    assertEquals(1, q.getParserPosition().getLineNum());
    assertEquals(P95.length() + 2, q.getParserPosition().getColumnNum());
    assertTrue(flat(q).endsWith(" FROM `requests` GROUP BY $TUMBLE(`ts`, INTERVAL '1' MINUTE)"
        + " WITHIN RANK ERROR 0.01"), flat(q));
  }

  @Test void relativeErrorOfARatioAfterOrderBy() throws SqlParseException {
    final SqlStandingQuery q = assertInstanceOf(SqlStandingQuery.class, parse(
        "SELECT TUMBLE_END(ts, INTERVAL '5' MINUTE) AS w,\n"
            + "  APPROX_QUANTILE(latency, 0.99) / APPROX_QUANTILE(latency, 0.5) AS spread\n"
            + "FROM requests GROUP BY TUMBLE(ts, INTERVAL '5' MINUTE) ORDER BY w\n"
            + "WITHIN RELATIVE ERROR 0.05"));
    assertEquals(SqlStandingQuery.Metric.RELATIVE, q.metric);
    assertEquals(SqlKind.ORDER_BY, q.query.getKind());
    assertEquals(4, q.getParserPosition().getLineNum());
  }

  /** Aggregates keep WITHIN GROUP and WITHIN DISTINCT; a query without a target is plain. */
  @Test void withinGroupAndDistinctStay() throws SqlParseException {
    final SqlSelect select = assertInstanceOf(SqlSelect.class, parse(
        "SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY x), SUM(x) WITHIN DISTINCT (k) FROM t"));
    assertEquals(SqlKind.WITHIN_GROUP, ((SqlBasicCall) select.getSelectList().get(0)).getKind());
    assertEquals(SqlKind.WITHIN_DISTINCT, ((SqlBasicCall) select.getSelectList().get(1)).getKind());
  }

  /** JSON_ARRAYAGG keeps WITHIN GROUP, and a target may follow it. */
  @Test void targetAfterJsonArrayAgg() throws SqlParseException {
    final SqlSelect select = assertInstanceOf(SqlSelect.class,
        parse("SELECT JSON_ARRAYAGG(v) WITHIN GROUP (ORDER BY v) FROM t"));
    assertEquals(SqlKind.WITHIN_GROUP, ((SqlBasicCall) select.getSelectList().get(0)).getKind());
    final SqlStandingQuery q = assertInstanceOf(SqlStandingQuery.class,
        parse("SELECT k FROM t GROUP BY k ORDER BY JSON_ARRAYAGG(v) WITHIN RANK ERROR 0.1"));
    assertEquals(SqlKind.ORDER_BY, q.query.getKind());
    assertEquals(SqlStandingQuery.Metric.RANK, q.metric);
  }

  @Test void createAndDrop() throws SqlParseException {
    final SqlCreateStandingQuery create = assertInstanceOf(SqlCreateStandingQuery.class,
        parse("CREATE OR REPLACE STANDING QUERY p95 AS " + P95 + " WITHIN RANK ERROR 0.01"));
    assertTrue(create.getReplace());
    assertEquals("p95", create.name.getSimple());
    assertEquals(SqlStandingQuery.Metric.RANK, create.query.metric);
    final SqlDropStandingQuery drop = assertInstanceOf(SqlDropStandingQuery.class,
        parse("DROP STANDING QUERY IF EXISTS p95"));
    assertEquals("p95", drop.name.getSimple());
    assertTrue(drop.ifExists);
    assertFalse(((SqlDropStandingQuery) parse("DROP STANDING QUERY p95")).ifExists);
    // STANDING, QUERY and RETAIN stay names.
    assertInstanceOf(SqlSelect.class, parse("SELECT standing, query, retain FROM query"));
    assertEquals(null, create.retain);
  }

  /** RETAIN follows the target and takes an INTERVAL literal; it unparses as it was written. */
  @Test void createWithRetention() throws SqlParseException {
    final SqlCreateStandingQuery create = assertInstanceOf(SqlCreateStandingQuery.class,
        parse("CREATE STANDING QUERY p95 AS " + P95
            + " WITHIN RANK ERROR 0.01 RETAIN INTERVAL '6' HOUR"));
    assertEquals(6 * 3_600_000L, SqlParserUtil.intervalToMillis(
        (SqlIntervalLiteral.IntervalValue) create.retain.getValue()));
    assertTrue(flat(create).endsWith("WITHIN RANK ERROR 0.01 RETAIN INTERVAL '6' HOUR"),
        flat(create));
    final SqlParseException e = assertThrows(SqlParseException.class,
        () -> parse("CREATE STANDING QUERY p95 AS " + P95 + " WITHIN RANK ERROR 0.01 RETAIN 6"));
    assertTrue(e.getMessage().contains("Encountered \"6\""), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "WITHIN ERROR 0.01|1|8|\"ERROR\"",
      "WITHIN RANK 0.01|1|13|\"0.01\"",
      "WITHIN RANK ERROR high|1|19|\"high\"",
      "WITHIN RANK ERROR -0.01|1|19|\"-\"",
  })
  void badTargetsNameTheirPlace(String target, int line, int column, String found) {
    final SqlParseException e = assertThrows(SqlParseException.class,
        () -> parse("SELECT 1\n" + target));
    assertEquals(line + 1, e.getPos().getLineNum(), e.getMessage());
    assertEquals(column, e.getPos().getColumnNum(), e.getMessage());
    assertTrue(e.getMessage().contains("Encountered " + found), e.getMessage());
  }

  @Test void createNeedsATarget() {
    final SqlParseException e = assertThrows(SqlParseException.class,
        () -> parse("CREATE STANDING QUERY p95 AS " + P95));
    assertTrue(e.getMessage().contains("\"WITHIN\""), e.getMessage());
  }
}
