/**
 * The thin client ({@code jdbc:mnestic:remote:}): Avatica's remote driver with mnestic's
 * metadata ({@link dev.mnestic.remote.MnesticDatabaseMetaData}) and cancellation; it depends on
 * Avatica's client alone.
 *
 * <p>In: JDBC calls. Out: requests to {@code server.MnesticServer}, and its answers.
 */
package dev.mnestic.remote;
