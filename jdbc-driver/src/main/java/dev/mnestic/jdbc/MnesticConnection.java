package dev.mnestic.jdbc;

import dev.mnestic.value.Aggregators;
import dev.mnestic.value.FixedRule;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * An embedded {@code jdbc:mnestic:} connection, as {@code connection.unwrap(MnesticConnection.class)}
 * gives it: the Java host's own extensions of CozoScript, registered on this connection for the
 * scripts it runs ({@code lang=datalog}) and the triggers its SQL writes fire. They are the
 * embedded {@link dev.mnestic.datalog.Engine}'s ({@code withFixedRule}, {@code withAggregate},
 * {@code withBoundedMeetAggregate}), kept with the connection until it closes; other
 * connections, and scripts sent to a server, never see them.
 *
 * <p>Only the process that holds the store registers code: a connection through the server
 * (the thin client, {@code jdbc:mnestic:remote:}) is no {@code MnesticConnection}, and nothing
 * a client sends can load a class into the server.
 */
public interface MnesticConnection extends Connection {
  /**
   * Registers {@code rule} as the fixed rule {@code name} ({@code out[a] <~ name(in[x], opt:
   * 1)}), listed by {@code ::fixed_rules}.
   *
   * @throws SQLException 42710 for a name that is already a fixed rule (a built-in, or one
   *     registered), 42602 for a name that is not an identifier
   */
  void registerFixedRule(String name, FixedRule rule) throws SQLException;

  /**
   * Registers an aggregation by its combine ({@code Engine.withAggregate}): {@code factory}
   * makes one group's aggregator; with {@code isMeet} it must be idempotent, commutative and
   * associative, and may run inside its own recursion.
   *
   * @throws SQLException 42710 for a name that is already an aggregation, 42602 for a name
   *     that is not an identifier
   */
  void registerAggregate(String name, boolean isMeet,
      Supplier<? extends Aggregators.Aggregator> factory) throws SQLException;

  /**
   * Registers a bounded-meet aggregation of the dominance order {@code dominates}, a pure
   * strict partial order ({@code Engine.withBoundedMeetAggregate}, the skyline spec's
   * {@code register_bounded_meet_aggr}): per group the values no other dominates, each a row;
   * more than {@code maxSurvivors} in a group fails the script.
   *
   * @throws SQLException 42710 for a name that is already an aggregation, 42602 for a name
   *     that is not an identifier, 22023 for a {@code maxSurvivors} below 1
   */
  void registerBoundedMeetAggregate(String name, BiPredicate<Object, Object> dominates,
      int maxSurvivors) throws SQLException;
}
