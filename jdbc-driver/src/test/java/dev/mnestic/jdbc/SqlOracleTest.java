package dev.mnestic.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Calcite's SQL over the store, checked against HSQLDB running the same
 * query on the same rows in a database of its own: joins, aggregates,
 * WITH RECURSIVE, VALUES and subqueries. Both results are compared as
 * multisets (rows sorted), unless the query orders them. HSQLDB has no
 * window functions; those are checked against the same computation in Java.
 */
class SqlOracleTest {
  private static Connection mnestic;
  private static Connection hsqldb;

  @BeforeAll static void load() throws SQLException {
    mnestic = DriverManager.getConnection("jdbc:mnestic:");
    hsqldb = DriverManager.getConnection(
        "jdbc:hsqldb:mem:oracle-" + UUID.randomUUID() + ";shutdown=true", "SA", "");
    // The same DDL and rows in both; HSQLDB's own tables are upper case.
    final List<String> ddl = List.of(
        "CREATE TABLE emp (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, dept INT, salary DOUBLE, boss INT)",
        "CREATE TABLE dept (id INT PRIMARY KEY, title VARCHAR(20))");
    for (String sql : ddl) {
      Rows.update(mnestic, sql);
      Rows.update(hsqldb, sql);
    }
    final Random random = new Random(42);
    final StringBuilder emps = new StringBuilder("INSERT INTO emp VALUES ");
    for (int i = 1; i <= 200; i++) {
      emps.append(i > 1 ? ", " : "").append('(').append(i).append(", 'e").append(i).append("', ")
          .append(i % 7 == 0 ? "NULL" : Integer.toString(random.nextInt(5))).append(", ")
          .append(1000 + random.nextInt(9000)).append(".5, ")
          .append(i == 1 ? "NULL" : Integer.toString(1 + random.nextInt(i - 1))).append(')');
    }
    final String depts =
        "INSERT INTO dept VALUES (0, 'zero'), (1, 'one'), (2, 'two'), (3, 'three'), (5, 'five')";
    for (Connection c : List.of(mnestic, hsqldb)) {
      Rows.update(c, emps.toString());
      Rows.update(c, depts);
    }
  }

  @AfterAll static void close() throws SQLException {
    mnestic.close();
    hsqldb.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT * FROM emp",
      "SELECT name, salary FROM emp WHERE salary > 5000 AND dept IS NOT NULL",
      "SELECT e.name, d.title FROM emp e JOIN dept d ON e.dept = d.id",
      "SELECT e.name, d.title FROM emp e LEFT JOIN dept d ON e.dept = d.id",
      "SELECT d.title, e.name FROM dept d FULL JOIN emp e ON e.dept = d.id",
      "SELECT dept, COUNT(*), SUM(salary), MIN(name), MAX(salary), AVG(salary) FROM emp GROUP BY dept",
      "SELECT dept, COUNT(*) FROM emp GROUP BY dept HAVING COUNT(*) > 30",
      "SELECT COUNT(DISTINCT dept), COUNT(dept), COUNT(*) FROM emp",
      "WITH RECURSIVE chain (id, depth) AS (SELECT id, 0 FROM emp WHERE boss IS NULL "
          + "UNION ALL SELECT e.id, c.depth + 1 FROM emp e JOIN chain c ON e.boss = c.id) "
          + "SELECT id, depth FROM chain",
      "SELECT * FROM (VALUES (1, 'ab'), (2, 'cd'), (3, NULL)) AS t (x, y)",
      "SELECT name FROM emp WHERE dept IN (SELECT id FROM dept WHERE title LIKE 't%')",
      "SELECT name FROM emp e WHERE EXISTS (SELECT 1 FROM emp f WHERE f.boss = e.id AND f.salary > e.salary)",
      "SELECT name FROM emp WHERE dept NOT IN (SELECT id FROM dept WHERE id > 1)",
      "SELECT name, (SELECT title FROM dept d WHERE d.id = e.dept) FROM emp e",
      "SELECT dept FROM emp UNION SELECT id FROM dept",
      "SELECT dept FROM emp INTERSECT SELECT id FROM dept",
      "SELECT id FROM dept EXCEPT SELECT dept FROM emp",
      // literals of one length: mnestic makes ragged ones VARCHAR, HSQLDB pads them to CHAR(n)
      "SELECT CASE WHEN salary > 5000 THEN 'hi' ELSE 'lo' END, COUNT(*) FROM emp "
          + "GROUP BY CASE WHEN salary > 5000 THEN 'hi' ELSE 'lo' END",
      "SELECT UPPER(name), CHAR_LENGTH(name), MOD(id, 3), COALESCE(dept, -1) FROM emp",
      "SELECT name FROM emp ORDER BY salary DESC, id LIMIT 5",
      "SELECT name FROM emp ORDER BY id OFFSET 190 ROWS",
      "SELECT DISTINCT dept FROM emp",
  })
  void sameRowsAsHsqldb(String sql) throws SQLException {
    final List<List<Object>> expected = Rows.query(hsqldb, sql);
    final List<List<Object>> actual = Rows.query(mnestic, sql);
    assertFalse(expected.isEmpty(), "oracle returned no rows: " + sql);
    if (sql.contains("ORDER BY")) {
      assertEquals(expected, actual, sql);
    } else {
      assertEquals(sorted(expected), sorted(actual), sql);
    }
  }

  /** RANK() per department by salary, and a 3-row moving sum, computed here from the stored rows. */
  @Test void windowFunctionsMatchJava() throws SQLException {
    final List<List<Object>> emps =
        Rows.query(hsqldb, "SELECT id, dept, salary FROM emp ORDER BY id");
    final Map<Integer, Long> expectedRank = new HashMap<>();
    final Map<Integer, BigDecimal> expectedSum = new HashMap<>();
    for (int i = 0; i < emps.size(); i++) {
      final List<Object> e = emps.get(i);
      long higher = 0;
      for (List<Object> f : emps) {
        if (Objects.equals(f.get(1), e.get(1))
            && ((BigDecimal) f.get(2)).compareTo((BigDecimal) e.get(2)) > 0) {
          higher++;
        }
      }
      final int id = ((BigDecimal) e.get(0)).intValue();
      expectedRank.put(id, higher + 1);
      BigDecimal sum = BigDecimal.ZERO;
      for (int j = Math.max(0, i - 2); j <= i; j++) {
        sum = sum.add((BigDecimal) emps.get(j).get(2));
      }
      expectedSum.put(id, sum.stripTrailingZeros());
    }
    final List<List<Object>> actual = Rows.query(mnestic,
        "SELECT id, RANK() OVER (PARTITION BY dept ORDER BY salary DESC), "
            + "SUM(salary) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) "
            + "FROM emp");
    assertEquals(emps.size(), actual.size());
    for (List<Object> row : actual) {
      final int id = ((BigDecimal) row.get(0)).intValue();
      assertEquals(expectedRank.get(id), ((BigDecimal) row.get(1)).longValue(), "rank of " + id);
      assertEquals(expectedSum.get(id), row.get(2), "moving sum at " + id);
    }
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    final Comparator<List<Object>> order = Comparator.comparing(List::toString);
    return rows.stream().sorted(order).toList();
  }

}
