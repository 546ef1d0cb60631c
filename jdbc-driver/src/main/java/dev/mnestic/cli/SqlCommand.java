package dev.mnestic.cli;

import dev.mnestic.jdbc.Driver;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * {@code mnestic sql}: runs statements in order on one {@code jdbc:mnestic:}
 * connection (auto-commit on) and prints each result set; statements that
 * return an update count print nothing. Stops at the first failing
 * statement, with status 1.
 */
final class SqlCommand {
  static final String USAGE = """
      Usage: mnestic sql [OPTIONS] QUERY
             mnestic sql [OPTIONS] -f FILE

      Runs SQL statements, separated by ';', and prints each result set.
      Statements that change data or schema print nothing.

      Options:
        -f, --file FILE      Read the statements from FILE ('-' for standard input)
            --db PATH        The store: a directory (created on first use) or mem:NAME;
                             default: a fresh in-memory store
            --format FORMAT  table (default), json (one line per result set) or csv
        -h, --help           Show this help

      Exit status: 0 on success, 1 if a statement fails, 2 for a bad command line.
      """;

  private static final Map<String, String> NAMES = Map.of(
      "-f", "file", "--file", "file",
      "--db", "db",
      "--format", "format");
  private static final Set<String> VALUED = Set.of("file", "db", "format");

  private SqlCommand() {
  }

  static int run(List<String> args, InputStream in, PrintStream out, PrintStream err)
      throws UsageException {
    final CommandLine commandLine = CommandLine.parse(args, NAMES, VALUED);
    final String format = commandLine.option("format");
    final ResultFormat resultFormat = format == null ? ResultFormat.TABLE : ResultFormat.of(format);
    final List<SqlScript.Statement> statements = SqlScript.split(script(commandLine, in));

    try (Connection connection = connect(commandLine.option("db"), null);
         Statement statement = connection.createStatement()) {
      int resultSets = 0;
      for (SqlScript.Statement sql : statements) {
        try {
          if (statement.execute(sql.text())) {
            try (ResultSet rs = statement.getResultSet()) {
              if (resultSets++ > 0) {
                out.print(resultFormat.separator);
              }
              resultFormat.write(Rows.of(rs), out);
            }
          }
        } catch (SQLException | RuntimeException | ExceptionInInitializerError e) {
          return fail(out, err, ErrorMessages.of(e, sql));
        }
      }
      return 0;
    } catch (SQLException | RuntimeException e) {
      return fail(out, err, ErrorMessages.of(e));
    }
  }

  /** A {@code jdbc:mnestic:} connection to store {@code db} (null: in memory), in {@code lang} (null: SQL). */
  static Connection connect(String db, String lang) throws SQLException {
    return connect(db, lang, new Properties());
  }

  /** A connection to store {@code db} (null: a private in-memory one) in {@code lang}, with more {@code properties}. */
  static Connection connect(String db, String lang, Properties properties) throws SQLException {
    if (db != null) {
      properties.setProperty(Driver.DB, db);
    }
    if (lang != null) {
      properties.setProperty(Driver.LANG, lang);
    }
    return new Driver().connect(Driver.CONNECT_STRING_PREFIX, properties);
  }

  static int fail(PrintStream out, PrintStream err, String message) {
    out.flush();
    err.print("Error: " + message + "\n");
    err.flush();
    return 1;
  }

  /** The query operand, or the text of the {@code -f} file. */
  private static String script(CommandLine commandLine, InputStream in) throws UsageException {
    final String file = commandLine.option("file");
    final List<String> operands = commandLine.operands();
    if (file != null) {
      if (!operands.isEmpty()) {
        throw new UsageException("give either a query or -f FILE, not both");
      }
      return read(file, in);
    }
    if (operands.isEmpty()) {
      throw new UsageException("missing query (or -f FILE)");
    }
    if (operands.size() > 1) {
      throw new UsageException("expected one query, got " + operands.size()
          + " arguments (quote the query)");
    }
    return operands.get(0);
  }

  /** The text of {@code file}, UTF-8; {@code -} is {@code in}. */
  static String read(String file, InputStream in) throws UsageException {
    try {
      return file.equals("-")
          ? new String(in.readAllBytes(), StandardCharsets.UTF_8)
          : Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw unreadable(file, "no such file");
    } catch (AccessDeniedException e) {
      throw unreadable(file, "permission denied");
    } catch (CharacterCodingException e) {
      throw unreadable(file, "not UTF-8 text");
    } catch (IOException | InvalidPathException e) {
      throw unreadable(file, e.getMessage());
    }
  }

  private static UsageException unreadable(String file, String reason) {
    return new UsageException("cannot read '" + file + "': " + reason);
  }
}
