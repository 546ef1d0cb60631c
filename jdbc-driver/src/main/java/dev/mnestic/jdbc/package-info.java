/**
 * The embedded JDBC driver ({@code jdbc:mnestic:}), where both pipelines start:
 * {@link dev.mnestic.jdbc.Driver} makes Calcite connections with mnestic's defaults;
 * {@link dev.mnestic.jdbc.MnesticPrepare} sends a statement to the SQL pipeline (Calcite's
 * prepare with mnestic's parser, validator, converter and rules) or to standing queries, and a
 * Datalog connection's {@link dev.mnestic.jdbc.DatalogPrepare} to the Datalog engine (chosen at
 * connect); {@link dev.mnestic.jdbc.MnesticMeta} answers metadata and transactions
 * from the store; {@link dev.mnestic.jdbc.SqlFailures} turns every failure into an
 * {@code SQLException} with a SQLSTATE.
 *
 * <p>In: JDBC calls. Out: result sets, update counts, SQLExceptions.
 */
package dev.mnestic.jdbc;
