/**
 * The SQL pipeline's parse stage: {@code MnesticSqlParserImpl}, generated at build time
 * from Calcite's {@code Parser.jj} and {@code src/main/codegen} (FMPP, then JavaCC 4.0).
 *
 * <p>In: SQL text. Out: {@code SqlNode} trees, with mnestic's from {@code dev.mnestic.sql}.
 */
package dev.mnestic.sql.parser.impl;
