package dev.mnestic.server;

import dev.mnestic.runtime.RunningStatement;

import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.MnesticRemoteFactory;
import org.apache.calcite.avatica.NoSuchConnectionException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.metrics.noop.NoopMetricsSystem;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.apache.calcite.avatica.remote.Handler.HandlerResponse;
import org.apache.calcite.avatica.remote.ProtobufHandler;
import org.apache.calcite.avatica.remote.ProtobufTranslation;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.remote.Service;
import org.apache.calcite.avatica.remote.Service.ErrorResponse;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The server's one HTTP endpoint: Avatica's protobuf protocol, as Avatica's
 * own handler speaks it, but stricter about what it answers with.
 * <ul>
 *   <li>a request that is not a POST of an Avatica protobuf message gets
 *       HTTP 400 and one line of text;
 *   <li>a failed request gets HTTP 500 and Avatica's error response (which
 *       the thin client raises as an SQLException) carrying the message of
 *       the first SQLException among the causes and the first SQLSTATE among
 *       them (HY000 when none has one), and no server stack trace;
 *   <li>a request whose client goes away while it runs has its work cancelled
 *       ({@link ClientWatch});
 *   <li>at the paths {@value MnesticRemoteFactory#CANCEL} and
 *       {@value MnesticRemoteFactory#TIMEOUT}, mnestic's thin client asks to stop a
 *       statement's work.
 * </ul>
 */
final class ProtobufEndpoint extends AbstractHandler {
  private final ProtobufTranslation translation = new ProtobufTranslationImpl();
  private final ProtobufHandler handler;
  private final ClientWatch clients;
  private final ClientMeta meta;

  /**
   * Answers with {@code service} over {@code meta}; {@code clients} watches each request's
   * client while it runs.
   */
  ProtobufEndpoint(Service service, ClientMeta meta, ClientWatch clients) {
    this.meta = meta;
    this.clients = clients;
    this.handler = new ProtobufHandler(service, translation, NoopMetricsSystem.getInstance()) {
      @Override public HandlerResponse<byte[]> convertToErrorResponse(Exception e) {
        try {
          return new HandlerResponse<>(translation.serializeResponse(error(e)),
              HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
        } catch (IOException io) {
          throw new UncheckedIOException(io);
        }
      }
    };
  }

  @Override public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException {
    baseRequest.setHandled(true);
    if (!"POST".equals(request.getMethod())) {
      badRequest(response, "this server answers only POST requests of Avatica's protobuf"
          + " protocol");
      return;
    }
    final byte[] body = request.getInputStream().readAllBytes();
    final Service.Request parsed;
    try {
      // Parsed here to tell a malformed request (400) from a failed one (500): Avatica's
      // handler answers both alike.
      parsed = translation.parseRequest(body);
    } catch (IOException | RuntimeException e) {
      badRequest(response, "the body is not a request of Avatica's protobuf protocol");
      return;
    }
    final RunningStatement.Cause stop = target.equals(MnesticRemoteFactory.CANCEL)
        ? RunningStatement.Cause.CANCEL
        : target.equals(MnesticRemoteFactory.TIMEOUT) ? RunningStatement.Cause.TIMEOUT : null;
    if (stop != null) {
      stop(parsed, stop, response);
      return;
    }
    final HandlerResponse<byte[]> answer;
    try (ClientWatch.Watch watch = clients.watch(baseRequest.getHttpChannel().getEndPoint())) {
      answer = handler.apply(body);
    }
    response.setStatus(answer.getStatusCode());
    response.setContentType("application/octet-stream");
    response.getOutputStream().write(answer.getResponse());
  }

  /**
   * A request of mnestic's thin client to stop a statement's work ({@link MnesticRemoteFactory}):
   * a close-statement request naming it, at the path of the cause; the answer says whether
   * it executed.
   */
  private void stop(Service.Request request, RunningStatement.Cause why,
      HttpServletResponse response) throws IOException {
    if (!(request instanceof Service.CloseStatementRequest statement)) {
      badRequest(response, "a stop names its statement with a CloseStatementRequest");
      return;
    }
    final boolean stopped = meta.stop(statement.connectionId, statement.statementId, why);
    response.setContentType("text/plain;charset=utf-8");
    response.getOutputStream().write(
        (stopped ? MnesticRemoteFactory.STOPPED : MnesticRemoteFactory.IDLE)
            .getBytes(StandardCharsets.UTF_8));
  }

  private static void badRequest(HttpServletResponse response, String message)
      throws IOException {
    response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
    response.setContentType("text/plain;charset=utf-8");
    response.getOutputStream().write((message + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /** The error response for a failure: its message and SQLSTATE, no stack trace. */
  static ErrorResponse error(Exception e) {
    if (e instanceof AvaticaRuntimeException a) {
      return new ErrorResponse(List.of(), a.getErrorMessage(), a.getErrorCode(),
          a.getSqlState(), a.getSeverity(), null);
    }
    if (e instanceof NoSuchConnectionException) {
      // The code that tells the thin client its connection is gone (closed or expired).
      return new ErrorResponse(List.of(), "the connection is closed (by the client, or by the"
          + " server after it was idle past the server's idle timeout)",
          ErrorResponse.MISSING_CONNECTION_ERROR_CODE,
          "08003", AvaticaSeverity.ERROR, null);
    }
    SQLException first = null;
    String state = null;
    for (Throwable t = e; t != null && state == null; t = t.getCause()) {
      if (t instanceof NoSuchStatementException) {
        return new ErrorResponse(List.of(), "the statement is closed or expired",
            ErrorResponse.UNKNOWN_ERROR_CODE, "HY010", AvaticaSeverity.ERROR, null);
      }
      if (t instanceof SQLException s) {
        first = first != null ? first : s;
        state = s.getSQLState();
      }
    }
    final String message = first != null ? first.getMessage()
        : e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    return new ErrorResponse(List.of(), message,
        first != null ? first.getErrorCode() : ErrorResponse.UNKNOWN_ERROR_CODE,
        state != null ? state : "HY000", AvaticaSeverity.ERROR, null);
  }
}
