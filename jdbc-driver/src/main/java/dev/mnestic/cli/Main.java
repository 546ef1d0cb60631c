package dev.mnestic.cli;

import dev.mnestic.jdbc.Driver;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code mnestic} command line: {@code mnestic sql ...}, {@code run},
 * {@code import}, {@code serve}, {@code plan} and {@code follow}; see {@link #USAGE}.
 *
 * <p>Exit status: 0 on success, 1 when a statement or the server fails (the
 * message on standard error), 2 for a command line that cannot run (the
 * message and a hint to use {@code --help} on standard error). Output is
 * UTF-8.
 */
public final class Main {
  static final String USAGE = """
      Usage: mnestic COMMAND [OPTIONS]

      Commands:
        sql      Run SQL statements on a store and print their results
        run      Run a CozoScript (Datalog) script and print its rows
        import   Load CozoDB relation-JSON into stored relations, or CSV into a table
        serve    Serve a store to JDBC clients over HTTP
        plan     Plan a workload file of standing quantile queries and print the chosen plan
        follow   Print a standing query's rows as its windows close

      Options:
        -h, --help     Show this help; 'mnestic COMMAND --help' shows a command's options
        -V, --version  Show mnestic's version
      """;

  private Main() {
  }

  public static void main(String[] args) {
    final PrintStream out = new PrintStream(
        new BufferedOutputStream(new FileOutputStream(FileDescriptor.out)), false, StandardCharsets.UTF_8);
    final PrintStream err = new PrintStream(
        new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    final int status = run(args, out, err);
    out.flush();
    err.flush();
    System.exit(status);
  }

  /** Runs the command line {@code args}; returns the exit status. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, System.in, out, err);
  }

  /**
   * As {@link #run(String[], PrintStream, PrintStream)}, reading {@code -f -} from {@code in}:
   * the command line run in-process (the examples' tests run it so).
   */
  public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    final String command = args.length == 0 ? null : args[0];
    final List<String> rest = Arrays.asList(args).subList(Math.min(1, args.length), args.length);
    try {
      if (command == null) {
        throw new UsageException("missing command");
      }
      switch (command) {
      case "-h", "--help":
        out.print(USAGE);
        return 0;
      case "-V", "--version":
        out.print("mnestic " + Driver.version() + "\n");
        return 0;
      case "sql":
        return CommandLine.wantsHelp(rest) ? help(out, SqlCommand.USAGE)
            : SqlCommand.run(rest, in, out, err);
      case "run":
        return CommandLine.wantsHelp(rest) ? help(out, RunCommand.USAGE)
            : RunCommand.run(rest, in, out, err);
      case "import":
        return CommandLine.wantsHelp(rest) ? help(out, ImportCommand.USAGE)
            : ImportCommand.run(rest, in, out, err);
      case "serve":
        return CommandLine.wantsHelp(rest) ? help(out, ServeCommand.USAGE)
            : ServeCommand.run(rest, out, err);
      case "plan":
        return Driver.standingQueries().plan(rest, out, err);
      case "follow":
        return CommandLine.wantsHelp(rest) ? help(out, FollowCommand.USAGE)
            : FollowCommand.run(rest, out, err);
      default:
        throw new UsageException("unknown command '" + command + "'");
      }
    } catch (UsageException e) {
      final boolean known = command != null && List.of("sql", "run", "import", "serve", "follow")
          .contains(command);
      out.flush();
      err.print("Error: " + e.getMessage() + "\n"
          + "Run 'mnestic " + (known ? command + " " : "") + "--help' for usage.\n");
      return 2;
    } finally {
      out.flush();
      err.flush();
    }
  }

  private static int help(PrintStream out, String usage) {
    out.print(usage);
    return 0;
  }
}
