/**
 * Run: CozoDB's full-text search. Text analysis as CozoDB 0.7.6 does it ({@link
 * dev.mnestic.search.text.TextAnalyzer}: its tokenizers {@code Raw}, {@code Simple}, {@code
 * Whitespace}, {@code NGram}, {@code Cangjie} and filters {@code Lowercase}, {@code
 * AlphaNumOnly}, {@code AsciiFolding}, {@code Stemmer}, {@code Stopwords}, {@code RemoveLong}, {@code
 * SplitCompoundWords},
 * on Lucene's analyzers where they are the same thing), its query language ({@link
 * dev.mnestic.search.text.FtsQuery}: AND, OR, NOT, phrases, NEAR, boosts, prefixes) and its
 * inverted index with its scores ({@link dev.mnestic.search.text.FtsIndex}), a replica of
 * {@code cozo-core/src/fts} down to its quirks.
 *
 * <p>In: the text of each row (what an index's extractor gives) and a query string. Out: the
 * rows' keys that match, each with its score.
 */
package dev.mnestic.search.text;
