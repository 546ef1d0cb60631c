/**
 * Run: the search indices a search atom ({@code ~rel:idx{...}}) searches, as {@link
 * dev.mnestic.value.SearchIndex} kinds: {@link dev.mnestic.search.HnswKind} ({@code ::hnsw},
 * CozoDB's HNSW vector index) on Apache Lucene's HNSW graph. Plain Java over value and
 * lucene-core, no Calcite and no store: an index is built in memory from the rows it is synced
 * with.
 *
 * <p>In: a relation's rows and a search's parameters. Out: the matching rows' positions and
 * bound values.
 */
package dev.mnestic.search;
