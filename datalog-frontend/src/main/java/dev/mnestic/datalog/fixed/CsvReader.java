package dev.mnestic.datalog.fixed;

import dev.mnestic.datalog.ast.Script;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.parse.Parser;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule;
import dev.mnestic.value.Functions;
import dev.mnestic.value.ValueException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * CozoDB's {@code CsvReader}: the records of the CSV file {@code url}, one row each, a column
 * per element of {@code types} ({@code 'Int'}, {@code 'Float?'}, ...), after the record's
 * index with {@code prepend_index} (default false). {@code delimiter} (default {@code ,}) is
 * one byte; {@code has_headers} (default true) skips the first record. Records may be of
 * any length (a missing field is null, where its type allows). A field becomes its type:
 * {@code Any} and {@code String} keep the text, {@code Float} and {@code Uuid} parse it as
 * {@code to_float} and {@code to_uuid} do, {@code Int} as a float that is whole; a field that
 * does not parse is null where the type is nullable, else an error. Reads only what the
 * engine's {@link ReadPolicy} allows.
 */
final class CsvReader implements FixedRule {
  static final String NAME = "CsvReader";

  private final ReadPolicy files;

  CsvReader(ReadPolicy files) {
    this.files = files;
  }

  @Override public int arity(Options options, List<String> head) {
    final OptionValues o = (OptionValues) options;
    final int index = Readers.indexColumns(o, NAME);
    o.option("types"); // fixed_rule::arg_not_found when missing
    if (!(o.value("types") instanceof List<?> types)) {
      throw Readers.noArity(NAME, "invalid option 'types' given, expect positive number or list");
    }
    return types.size() + index;
  }

  @Override public void run(Call call, Consumer<Object[]> out) {
    final OptionValues o = (OptionValues) call.options();
    final String delimiter = o.string("delimiter", ",");
    if (delimiter.getBytes(StandardCharsets.UTF_8).length != 1) {
      throw new ValueException(ErrorCode.FIXED_RULE_ARG_WRONG,
          "Wrong value for option 'delimiter' of 'CsvReader'",
          "'delimiter' must be a single-byte string");
    }
    final boolean prependIndex = o.bool("prepend_index", false);
    final boolean hasHeaders = o.bool("has_headers", true);
    final List<Script.ColumnType> types = types(o.value("types"));
    final String text = Readers.read(o, files, NAME);
    final List<List<String>> records = records(text, delimiter.charAt(0));
    long index = 0;
    for (int r = hasHeaders ? 1 : 0; r < records.size(); r++) {
      final List<String> record = records.get(r);
      final Object[] row = new Object[types.size() + (prependIndex ? 1 : 0)];
      int at = 0;
      if (prependIndex) {
        row[at++] = index++;
      }
      for (int i = 0; i < types.size(); i++) {
        row[at++] = field(i < record.size() ? record.get(i) : null, types.get(i));
      }
      out.accept(row);
      call.stop().check();
    }
  }

  /** Option {@code types}: a list of type names, each parsed as a column's type. */
  private static List<Script.ColumnType> types(Object value) {
    if (!(value instanceof List<?> names) || !names.stream().allMatch(n -> n instanceof String)) {
      throw new ValueException(ErrorCode.FIXED_RULE_ARG_WRONG,
          "Wrong value for option 'types' of 'CsvReader'", "a list of type names is required");
    }
    final List<Script.ColumnType> types = new ArrayList<>();
    for (Object name : names) {
      try {
        types.add(Parser.parseColumn("c: " + name).type());
      } catch (DatalogException e) {
        throw new ValueException(ErrorCode.FIXED_RULE_ARG_WRONG,
            "Wrong value for option 'types' of 'CsvReader'", e.getMessage());
      }
    }
    return types;
  }

  /** A field (null: the record has none) as its type wants it. */
  private static Object field(String text, Script.ColumnType type) {
    if (text == null) {
      if (type.nullable()) {
        return null;
      }
      throw Readers.failed("encountered null value when processing CSV when non-null required",
          null);
    }
    try {
      switch (type.base()) {
      case "Any":
      case "String":
        return text;
      case "Uuid":
        return Functions.to_uuid(text);
      case "Float":
        return Functions.to_float(text);
      case "Int":
        final Double f = floatOrNull(text);
        if (f != null && f == Math.rint(f) && !Double.isInfinite(f)) {
          return (long) (double) f;
        }
        break;
      default:
        break;
      }
    } catch (ValueException e) {
      if (type.nullable()) {
        return null;
      }
      throw e;
    }
    if (type.nullable() && type.base().equals("Int")) {
      return null;
    }
    throw Readers.failed("cannot convert " + text + " to type " + display(type), null);
  }

  /** {@code to_float} of {@code text}, null where it has none (as CozoDB reads an Int). */
  private static Double floatOrNull(String text) {
    try {
      return Functions.to_float(text);
    } catch (ValueException e) {
      return null;
    }
  }

  private static String display(Script.ColumnType type) {
    return type.base() + (type.nullable() ? "?" : "");
  }

  /**
   * The records of CSV text: fields split at {@code delimiter} outside double quotes (a quote
   * inside quotes written twice), records at line ends ({@code \n}, {@code \r\n}) outside
   * quotes; empty lines are no records.
   */
  static List<List<String>> records(String text, char delimiter) {
    final List<List<String>> records = new ArrayList<>();
    List<String> record = new ArrayList<>();
    final StringBuilder field = new StringBuilder();
    boolean quoted = false;
    boolean any = false;
    for (int i = 0; i < text.length(); i++) {
      final char c = text.charAt(i);
      if (quoted) {
        if (c == '"') {
          if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
            field.append('"');
            i++;
          } else {
            quoted = false;
          }
        } else {
          field.append(c);
        }
      } else if (c == '"') {
        quoted = true;
        any = true;
      } else if (c == delimiter) {
        record.add(field.toString());
        field.setLength(0);
        any = true;
      } else if (c == '\n' || c == '\r') {
        if (any || field.length() > 0) {
          record.add(field.toString());
          records.add(record);
        }
        record = new ArrayList<>();
        field.setLength(0);
        any = false;
        if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
          i++;
        }
      } else {
        field.append(c);
        any = true;
      }
    }
    if (any || field.length() > 0) {
      record.add(field.toString());
      records.add(record);
    }
    return records;
  }
}
