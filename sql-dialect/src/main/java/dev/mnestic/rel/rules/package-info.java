/**
 * The SQL pipeline's plan stage, mnestic's part: skyline rewrites run in a Hep pass before
 * Calcite's cost-based planner; {@link dev.mnestic.rel.rules.SkylineRules#program} gives the
 * order and why.
 *
 * <p>In: logical {@code RelNode}s after sub-queries became joins. Out: equivalent
 * {@code RelNode}s with cheaper skylines.
 */
package dev.mnestic.rel.rules;
