/**
 * The SQL pipeline's parse stage, what mnestic adds to Calcite's parse trees:
 * {@code SKYLINE OF} ({@link dev.mnestic.sql.SqlSkylineSelect}), a standing query's target
 * ({@link dev.mnestic.sql.SqlStandingQuery}) and {@code CREATE}/{@code DROP STANDING QUERY};
 * and {@link dev.mnestic.sql.StandingQueries}, the interface through which the driver finds the
 * standing module.
 *
 * <p>In: built by the generated parser ({@code sql.parser.impl}). Out: {@code SqlNode}s to
 * validate ({@code sql.validate}), and standing-query DDL to jdbc-driver.
 */
package dev.mnestic.sql;
