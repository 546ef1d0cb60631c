package dev.mnestic.datalog.fixed;

import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule;
import dev.mnestic.value.Json;
import dev.mnestic.value.ValueException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * CozoDB's {@code JsonReader}: the objects of the JSON file {@code url}, one row each, a column
 * per name of {@code fields}, after the object's index with {@code prepend_index} (default
 * false). With {@code json_lines} (default true) each non-blank line is an object, else the
 * file is one array of objects. A field an object lacks is null with {@code null_if_absent}
 * (default false), else an error. Values are CozoDB's reading of JSON: integers Ints, other
 * numbers Floats, arrays lists, objects Json. Reads only what the engine's
 * {@link ReadPolicy} allows.
 */
final class JsonReader implements FixedRule {
  static final String NAME = "JsonReader";

  private final ReadPolicy files;

  JsonReader(ReadPolicy files) {
    this.files = files;
  }

  @Override public int arity(Options options, List<String> head) {
    final OptionValues o = (OptionValues) options;
    final int index = Readers.indexColumns(o, NAME);
    if (!o.has("fields")) {
      throw Readers.noArity(NAME, "option 'fields' not provided");
    }
    if (!(o.value("fields") instanceof List<?> fields)) {
      throw Readers.noArity(NAME, "invalid option 'fields' given, expect a list");
    }
    return fields.size() + index;
  }

  @Override public void run(Call call, Consumer<Object[]> out) {
    final OptionValues o = (OptionValues) call.options();
    final String url = o.string("url", null);
    final boolean jsonLines = o.bool("json_lines", true);
    final boolean nullIfAbsent = o.bool("null_if_absent", false);
    final boolean prependIndex = o.bool("prepend_index", false);
    final List<String> fields = new ArrayList<>();
    if (!(o.value("fields") instanceof List<?> names)) {
      throw badFields();
    }
    for (Object name : names) {
      if (!(name instanceof String s)) {
        throw badFields();
      }
      fields.add(s);
    }
    final String text = Readers.read(o, files, NAME);
    final List<Object> objects = new ArrayList<>();
    if (jsonLines) {
      for (String line : text.split("\n", -1)) {
        if (!line.trim().isEmpty()) {
          objects.add(parse(line.trim(), url));
        }
      }
    } else if (parse(text, url) instanceof List<?> all) {
      objects.addAll(all);
    } else {
      throw Readers.failed(NAME + " cannot read " + url, "the file is not a JSON array of objects");
    }
    long index = 0;
    for (Object object : objects) {
      if (!(object instanceof Map<?, ?> members)) {
        throw Readers.failed(NAME + " cannot read " + url, "a row is not a JSON object: "
            + Json.toValue(object));
      }
      final Object[] row = new Object[fields.size() + (prependIndex ? 1 : 0)];
      int at = 0;
      if (prependIndex) {
        row[at++] = index++;
      }
      for (String field : fields) {
        if (members.containsKey(field)) {
          row[at++] = Json.toValue(members.get(field));
        } else if (nullIfAbsent) {
          row[at++] = null;
        } else {
          throw Readers.failed("field " + field + " is absent from JSON line", null);
        }
      }
      out.accept(row);
      call.stop().check();
    }
  }

  private static Object parse(String json, String url) {
    try {
      return Json.parse(json).tree();
    } catch (IllegalArgumentException e) {
      throw Readers.failed(NAME + " cannot read " + url, "not valid JSON: " + e.getMessage());
    }
  }

  private static ValueException badFields() {
    return new ValueException(ErrorCode.EVAL_ALGO_BAD_FIELDS,
        "fields specification must be a list of strings", null);
  }
}
