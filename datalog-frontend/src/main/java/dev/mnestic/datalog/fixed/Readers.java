package dev.mnestic.datalog.fixed;

import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.ValueException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** What {@link CsvReader} and {@link JsonReader} share: their file, their fixed width. */
final class Readers {
  private Readers() {
  }

  /** The text of option {@code url}'s file, if {@code files} lets {@code rule} read it. */
  static String read(OptionValues options, ReadPolicy files, String rule) {
    final String url = options.string("url", null);
    final Path path = files.file(url, rule);
    try {
      return Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw failed(rule + " cannot read " + url, e.toString());
    }
  }

  /**
   * 1 with {@code prepend_index: true}, 0 with false or none; anything else written there
   * ({@code parser::no_algo_arity}, as CozoDB: the option must be a boolean constant).
   */
  static int indexColumns(OptionValues options, String rule) {
    if (!options.has("prepend_index")) {
      return 0;
    }
    final Expr e = options.option("prepend_index");
    if ((e instanceof Expr.Literal || e instanceof Expr.Param)
        && options.value("prepend_index") instanceof Boolean b) {
      return b ? 1 : 0;
    }
    throw noArity(rule, "invalid option 'prepend_index' given, expect a boolean");
  }

  static ValueException noArity(String rule, String why) {
    return new ValueException(ErrorCode.PARSER_NO_ALGO_ARITY,
        "Cannot determine arity for algo " + rule + " since " + why, null);
  }

  /** A file that could not be read, or a row that could not be made from it. */
  static ValueException failed(String message, String help) {
    return new ValueException(ErrorCode.MNESTIC_READ_FAILED, message, help);
  }
}
