/**
 * The server: {@link dev.mnestic.server.MnesticServer}, Avatica's protobuf protocol over HTTP
 * in front of the embedded driver, one {@code jdbc:mnestic:} connection per client; it watches
 * clients and stops the work of those gone.
 *
 * <p>In: thin clients' requests. Out: their answers, computed by {@code jdbc}.
 */
package dev.mnestic.server;
