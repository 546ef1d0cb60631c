package dev.mnestic.cli;

import dev.mnestic.server.MnesticServer;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code mnestic serve}: starts a {@link MnesticServer}, prints the JDBC URL
 * that clients connect with as one line on standard output (with
 * {@code --remote-write}, then a line {@code remote write: URL}), and serves until
 * the process is stopped, closing the server (and so the store) on the way
 * out.
 */
final class ServeCommand {
  static final String USAGE = """
      Usage: mnestic serve [OPTIONS]

      Serves a store to JDBC clients (the Avatica thin driver, DBeaver) over HTTP,
      prints the JDBC URL to connect with, and runs until stopped.

      Options:
            --host HOST                  Address to bind (default: 127.0.0.1); any address but
                                         loopback needs --user and --password
            --port PORT                  Port to listen on; 0 picks a free one (default: 8765)
            --db PATH                    The store: a directory (created on first use) or
                                         mem:NAME; default: a fresh in-memory store
            --user USER                  Require HTTP BASIC authentication as USER ...
            --password PASSWORD          ... with PASSWORD (give both or neither; kept in
                                         memory only)
            --tls-cert FILE              Serve HTTPS with this PEM certificate chain ...
            --tls-key FILE               ... and this PEM private key (unencrypted PKCS#8, as
                                         openssl writes it; give both or neither)
            --idle-timeout SECONDS       Close client connections idle this long, rolling
                                         back their transactions (default: 600)
            --statement-timeout SECONDS  Stop any statement running longer (default: no limit);
                                         a client's statementTimeout property may lower it
            --max-statements N           Execute at most N statements at once over all clients;
                                         past it a statement fails with SQLSTATE 53000
                                         (default: no limit)
            --statement-memory BYTES     The most heap one statement may hold; past it the
                                         statement fails with SQLSTATE 53200 (default: no limit)
            --allow-read DIR             Let scripts' CsvReader and JsonReader read the files
                                         under DIR (default: no file at all)
            --remote-write PORT          Also take Prometheus remote write (1.0) on PORT, at
                                         /api/v1/write, into the table prometheus_samples
                                         (created if missing); 0 picks a free port
        -h, --help                       Show this help

      A client may set only the connection properties lang (sql or datalog) and
      statementTimeout; any other is refused. A client that goes away mid-statement
      has the statement cancelled. SIGTERM (or Ctrl-C) cancels running statements and
      stops.

      Exit status: 1 if the server cannot start, 2 for a bad command line.
      """;

  private static final Map<String, String> NAMES = Map.ofEntries(
      Map.entry("--host", "host"),
      Map.entry("--port", "port"),
      Map.entry("--db", "db"),
      Map.entry("--user", "user"),
      Map.entry("--password", "password"),
      Map.entry("--tls-cert", "tls-cert"),
      Map.entry("--tls-key", "tls-key"),
      Map.entry("--idle-timeout", "idle-timeout"),
      Map.entry("--statement-timeout", "statement-timeout"),
      Map.entry("--max-statements", "max-statements"),
      Map.entry("--statement-memory", "statement-memory"),
      Map.entry("--allow-read", "allow-read"),
      Map.entry("--remote-write", "remote-write"));

  private ServeCommand() {
  }

  static int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
    final CommandLine commandLine = CommandLine.parse(args, NAMES, Set.copyOf(NAMES.values()));
    if (!commandLine.operands().isEmpty()) {
      throw new UsageException("unexpected argument '" + commandLine.operands().get(0) + "'");
    }
    final MnesticServer server = configure(commandLine);
    try {
      server.start();
    } catch (SQLException | IOException | RuntimeException e) {
      closeQuietly(server);
      out.flush();
      err.print("Error: cannot start the server: " + ErrorMessages.of(e) + "\n");
      return 1;
    }
    out.print(server.jdbcUrl() + "\n");
    if (server.remoteWriteUrl() != null) {
      out.print("remote write: " + server.remoteWriteUrl() + "\n");
    }
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

  private static MnesticServer configure(CommandLine commandLine) throws UsageException {
    final MnesticServer.Builder builder = MnesticServer.newBuilder();
    final String user = commandLine.option("user");
    final String password = commandLine.option("password");
    if ((user == null) != (password == null)) {
      throw new UsageException("--user and --password go together; give both or neither");
    }
    final String tlsCert = commandLine.option("tls-cert");
    final String tlsKey = commandLine.option("tls-key");
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new UsageException("--tls-cert and --tls-key go together; give both or neither");
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
      if (tlsCert != null) {
        builder.tls(Path.of(tlsCert), Path.of(tlsKey));
      }
      if (commandLine.option("statement-timeout") != null) {
        builder.statementTimeout(positive("--statement-timeout",
            commandLine.option("statement-timeout")));
      }
      if (commandLine.option("max-statements") != null) {
        builder.maxStatements(positive("--max-statements", commandLine.option("max-statements")));
      }
      if (commandLine.option("statement-memory") != null) {
        final String value = commandLine.option("statement-memory");
        final long bytes;
        try {
          bytes = Long.parseLong(value);
        } catch (NumberFormatException e) {
          throw new UsageException("--statement-memory must be a whole number of bytes, was '"
              + value + "'");
        }
        if (bytes <= 0) {
          throw new UsageException("--statement-memory must be positive, was " + bytes);
        }
        builder.statementMemory(bytes);
      }
      if (commandLine.option("remote-write") != null) {
        builder.remoteWritePort(number("--remote-write", commandLine.option("remote-write")));
      }
      if (commandLine.option("allow-read") != null) {
        builder.allowRead(Paths.get(commandLine.option("allow-read")));
      }
      return builder.build();
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  private static int positive(String option, String value) throws UsageException {
    final int n = number(option, value);
    if (n <= 0) {
      throw new UsageException(option + " must be positive, was " + n);
    }
    return n;
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
