package dev.mnestic.cli;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.Engine;

import java.io.InputStream;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code mnestic import}: loads CozoDB's relation-JSON into the store's
 * existing relations, as CozoDB's {@code import_relations} does.
 */
final class ImportCommand {
  static final String USAGE = """
      Usage: mnestic import [OPTIONS] FILE.json

      Loads CozoDB's relation-JSON, {"rel": {"headers": [...], "rows": [[...], ...]}, ...},
      ('-' for standard input) into existing stored relations: each row is put, replacing
      the row with its key. All relations load in one transaction.

      Options:
            --db PATH        The store: a directory (created on first use) or mem:NAME;
                             default: a fresh in-memory store
        -h, --help           Show this help

      Exit status: 0 on success, 1 if the import fails, 2 for a bad command line.
      """;

  private static final Map<String, String> NAMES = Map.of("--db", "db");
  private static final Set<String> VALUED = Set.of("db");

  private ImportCommand() {
  }

  static int run(List<String> args, InputStream in, PrintStream out, PrintStream err)
      throws UsageException {
    final CommandLine commandLine = CommandLine.parse(args, NAMES, VALUED);
    final List<String> operands = commandLine.operands();
    if (operands.size() != 1) {
      throw new UsageException(operands.isEmpty() ? "missing FILE.json"
          : "expected one FILE.json, got " + operands.size() + " arguments");
    }
    final String json = SqlCommand.read(operands.get(0), in);
    try (Connection connection = SqlCommand.connect(commandLine.option("db"), null)) {
      new Engine(connection).importRelations(json);
      return 0;
    } catch (DatalogException e) {
      return SqlCommand.fail(out, err, e.render(null));
    } catch (SQLException | RuntimeException e) {
      return SqlCommand.fail(out, err, ErrorMessages.of(e));
    }
  }
}
