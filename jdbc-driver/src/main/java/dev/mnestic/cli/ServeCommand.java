package dev.mnestic.cli;

import dev.mnestic.server.MnesticServer;

import java.io.IOException;
import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code mnestic serve}: starts a {@link MnesticServer}, prints the JDBC URL
 * that clients connect with as one line on standard output, and serves until
 * the process is stopped, closing the server (and so the store) on the way
 * out.
 */
final class ServeCommand {
  static final String USAGE = """
      Usage: mnestic serve [OPTIONS]

      Serves a store to JDBC clients (the Avatica thin driver, DBeaver) over HTTP,
      prints the JDBC URL to connect with, and runs until stopped.

      Options:
            --host HOST              Address to bind (default: 127.0.0.1)
            --port PORT              Port to listen on; 0 picks a free one (default: 8765)
            --db PATH                The store: a directory (created on first use) or mem:NAME;
                                     default: a fresh in-memory store
            --user USER              Require HTTP BASIC authentication as USER ...
            --password PASSWORD      ... with PASSWORD (give both or neither)
            --idle-timeout SECONDS   Close client connections idle this long (default: never)
        -h, --help                   Show this help

      Exit status: 1 if the server cannot start, 2 for a bad command line.
      """;

  private static final Map<String, String> NAMES = Map.of(
      "--host", "host",
      "--port", "port",
      "--db", "db",
      "--user", "user",
      "--password", "password",
      "--idle-timeout", "idle-timeout");

  private ServeCommand() {
  }

  static int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
    final CommandLine commandLine = CommandLine.parse(args, NAMES, Set.copyOf(NAMES.values()));
    if (!commandLine.operands().isEmpty()) {
      throw new UsageException("unexpected argument '" + commandLine.operands().get(0) + "'");
    }
    final MnesticServer server = configure(commandLine).build();
    try {
      server.start();
    } catch (SQLException | IOException | RuntimeException e) {
      closeQuietly(server);
      out.flush();
      err.print("Error: cannot start the server: " + ErrorMessages.of(e) + "\n");
      return 1;
    }
    out.print(server.jdbcUrl() + "\n");
    out.flush();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(server), "mnestic-serve-stop"));
    try {
      server.join();
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closeQuietly(server);
      return 1;
    }
  }

  private static MnesticServer.Builder configure(CommandLine commandLine) throws UsageException {
    final MnesticServer.Builder builder = MnesticServer.newBuilder();
    final String user = commandLine.option("user");
    final String password = commandLine.option("password");
    if ((user == null) != (password == null)) {
      throw new UsageException("--user and --password go together; give both or neither");
    }
    try {
      if (commandLine.option("host") != null) {
        builder.host(commandLine.option("host"));
      }
      if (commandLine.option("port") != null) {
        builder.port(number("--port", commandLine.option("port")));
      }
      if (commandLine.option("db") != null) {
        builder.db(commandLine.option("db"));
      }
      if (user != null) {
        builder.credentials(user, password);
      }
      if (commandLine.option("idle-timeout") != null) {
        final int seconds = number("--idle-timeout", commandLine.option("idle-timeout"));
        if (seconds <= 0) {
          throw new UsageException("--idle-timeout must be a positive number of seconds, was "
              + seconds);
        }
        builder.idleTimeout(Duration.ofSeconds(seconds));
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return builder;
  }

  private static int number(String option, String value) throws UsageException {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new UsageException(option + " must be a whole number, was '" + value + "'");
    }
  }

  private static void closeQuietly(MnesticServer server) {
    try {
      server.close();
    } catch (SQLException | IOException | RuntimeException e) {
      // Stopping anyway; nothing left to report it to.
    }
  }
}
