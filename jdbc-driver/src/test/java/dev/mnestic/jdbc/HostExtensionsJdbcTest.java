package dev.mnestic.jdbc;

import dev.mnestic.value.Aggregators;
import dev.mnestic.value.FixedRule;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static dev.mnestic.jdbc.Rows.query;
import static dev.mnestic.jdbc.Rows.row;
import static dev.mnestic.jdbc.Rows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Java host's own fixed rules and aggregations, registered on a {@code jdbc:mnestic:}
 * connection ({@link MnesticConnection}), run by the CozoScript that connection runs, listed by
 * {@code ::fixed_rules}, and seen by no other connection.
 */
class HostExtensionsJdbcTest {
  private static String memory() {
    return "jdbc:mnestic:db=mem:host-" + UUID.randomUUID();
  }

  /** {@code Scaled(in[x], by: n)}: a row {@code [x, x * n]} per input row. */
  static final class Scaled implements FixedRule {
    @Override public int arity(Options options, List<String> head) {
      return 2;
    }

    @Override public void run(Call call, Consumer<Object[]> out) {
      final long by = call.options().positiveInteger("by", 1L);
      for (Object[] row : call.input(0).rows()) {
        out.accept(new Object[] {row[0], (Long) row[0] * by});
      }
    }
  }

  /** The product of a group's numbers, as the built-in {@code product} (here its oracle). */
  static final class Product implements Aggregators.Aggregator {
    private long product = 1;

    @Override public void add(Object value) {
      product *= (Long) value;
    }

    @Override public Object result() {
      return product;
    }
  }

  /** Componentwise dominance, smaller better: {@code pareto_min}'s order. */
  static final BiPredicate<Object, Object> SMALLER = (a, b) -> {
    final List<?> x = (List<?>) a;
    final List<?> y = (List<?>) b;
    boolean strictly = false;
    for (int i = 0; i < x.size(); i++) {
      final long l = (Long) x.get(i);
      final long r = (Long) y.get(i);
      if (l > r) {
        return false;
      }
      strictly |= l < r;
    }
    return strictly;
  };

  @Test void aRegisteredFixedRuleAndAggregationsRunInThatConnectionsScripts() throws SQLException {
    final String url = memory() + ";lang=datalog";
    try (Connection datalog = DriverManager.getConnection(url);
         Connection other = DriverManager.getConnection(url)) {
      final MnesticConnection host = datalog.unwrap(MnesticConnection.class);
      assertTrue(datalog.isWrapperFor(MnesticConnection.class));
      final int builtIn = query(datalog, "::fixed_rules").size();
      host.registerFixedRule("Scaled", new Scaled());
      host.registerAggregate("my_product", false, Product::new);
      host.registerBoundedMeetAggregate("my_pareto", SMALLER, 1000);
      // ::fixed_rules lists it, beside the built-ins
      final List<List<Object>> rules = query(datalog, "::fixed_rules");
      assertEquals(builtIn + 1, rules.size());
      assertTrue(rules.contains(row("Scaled")), rules.toString());
      assertEquals(List.of(row(1L, 3L), row(2L, 6L)), query(datalog,
          "r[x] <- [[2], [1]]\n?[a, b] <~ Scaled(r[x], by: 3)"));

      // against the exact computation, and against the built-in of the same order
      final Random random = new Random(5);
      final TreeMap<Long, Long> products = new TreeMap<>();
      final List<String> facts = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        final long g = random.nextInt(4);
        final long x = 1 + random.nextInt(5);
        final long y = 1 + random.nextInt(5);
        facts.add("[" + i + ", " + g + ", " + x + ", " + y + "]");
        products.merge(g, x, (p, q) -> p * q);
      }
      query(datalog, "?[i, g, x, y] <- [" + String.join(", ", facts) + "]"
          + " :create pts {i => g, x, y}");
      final List<List<Object>> expected =
          products.entrySet().stream().map(e -> row(e.getKey(), e.getValue())).toList();
      assertEquals(expected, query(datalog, "?[g, my_product(x)] := *pts{g, x} :order g"));
      assertEquals(expected, query(datalog, "?[g, product(x)] := *pts{g, x} :order g"));
      final List<List<Object>> pareto =
          query(datalog, "?[g, pareto_min(p)] := *pts{g, x, y}, p = [x, y]");
      assertFalse(pareto.isEmpty());
      assertEquals(pareto,
          query(datalog, "?[g, my_pareto(p)] := *pts{g, x, y}, p = [x, y]"));

      // another connection has none of them
      final SQLException e = assertThrows(SQLException.class,
          () -> query(other, "?[a, b] <~ Scaled(by: 1)"));
      assertTrue(e.getMessage().contains("parser::fixed_rule_not_found"), e.getMessage());
      assertEquals(builtIn, query(other, "::fixed_rules").size());
      assertThrows(SQLException.class, () -> query(other, "?[my_product(x)] := *pts{x}"));

      // a name taken, or no identifier, is refused and changes nothing
      assertEquals("42710", assertThrows(SQLException.class,
          () -> host.registerFixedRule("Scaled", new Scaled())).getSQLState());
      assertEquals("42710", assertThrows(SQLException.class,
          () -> host.registerFixedRule("Constant", new Scaled())).getSQLState());
      assertEquals("42710", assertThrows(SQLException.class,
          () -> host.registerAggregate("product", false, Product::new)).getSQLState());
      assertEquals("42602", assertThrows(SQLException.class,
          () -> host.registerFixedRule("no-name", new Scaled())).getSQLState());
      assertEquals("22023", assertThrows(SQLException.class,
          () -> host.registerBoundedMeetAggregate("none_survive", SMALLER, 0)).getSQLState());
      assertEquals(builtIn + 1, query(datalog, "::fixed_rules").size());
    }
  }

  @Test void triggersOfAnSqlWriteRunWithTheConnectionsRegistrations() throws SQLException {
    final String url = memory();
    try (Connection sql = DriverManager.getConnection(url);
         Connection datalog = DriverManager.getConnection(url + ";lang=datalog")) {
      sql.unwrap(MnesticConnection.class).registerFixedRule("Scaled", new Scaled());
      query(datalog, ":create r {k: Int}");
      query(datalog, ":create doubled {k: Int => d: Int}");
      query(datalog, "::set_triggers r on put { ?[k, d] <~ Scaled(_new[k], by: 2)"
          + " :put doubled {k => d} }");
      update(sql, "INSERT INTO r VALUES (4), (5)");
      assertEquals(List.of(row(4L, 8L), row(5L, 10L)),
          query(sql, "SELECT k, d FROM doubled ORDER BY k"));
      // the script connection has no Scaled: its own write's trigger fails, nothing stays
      final SQLException e = assertThrows(SQLException.class,
          () -> query(datalog, "?[k] <- [[6]] :put r {k}"));
      assertTrue(e.getMessage().contains("parser::fixed_rule_not_found"), e.getMessage());
      assertEquals(List.of(row(4L), row(5L)), query(sql, "SELECT k FROM r ORDER BY k"));
      assertEquals(List.of(), query(sql, "SELECT k FROM doubled WHERE k = 6").stream()
          .collect(Collectors.toList()));
    }
  }
}
