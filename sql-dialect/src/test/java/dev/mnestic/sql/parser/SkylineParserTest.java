package dev.mnestic.sql.parser;

import dev.mnestic.runtime.Skylines.Direction;
import dev.mnestic.sql.SqlSkylineSelect;
import dev.mnestic.sql.parser.impl.MnesticSqlParserImpl;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.util.SqlShuttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SKYLINE OF clause (issue 5): where it goes, what it parses to, how it prints. */
class SkylineParserTest {
  private static SqlNode parse(String sql) throws SqlParseException {
    return SqlParser.create(sql, SqlParser.config()
            .withParserFactory(MnesticSqlParserImpl.FACTORY)
            .withUnquotedCasing(Casing.UNCHANGED)
            .withQuoting(Quoting.BACK_TICK))
        .parseStmt();
  }

  private static String flat(SqlNode node) {
    return node.toString().replace("\n", " ").replaceAll(" +", " ");
  }

  @Test void itemsAndDirections() throws SqlParseException {
    final SqlSkylineSelect select = assertInstanceOf(SqlSkylineSelect.class,
        parse("SELECT * FROM hotels SKYLINE OF price MIN, stars + 1 MAX, city DIFF"));
    assertFalse(select.isSkylineDistinct());
    assertEquals(3, select.getSkyline().size());
    assertEquals(List.of(Direction.MIN, Direction.MAX, Direction.DIFF),
        select.getSkyline().stream().map(SqlSkylineSelect::direction).toList());
    assertEquals("`stars` + 1",
        SqlSkylineSelect.expression(select.getSkyline().get(1)).toString());
    assertEquals("SELECT * FROM `hotels` SKYLINE OF `price` MIN, `stars` + 1 MAX, `city` DIFF",
        flat(select));
  }

  /** The clause follows WHERE, GROUP BY, HAVING, WINDOW and QUALIFY and precedes ORDER BY and LIMIT. */
  @Test void placeInTheBlock() throws SqlParseException {
    final SqlOrderBy orderBy = assertInstanceOf(SqlOrderBy.class, parse(
        "SELECT city, MIN(price) AS p, RANK() OVER w FROM hotels WHERE stars > 2"
            + " GROUP BY city HAVING COUNT(*) > 1 WINDOW w AS (ORDER BY city)"
            + " QUALIFY RANK() OVER w < 10"
            + " SKYLINE OF DISTINCT MIN(price) MIN, COUNT(*) MAX ORDER BY p LIMIT 3"));
    final SqlSkylineSelect select = assertInstanceOf(SqlSkylineSelect.class, orderBy.query);
    assertTrue(select.isSkylineDistinct());
    assertEquals("3", String.valueOf(orderBy.fetch));
    assertEquals("SELECT `city`, MIN(`price`) AS `p`, RANK() OVER `w` FROM `hotels`"
            + " WHERE `stars` > 2 GROUP BY `city` HAVING COUNT(*) > 1"
            + " WINDOW `w` AS (ORDER BY `city`) QUALIFY (RANK() OVER `w`) < 10"
            + " SKYLINE OF DISTINCT MIN(`price`) MIN, COUNT(*) MAX ORDER BY `p` FETCH NEXT 3 ROWS ONLY",
        flat(orderBy));
  }

  /** Every query block may have the clause: sub-queries, CTEs, set operations, INSERT ... SELECT. */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT * FROM (SELECT * FROM t SKYLINE OF a MIN) AS s WHERE b > 0",
      "WITH s AS (SELECT * FROM t SKYLINE OF a MIN, b MAX) SELECT * FROM s SKYLINE OF a MAX",
      "SELECT a FROM t SKYLINE OF a MIN UNION ALL SELECT a FROM u SKYLINE OF a MAX",
      "SELECT * FROM t WHERE a IN (SELECT a FROM u SKYLINE OF b MIN)",
      "SELECT * FROM t JOIN u ON t.a = u.a SKYLINE OF t.b MIN, u.c MIN",
      "SELECT * FROM t, u SKYLINE OF t.b MIN",
      "SELECT * FROM t AS x SKYLINE OF x.b MIN",
  })
  void everyQueryBlock(String sql) throws SqlParseException {
    final SqlNode node = parse(sql);
    final int[] blocks = {0};
    node.accept(new SqlShuttle() {
      @Override public SqlNode visit(org.apache.calcite.sql.SqlCall call) {
        if (call instanceof SqlSkylineSelect) {
          blocks[0]++;
        }
        return super.visit(call);
      }
    });
    assertEquals(sql.split("SKYLINE OF", -1).length - 1, blocks[0], sql);
    // What it prints parses to what it printed.
    assertEquals(flat(node), flat(parse(node.toString())));
  }

  @Test void insertSelect() throws SqlParseException {
    final SqlInsert insert = assertInstanceOf(SqlInsert.class,
        parse("INSERT INTO best SELECT * FROM hotels SKYLINE OF price MIN, distance MIN"));
    assertInstanceOf(SqlSkylineSelect.class, insert.getSource());
  }

  /** SKYLINE and DIFF remain names: of columns, tables, aliases. */
  @Test void nonReserved() throws SqlParseException {
    assertInstanceOf(SqlSelect.class, parse("SELECT skyline, diff FROM skyline"));
    assertEquals("SELECT `skyline`.`diff` FROM `t` AS `skyline`",
        flat(parse("SELECT skyline.diff FROM t skyline")));
    final SqlSkylineSelect select = assertInstanceOf(SqlSkylineSelect.class,
        parse("SELECT diff AS skyline FROM skyline skyline SKYLINE OF diff MIN, skyline DIFF"));
    assertEquals("SELECT `diff` AS `skyline` FROM `skyline` AS `skyline`"
        + " SKYLINE OF `diff` MIN, `skyline` DIFF", flat(select));
  }

  /** Copies (as Calcite's shuttles make) keep the clause. */
  @Test void copiesKeepTheClause() throws SqlParseException {
    final SqlNode node = parse("SELECT a FROM t WHERE b = 1 SKYLINE OF DISTINCT a MAX");
    final SqlNode copy = node.clone(node.getParserPosition());
    assertNotSame(node, copy);
    assertInstanceOf(SqlSkylineSelect.class, copy);
    assertTrue(node.equalsDeep(copy, org.apache.calcite.util.Litmus.THROW));
    assertEquals(flat(node), flat(copy));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "SELECT * FROM t SKYLINE OF a|1|28",
      "SELECT * FROM t SKYLINE OF a ASC|1|30",
      "SELECT * FROM t SKYLINE OF a MIN, b|1|35",
      "SELECT * FROM t SKYLINE OF (SELECT MAX(a) FROM u) MIN|1|28",
      "SELECT * FROM t SKYLINE OF EXISTS (SELECT 1 FROM u) MIN|1|35",
      "SELECT * FROM t SKYLINE OF|1|26",
      "SELECT * FROM t ORDER BY a SKYLINE OF a MIN|1|28",
  })
  void errorsNameLineAndColumn(String sql, int line, int column) {
    final SqlParseException e = assertThrows(SqlParseException.class, () -> parse(sql));
    assertEquals(line, e.getPos().getLineNum(), e.getMessage());
    assertEquals(column, e.getPos().getColumnNum(), e.getMessage());
  }

  @Test void errorOnALaterLine() {
    final SqlParseException e = assertThrows(SqlParseException.class,
        () -> parse("SELECT *\nFROM t\nSKYLINE OF a MIN,\n  b"));
    assertEquals(4, e.getPos().getLineNum());
    assertEquals(3, e.getPos().getColumnNum());
  }
}
