/**
 * The SQL pipeline's validate stage: {@link dev.mnestic.sql.validate.MnesticSqlValidator}
 * (SKYLINE OF items, MERGE, date literals) and the error catalogs it raises from
 * ({@link dev.mnestic.sql.validate.SkylineErrors}, {@link dev.mnestic.sql.validate.StatementErrors}).
 *
 * <p>In: parsed {@code SqlNode}s. Out: validated, typed {@code SqlNode}s to {@code sql2rel}.
 */
package dev.mnestic.sql.validate;
