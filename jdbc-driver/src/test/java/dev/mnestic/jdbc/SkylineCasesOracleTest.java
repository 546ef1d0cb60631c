package dev.mnestic.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The hand-written SKYLINE OF cases (those of {@code sql/skyline.sql}, on
 * its hotels) against their NOT EXISTS form, run by HSQLDB and by
 * PostgreSQL 15 on the same rows; results compare as multisets. A DIFF
 * item is {@code IS NOT DISTINCT FROM} there (NULLs one partition); a NULL
 * MIN/MAX value makes every comparison unknown, so its row is kept and
 * dominates nothing, as in SKYLINE OF. (The NOT EXISTS forms repeat a
 * sub-query where HSQLDB 2.7.4 answers some queries reading one WITH
 * table in both the outer query and its NOT EXISTS wrongly, or fails
 * with "General error".)
 */
@ExtendWith(Postgres.Extension.class)
class SkylineCasesOracleTest {
  private static final String[] TABLES = {
      "CREATE TABLE hotels (id INT PRIMARY KEY, name VARCHAR(10) NOT NULL, city VARCHAR(10),"
          + " price DOUBLE PRECISION, dist DOUBLE PRECISION, stars INT)",
      "INSERT INTO hotels VALUES (1, 'alder', 'oslo', 100, 2.0, 3), (2, 'birch', 'oslo', 80, 3.0, 3),"
          + " (3, 'cedar', 'oslo', 120, 1.0, 4), (4, 'dogwood', 'oslo', 130, 3.0, 2),"
          + " (5, 'elm', 'rome', 50, 9.0, 1), (6, 'fir', 'rome', 50, 9.0, 1),"
          + " (7, 'gum', 'rome', NULL, 1.0, 5), (8, 'hazel', 'rome', 60, 8.0, 1),"
          + " (9, 'ivy', NULL, 90, 2.5, 3), (10, 'juniper', NULL, 95, 2.5, 2),"
          + " (11, 'kapok', 'rome', 60, NULL, 4), (12, 'larch', NULL, 90, 2.5, 3)",
      "CREATE TABLE reviews (hotel INT, score INT)",
      "INSERT INTO reviews VALUES (1, 9), (2, 6), (3, 7), (5, 8), (6, 5), (9, 9), (12, 9)",
      "CREATE TABLE owners (hotel INT PRIMARY KEY, owner VARCHAR(10))",
      "INSERT INTO owners VALUES (1, 'ann'), (2, 'bo'), (5, 'cy')"};

  private static Connection mnestic;
  private static Connection hsqldb;
  private static Connection postgres;

  @BeforeAll static void load(Postgres cluster) throws SQLException {
    final Connection[] connections = SkylineTables.open("skyline-cases-" + UUID.randomUUID());
    mnestic = connections[0];
    hsqldb = connections[1];
    postgres = cluster.connect();
    for (Connection c : new Connection[] {hsqldb, postgres}) {
      for (String table : new String[] {"owners", "reviews", "hotels"}) {
        Rows.update(c, "DROP TABLE IF EXISTS " + table);
      }
      for (String sql : TABLES) {
        Rows.update(c, sql);
      }
    }
  }

  @AfterAll static void close() throws SQLException {
    mnestic.close();
    hsqldb.close();
    postgres.close();
  }

  /** SKYLINE OF in mnestic gives the rows NOT EXISTS gives in HSQLDB and in PostgreSQL. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
      MIN, MIN; NULLs kept, duplicates kept |\
      SELECT name, price, dist FROM hotels SKYLINE OF price MIN, dist MIN |\
      SELECT r.name, r.price, r.dist FROM hotels r WHERE NOT EXISTS (SELECT 1 FROM hotels s \
      WHERE s.price <= r.price AND s.dist <= r.dist AND (s.price < r.price OR s.dist < r.dist))
      MAX |\
      SELECT name FROM hotels SKYLINE OF stars MAX, dist MIN |\
      SELECT r.name FROM hotels r WHERE NOT EXISTS (SELECT 1 FROM hotels s \
      WHERE s.stars >= r.stars AND s.dist <= r.dist AND (s.stars > r.stars OR s.dist < r.dist))
      one item |\
      SELECT name FROM hotels SKYLINE OF price MIN |\
      SELECT r.name FROM hotels r WHERE NOT EXISTS (SELECT 1 FROM hotels s WHERE s.price < r.price)
      DIFF; NULL city one partition |\
      SELECT name, city FROM hotels SKYLINE OF price MIN, dist MIN, city DIFF |\
      SELECT r.name, r.city FROM hotels r WHERE NOT EXISTS (SELECT 1 FROM hotels s \
      WHERE s.city IS NOT DISTINCT FROM r.city AND s.price <= r.price AND s.dist <= r.dist \
      AND (s.price < r.price OR s.dist < r.dist))
      DISTINCT |\
      SELECT price, dist FROM hotels SKYLINE OF DISTINCT price MIN, dist MIN |\
      SELECT DISTINCT r.price, r.dist FROM hotels r WHERE NOT EXISTS (SELECT 1 FROM hotels s \
      WHERE s.price <= r.price AND s.dist <= r.dist AND (s.price < r.price OR s.dist < r.dist))
      DISTINCT with DIFF |\
      SELECT city, stars FROM hotels SKYLINE OF DISTINCT stars MAX, city DIFF |\
      SELECT DISTINCT r.city, r.stars FROM hotels r WHERE NOT EXISTS (SELECT 1 FROM hotels s \
      WHERE s.city IS NOT DISTINCT FROM r.city AND s.stars > r.stars)
      expressions |\
      SELECT name FROM hotels SKYLINE OF price + 10 * dist MIN, stars * -1 MIN |\
      SELECT r.name FROM hotels r WHERE NOT EXISTS (SELECT 1 FROM hotels s \
      WHERE s.price + 10 * s.dist <= r.price + 10 * r.dist AND -s.stars <= -r.stars \
      AND (s.price + 10 * s.dist < r.price + 10 * r.dist OR -s.stars < -r.stars))
      aggregating block |\
      SELECT city, MIN(price) AS cheapest, COUNT(*) AS n FROM hotels GROUP BY city \
      HAVING COUNT(*) > 1 SKYLINE OF MIN(price) MIN, COUNT(*) MAX |\
      WITH g AS (SELECT city, MIN(price) AS cheapest, COUNT(*) AS n FROM hotels GROUP BY city \
      HAVING COUNT(*) > 1) SELECT r.city, r.cheapest, r.n FROM g r WHERE NOT EXISTS (SELECT 1 \
      FROM g s WHERE s.cheapest <= r.cheapest AND s.n >= r.n AND (s.cheapest < r.cheapest OR s.n > r.n))
      derived table |\
      SELECT name, stars FROM (SELECT * FROM hotels SKYLINE OF price MIN, dist MIN) AS k \
      WHERE stars >= 3 |\
      SELECT r.name, r.stars FROM hotels r WHERE r.stars >= 3 AND NOT EXISTS (SELECT 1 FROM hotels s \
      WHERE s.price <= r.price AND s.dist <= r.dist AND (s.price < r.price OR s.dist < r.dist))
      IN sub-query |\
      SELECT name FROM hotels WHERE id IN (SELECT id FROM hotels SKYLINE OF stars MAX, price MIN) |\
      SELECT r.name FROM hotels r WHERE NOT EXISTS (SELECT 1 FROM hotels s \
      WHERE s.stars >= r.stars AND s.price <= r.price AND (s.stars > r.stars OR s.price < r.price))
      correlated EXISTS sub-query |\
      SELECT h.name FROM hotels h WHERE EXISTS (SELECT 1 FROM hotels k WHERE k.city = h.city \
      SKYLINE OF k.dist MAX, k.stars MIN) AND h.stars = 1 |\
      SELECT h.name FROM hotels h WHERE h.stars = 1 AND EXISTS (SELECT 1 FROM hotels r \
      WHERE r.city = h.city AND NOT EXISTS (SELECT 1 FROM hotels s WHERE s.city = h.city \
      AND s.dist >= r.dist AND s.stars <= r.stars AND (s.dist > r.dist OR s.stars < r.stars)))
      CTE, skyline of a skyline |\
      WITH near AS (SELECT * FROM hotels SKYLINE OF dist MIN, city DIFF) \
      SELECT name, city FROM near SKYLINE OF stars MAX |\
      SELECT r.name, r.city FROM hotels r WHERE NOT EXISTS (SELECT 1 FROM hotels s \
      WHERE s.city IS NOT DISTINCT FROM r.city AND s.dist < r.dist) AND NOT EXISTS (SELECT 1 \
      FROM hotels s WHERE s.stars > r.stars AND NOT EXISTS (SELECT 1 FROM hotels q \
      WHERE q.city IS NOT DISTINCT FROM s.city AND q.dist < s.dist))
      join, items of both sides |\
      SELECT h.name, r.score FROM hotels h JOIN reviews r ON r.hotel = h.id \
      SKYLINE OF h.price MIN, r.score MAX |\
      SELECT h.name, r.score FROM hotels h JOIN reviews r ON r.hotel = h.id WHERE NOT EXISTS \
      (SELECT 1 FROM hotels i JOIN reviews s ON s.hotel = i.id WHERE i.price <= h.price \
      AND s.score >= r.score AND (i.price < h.price OR s.score > r.score))
      left join on a key |\
      SELECT h.name, o.owner FROM hotels h LEFT JOIN owners o ON o.hotel = h.id \
      SKYLINE OF h.price MIN, h.dist MIN |\
      SELECT r.name, o.owner FROM hotels r LEFT JOIN owners o ON o.hotel = r.id \
      WHERE NOT EXISTS (SELECT 1 FROM hotels s WHERE s.price <= r.price AND s.dist <= r.dist \
      AND (s.price < r.price OR s.dist < r.dist))
      UNION ALL |\
      SELECT * FROM (SELECT name, price, dist FROM hotels WHERE city = 'oslo' \
      UNION ALL SELECT name, price, dist FROM hotels WHERE stars > 3) AS u SKYLINE OF price MIN, dist MIN |\
      WITH u AS (SELECT name, price, dist FROM hotels WHERE city = 'oslo' \
      UNION ALL SELECT name, price, dist FROM hotels WHERE stars > 3) SELECT r.name, r.price, r.dist \
      FROM u r WHERE NOT EXISTS (SELECT 1 FROM u s WHERE s.price <= r.price AND s.dist <= r.dist \
      AND (s.price < r.price OR s.dist < r.dist))
      """)
  void sameRowsAsNotExists(String what, String skylineOf, String notExists) throws SQLException {
    final List<List<Object>> actual = SkylineOracleTest.sorted(Rows.query(mnestic, skylineOf));
    assertEquals(SkylineOracleTest.sorted(Rows.query(hsqldb, notExists)), actual, "HSQLDB: " + what);
    assertEquals(SkylineOracleTest.sorted(Rows.query(postgres, notExists)), actual,
        "PostgreSQL: " + what);
  }

  /** A prepared SKYLINE OF with a parameter in WHERE, for each binding. */
  @Test void preparedWithAParameterInWhere() throws SQLException {
    final String skylineOf = "SELECT name FROM hotels WHERE stars >= ? SKYLINE OF price MIN, dist MIN";
    final String notExists = "SELECT r.name FROM hotels r WHERE r.stars >= ? AND NOT EXISTS"
        + " (SELECT 1 FROM hotels s WHERE s.stars >= ? AND s.price <= r.price AND s.dist <= r.dist"
        + " AND (s.price < r.price OR s.dist < r.dist))";
    try (PreparedStatement m = mnestic.prepareStatement(skylineOf);
         PreparedStatement h = hsqldb.prepareStatement(notExists);
         PreparedStatement p = postgres.prepareStatement(notExists)) {
      for (int stars = 1; stars <= 5; stars++) {
        m.setInt(1, stars);
        final List<List<Object>> actual = SkylineOracleTest.sorted(Rows.read(m.executeQuery()));
        for (PreparedStatement oracle : new PreparedStatement[] {h, p}) {
          oracle.setInt(1, stars);
          oracle.setInt(2, stars);
          assertEquals(SkylineOracleTest.sorted(Rows.read(oracle.executeQuery())), actual,
              oracle.getConnection().getMetaData().getDatabaseProductName() + ", stars >= " + stars);
        }
      }
    }
  }
}
