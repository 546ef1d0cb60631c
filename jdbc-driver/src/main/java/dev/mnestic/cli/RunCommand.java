package dev.mnestic.cli;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.Engine;
import dev.mnestic.jdbc.Driver;

import java.io.InputStream;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * {@code mnestic run}: runs a CozoScript script on a {@code jdbc:mnestic:}
 * connection ({@code lang=datalog}) and prints the entry rule's rows, their values as CozoDB
 * writes them ({@link Rows#of(Engine.Result)}).
 */
final class RunCommand {
  static final String USAGE = """
      Usage: mnestic run [OPTIONS] FILE

      Runs a CozoScript script (FILE, or '-' for standard input) and prints
      the rows of its entry rule ?[...], values as CozoDB's JSON writes them
      (bytes in Base64, "INFINITY", NaN as null); a script ending in
      %return a, b prints each result in turn. Stored relations are the
      store's tables.

      Options:
            --db PATH        The store: a directory (created on first use) or mem:NAME;
                             default: a fresh in-memory store
            --format FORMAT  table (default), json or csv
            --param NAME=JSON
                             Binds $NAME to a JSON value (integers are Ints, other
                             numbers Floats, arrays Lists); may be repeated
        -h, --help           Show this help

      Exit status: 0 on success, 1 if the script fails, 2 for a bad command line.
      """;

  private static final Map<String, String> NAMES =
      Map.of("--db", "db", "--format", "format", "--param", "param");
  private static final Set<String> VALUED = Set.of("db", "format", "param");

  private RunCommand() {
  }

  static int run(List<String> args, InputStream in, PrintStream out, PrintStream err)
      throws UsageException {
    final CommandLine commandLine = CommandLine.parse(args, NAMES, VALUED, Set.of("param"));
    final String format = commandLine.option("format");
    final ResultFormat resultFormat = format == null ? ResultFormat.TABLE : ResultFormat.of(format);
    final List<String> operands = commandLine.operands();
    if (operands.size() != 1) {
      throw new UsageException(operands.isEmpty() ? "missing script FILE"
          : "expected one script FILE, got " + operands.size() + " arguments");
    }
    final Map<String, Object> params = params(commandLine.values("param"));
    final String script = SqlCommand.read(operands.get(0), in);
    // bin/mnestic says whether stderr is a terminal; Java cannot tell.
    final Properties properties = new Properties();
    if ("1".equals(System.getenv("MNESTIC_STDERR_TTY"))) {
      properties.setProperty(Driver.PROGRESS, Driver.STDERR);
    }
    try (Connection connection =
             SqlCommand.connect(commandLine.option("db"), Driver.DATALOG, properties);
         PreparedStatement statement = connection.prepareStatement(script)) {
      // the statement's parameters are the script's $names in order of first appearance
      final List<String> names = Engine.describe(script).parameters();
      for (int i = 0; i < names.size(); i++) {
        if (!params.containsKey(names.get(i))) {
          return SqlCommand.fail(out, err, "the script uses $" + names.get(i)
              + ", which no --param " + names.get(i) + "=JSON gives");
        }
        statement.setObject(i + 1, params.get(names.get(i)));
      }
      try (ResultSet rs = statement.executeQuery()) {
        // the script's values as the engine gave them: JDBC's have a Json value as its text;
        // %return a, b: each result after the one before, as SQL scripts' result sets are
        final Engine.Result first = rs.unwrap(Engine.Result.class);
        for (Engine.Result result = first; result != null; result = result.next()) {
          if (result != first) {
            out.print(resultFormat.separator);
          }
          resultFormat.write(Rows.of(result), out);
        }
      }
      return 0;
    } catch (SQLException | RuntimeException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof DatalogException) {
          out.flush();
          err.print(((DatalogException) t).report(script));
          err.flush();
          return 1;
        }
      }
      return SqlCommand.fail(out, err, ErrorMessages.of(e));
    }
  }

  /** {@code --param NAME=JSON} values by name. */
  private static Map<String, Object> params(List<String> specs) throws UsageException {
    final Map<String, Object> params = new HashMap<>();
    for (String spec : specs) {
      final int eq = spec.indexOf('=');
      if (eq <= 0) {
        throw new UsageException("--param takes NAME=JSON, got '" + spec + "'");
      }
      final String name = spec.substring(0, eq);
      try {
        params.put(name, Engine.jsonValue(spec.substring(eq + 1)));
      } catch (DatalogException e) {
        throw new UsageException("--param " + name + ": " + e.getMessage());
      }
    }
    return params;
  }
}
