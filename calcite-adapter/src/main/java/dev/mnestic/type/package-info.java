/**
 * The type system every connection's validate and convert stages use
 * ({@link dev.mnestic.type.MnesticTypeSystem}): ragged string literals make VARCHAR, integer SUM
 * is BIGINT.
 *
 * <p>In: Calcite's type questions. Out: the answers.
 */
package dev.mnestic.type;
