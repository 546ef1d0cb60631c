package dev.mnestic.cli;

import dev.mnestic.datalog.DatalogException;
import dev.mnestic.jdbc.Driver;

import java.io.InputStream;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code mnestic run}: runs a CozoScript script on a {@code jdbc:mnestic:}
 * connection ({@code lang=datalog}) and prints the entry rule's rows.
 */
final class RunCommand {
  static final String USAGE = """
      Usage: mnestic run [OPTIONS] FILE

      Runs a CozoScript script (FILE, or '-' for standard input) and prints
      the rows of its entry rule ?[...]. Stored relations are the store's tables.

      Options:
            --db PATH        The store: a directory (created on first use) or mem:NAME;
                             default: a fresh in-memory store
            --format FORMAT  table (default), json or csv
        -h, --help           Show this help

      Exit status: 0 on success, 1 if the script fails, 2 for a bad command line.
      """;

  private static final Map<String, String> NAMES = Map.of("--db", "db", "--format", "format");
  private static final Set<String> VALUED = Set.of("db", "format");

  private RunCommand() {
  }

  static int run(List<String> args, InputStream in, PrintStream out, PrintStream err)
      throws UsageException {
    final CommandLine commandLine = CommandLine.parse(args, NAMES, VALUED);
    final String format = commandLine.option("format");
    final ResultFormat resultFormat = format == null ? ResultFormat.TABLE : ResultFormat.of(format);
    final List<String> operands = commandLine.operands();
    if (operands.size() != 1) {
      throw new UsageException(operands.isEmpty() ? "missing script FILE"
          : "expected one script FILE, got " + operands.size() + " arguments");
    }
    final String script = SqlCommand.read(operands.get(0), in);
    try (Connection connection = SqlCommand.connect(commandLine.option("db"), Driver.DATALOG);
         Statement statement = connection.createStatement();
         ResultSet rs = statement.executeQuery(script)) {
      resultFormat.write(rs, out);
      return 0;
    } catch (SQLException | RuntimeException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof DatalogException) {
          return SqlCommand.fail(out, err, ((DatalogException) t).render(script));
        }
      }
      return SqlCommand.fail(out, err, ErrorMessages.of(e));
    }
  }
}
