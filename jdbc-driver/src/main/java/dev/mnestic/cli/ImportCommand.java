package dev.mnestic.cli;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.Engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code mnestic import}: loads CozoDB's relation-JSON into the store's
 * existing relations, as CozoDB's {@code import_relations} does, or CSV into a table
 * ({@link CsvImport}).
 */
final class ImportCommand {
  static final String USAGE = """
      Usage: mnestic import [OPTIONS] FILE.json
             mnestic import [OPTIONS] --csv FILE.csv TABLE

      Loads CozoDB's relation-JSON, {"rel": {"headers": [...], "rows": [[...], ...]}, ...},
      ('-' for standard input) into existing stored relations: each row is put, replacing
      the row with its key. All relations load in one transaction.

      With --csv, loads CSV (RFC 4180, UTF-8; '-' for standard input) into the existing
      TABLE, one transaction for the whole file: its first line names the columns (any
      order; the others take their defaults), each field converted to its column's type
      (empty: NULL; TIMESTAMP 2024-01-31 12:00:00.5; DATE 2024-01-31; binary as hex). A
      line that does not convert or that the table refuses stops the import, naming the
      line and column; nothing of the file is stored then.

      Options:
            --db PATH        The store: a directory (created on first use) or mem:NAME;
                             default: a fresh in-memory store
            --csv            Load CSV into TABLE instead of relation-JSON
            --no-header      With --csv: the first line is a row, every column in order
        -h, --help           Show this help

      Exit status: 0 on success, 1 if the import fails, 2 for a bad command line.
      """;

  private static final Map<String, String> NAMES =
      Map.of("--db", "db", "--csv", "csv", "--no-header", "no-header");
  private static final Set<String> VALUED = Set.of("db");

  private ImportCommand() {
  }

  static int run(List<String> args, InputStream in, PrintStream out, PrintStream err)
      throws UsageException {
    final CommandLine commandLine = CommandLine.parse(args, NAMES, VALUED);
    final List<String> operands = commandLine.operands();
    if (commandLine.option("csv") != null) {
      return csv(commandLine, in, out, err);
    }
    if (commandLine.option("no-header") != null) {
      throw new UsageException("--no-header needs --csv");
    }
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

  /** {@code mnestic import --csv FILE TABLE}. */
  private static int csv(CommandLine commandLine, InputStream in, PrintStream out,
      PrintStream err) throws UsageException {
    final List<String> operands = commandLine.operands();
    if (operands.size() != 2) {
      throw new UsageException("--csv expects FILE.csv and TABLE, got " + operands.size()
          + " argument" + (operands.size() == 1 ? "" : "s"));
    }
    final String file = operands.get(0);
    final InputStream reader;
    try {
      reader = file.equals("-") ? in : Files.newInputStream(Path.of(file));
    } catch (IOException e) {
      throw new UsageException("cannot read '" + file + "': " + (e instanceof NoSuchFileException
          ? "no such file" : e.getMessage()));
    }
    try (reader;
         Connection connection = SqlCommand.connect(commandLine.option("db"), null)) {
      CsvImport.load(connection, operands.get(1), commandLine.option("no-header") == null,
          reader);
      return 0;
    } catch (CsvImport.BadLine e) {
      return SqlCommand.fail(out, err, file + ", " + e.getMessage()
          + " (SQLSTATE " + e.sqlState + "); nothing was imported");
    } catch (IOException e) {
      return SqlCommand.fail(out, err, "cannot read '" + file + "': " + e.getMessage());
    } catch (SQLException | RuntimeException e) {
      return SqlCommand.fail(out, err, ErrorMessages.of(e));
    }
  }
}
