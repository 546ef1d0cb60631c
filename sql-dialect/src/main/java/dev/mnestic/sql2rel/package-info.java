/**
 * The SQL pipeline's convert stage: {@link dev.mnestic.sql2rel.MnesticSqlToRelConverter}
 * (a SKYLINE OF block to a {@code LogicalSkyline}, MERGE to one {@code TableModify}) and
 * {@link dev.mnestic.sql2rel.MnesticRelFieldTrimmer}.
 *
 * <p>In: validated {@code SqlNode}s. Out: logical {@code RelNode}s to the plan stage.
 */
package dev.mnestic.sql2rel;
