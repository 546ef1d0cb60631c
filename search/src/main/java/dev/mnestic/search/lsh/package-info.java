/**
 * Run: CozoDB's MinHash-LSH ({@code cozo-core/src/runtime/minhash_lsh.rs}). A text's distinct
 * token n-grams (or a list's elements) are hashed with XXH32 under one random seed per
 * permutation ({@link dev.mnestic.search.lsh.MinHash}); the minima, cut in bands of rows
 * ({@link dev.mnestic.search.lsh.LshParams}: CozoDB's choice of bands and rows from the
 * target threshold and the weights of false positives and negatives), are the buckets of
 * {@link dev.mnestic.search.lsh.LshIndex}; a row is a candidate when one band matches.
 *
 * <p>In: the text or list of each row, a query text or list. Out: the candidate rows' keys.
 */
package dev.mnestic.search.lsh;
