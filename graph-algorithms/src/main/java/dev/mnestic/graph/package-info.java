/**
 * Run: the fixed rules' algorithms. CozoDB's graph algorithms ({@code ShortestPathDijkstra},
 * {@code PageRank}, {@code CommunityDetectionLouvain}, ...) as {@link
 * dev.mnestic.value.FixedRule}s, keyed by CozoDB's names in {@link
 * dev.mnestic.graph.GraphAlgorithms#BUILT_IN}: plain Java over whole input relations, each a
 * replica of CozoDB 0.7.6's own ({@code cozo-core/src/fixed_rule/algos}), down to its node
 * numbering, its single-precision weights and its output columns.
 *
 * <p>In: the input relations' rows and the options of one application. Out: the rule's rows.
 */
package dev.mnestic.graph;
