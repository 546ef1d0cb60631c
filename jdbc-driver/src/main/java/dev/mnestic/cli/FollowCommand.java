package dev.mnestic.cli;

import dev.mnestic.jdbc.Driver;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * {@code mnestic follow NAME}: follows a standing query ({@code SELECT STREAM * FROM NAME}) and
 * prints each window's row, as CSV, as the window closes (each line written out at once). It
 * runs until stopped (Ctrl-C), or until {@code --rows} rows were printed.
 */
final class FollowCommand {
  static final String USAGE = """
      Usage: mnestic follow [OPTIONS] NAME

      Follows the standing query NAME: prints a CSV header, then each window's row as
      the window closes (its end plus the allowed lateness has passed), until stopped.

      Options:
            --db PATH        The store: a directory or mem:NAME (its file store must not
                             be open in another process; follow a served store with --url)
            --url URL        A server's URL instead (jdbc:mnestic:remote:url=http://...)
            --lateness MS    The allowed lateness of rows, in milliseconds (default 5000):
                             a window's row is printed once its end plus this has passed
            --rows N         Stop after N rows
        -h, --help           Show this help

      Exit status: 0 after --rows rows, 1 if following fails, 2 for a bad command line.
      """;

  private static final Map<String, String> NAMES = Map.of(
      "--db", "db", "--url", "url", "--lateness", "lateness", "--rows", "rows");
  private static final Set<String> VALUED = Set.of("db", "url", "lateness", "rows");

  private FollowCommand() {
  }

  static int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
    final CommandLine commandLine = CommandLine.parse(args, NAMES, VALUED);
    if (commandLine.operands().size() != 1) {
      throw new UsageException("expected the name of one standing query, got "
          + commandLine.operands().size() + " arguments");
    }
    if (commandLine.option("db") != null && commandLine.option("url") != null) {
      throw new UsageException("give either --db or --url, not both");
    }
    final long rows = commandLine.option("rows") == null ? Long.MAX_VALUE
        : positive("--rows", commandLine.option("rows"));
    final Properties properties = new Properties();
    if (commandLine.option("lateness") != null) {
      properties.setProperty(Driver.FOLLOW_LATENESS, commandLine.option("lateness"));
    }
    // a line per row, written out as it comes
    final PrintStream lines = new PrintStream(out, true, StandardCharsets.UTF_8);
    final String sql = "SELECT STREAM * FROM \""
        + commandLine.operands().get(0).replace("\"", "\"\"") + "\"";
    try (Connection connection = commandLine.option("url") != null
            ? DriverManager.getConnection(commandLine.option("url"), properties)
            : SqlCommand.connect(commandLine.option("db"), null, properties);
         Statement statement = connection.createStatement();
         ResultSet rs = statement.executeQuery(sql)) {
      ResultFormat.csv(Rows.of(rs), lines, rows);
      return 0;
    } catch (SQLException | RuntimeException e) {
      return SqlCommand.fail(lines, err, ErrorMessages.of(e));
    }
  }

  private static long positive(String option, String value) throws UsageException {
    try {
      final long n = Long.parseLong(value);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // the message below says what is expected
    }
    throw new UsageException(option + " must be a positive whole number, was '" + value + "'");
  }
}
