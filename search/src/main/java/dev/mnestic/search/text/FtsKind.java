package dev.mnestic.search.text;

import dev.mnestic.search.KeyedRows;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.Json;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.ValueException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * CozoDB's full-text index as a search-index kind: {@code ::fts create rel:idx {extractor,
 * extract_filter, tokenizer, filters}} ({@code cozo-core/src/parse/sys.rs}) and the atom {@code
 * ~rel:idx{... | query, k, score_kind: 'tf_idf' | 'tf', bind_score, filter}} ({@code
 * data/program.rs}), with CozoDB's checks and messages. The index is {@link FtsSearchIndex}.
 */
public final class FtsKind implements SearchIndex.Kind {
  /** The checked parameters of one search. */
  record Request(int k, FtsIndex.ScoreKind scoreKind, List<String> binds)
      implements SearchIndex.Request {}

  @Override
  public String name() {
    return "fts";
  }

  @Override
  public List<String> bindParameters() {
    return List.of("bind_score");
  }

  @Override
  public SearchIndex.Definition define(
      String name, SearchIndex.Columns relation, Map<String, Object> options) {
    String extractor = "";
    String extractFilter = "";
    TextAnalyzer.Config tokenizer = TextAnalyzer.Config.of("");
    List<TextAnalyzer.Config> filters = new ArrayList<>();
    for (Map.Entry<String, Object> o : options.entrySet()) {
      switch (o.getKey()) {
        case "extractor" -> extractor = (String) o.getValue();
        case "extract_filter" -> extractFilter = (String) o.getValue();
        case "tokenizer" -> tokenizer = config(o.getValue());
        case "filters" -> filters = filters(o.getValue());
        default -> throw failure("Unknown option " + o.getKey() + " for FTS index");
      }
    }
    analyzer(tokenizer, filters);
    Map<String, Object> canonical = new LinkedHashMap<>();
    canonical.put("extractor", extractor);
    if (!extractFilter.isEmpty()) {
      // CozoDB folds it into the extractor as if(extract_filter, extractor)
      canonical.put("extract_filter", extractFilter);
    }
    canonical.put("tokenizer", Json.object(tokenizer.describe()));
    canonical.put("tokenizer_filters", describe(filters));
    return new SearchIndex.Definition(name(), name, Json.object(canonical));
  }

  @Override
  public SearchIndex create(
      SearchIndex.Definition definition,
      SearchIndex.Columns relation,
      SearchIndex.RowFilter filter,
      Function<String, SearchIndex.RowFunction> compile) {
    return new FtsSearchIndex(
        analyzerOf(definition), relation, FtsKind.extractor(definition, compile));
  }

  /** CozoDB's {@code rel:idx}: the term, the row's key, where the term is in its text. */
  @Override
  public List<SearchIndex.RelationColumn> relationColumns(
      SearchIndex.Definition definition, SearchIndex.Columns relation, String part) {
    if (!part.isEmpty()) {
      return null;
    }
    List<SearchIndex.RelationColumn> columns = new ArrayList<>();
    columns.add(new SearchIndex.RelationColumn("word", true, "String"));
    columns.addAll(KeyedRows.keyColumns("src_", relation));
    for (String list : List.of("offset_from", "offset_to", "position")) {
      columns.add(new SearchIndex.RelationColumn(list, false, "[Int]"));
    }
    columns.add(new SearchIndex.RelationColumn("total_length", false, "Int"));
    return columns;
  }

  @Override
  public SearchIndex.Request request(
      SearchIndex.Definition definition,
      SearchIndex.Columns relation,
      Map<String, Object> parameters) {
    Map<String, Object> left = new LinkedHashMap<>(parameters);
    Object k = left.remove("k");
    if (k == null) {
      // CozoDB's message, which names HNSW
      throw new ValueException(
          ErrorCode.PARSER_HNSW_QUERY_REQUIRED, "Field `k` is required for HNSW search", null);
    }
    if (!(k instanceof Long) || (Long) k <= 0) {
      throw new ValueException(
          ErrorCode.PARSER_EXPECTED_INT_FOR_HNSW_K, "Expected positive integer for `k`", null);
    }
    FtsIndex.ScoreKind scoreKind = FtsIndex.ScoreKind.TF_IDF;
    if (left.containsKey("score_kind")) {
      Object s = left.remove("score_kind");
      if (!(s instanceof String)) {
        throw failure("Score kind for FTS must be a string");
      }
      scoreKind =
          switch ((String) s) {
            case "tf_idf" -> FtsIndex.ScoreKind.TF_IDF;
            case "tf" -> FtsIndex.ScoreKind.TF;
            default -> throw failure("Unknown score kind for FTS: " + s);
          };
    }
    List<String> binds = new ArrayList<>();
    if (left.remove("bind_score") != null) {
      binds.add("bind_score");
    }
    if (!left.isEmpty()) {
      throw failure("Unknown parameters for FTS: " + left.keySet());
    }
    return new Request((int) Math.min(Integer.MAX_VALUE, (Long) k), scoreKind, binds);
  }

  /**
   * The definition's extractor over a row: null where its {@code extract_filter} (if any) is
   * not true, as CozoDB's {@code if(extract_filter, extractor)}.
   */
  public static SearchIndex.RowFunction extractor(
      SearchIndex.Definition definition, Function<String, SearchIndex.RowFunction> compile) {
    SearchIndex.RowFunction extractor = compile.apply((String) definition.option("extractor"));
    Object filterText = definition.option("extract_filter");
    if (filterText == null) {
      return extractor;
    }
    SearchIndex.RowFunction filter = compile.apply((String) filterText);
    return row -> Boolean.TRUE.equals(filter.apply(row)) ? extractor.apply(row) : null;
  }

  /** The analyzer a definition names (its {@code tokenizer} and {@code tokenizer_filters}). */
  public static TextAnalyzer analyzerOf(SearchIndex.Definition definition) {
    TextAnalyzer.Config tokenizer =
        TextAnalyzer.Config.fromDescription(definition.option("tokenizer"));
    List<TextAnalyzer.Config> filters = new ArrayList<>();
    for (Object f : (List<?>) definition.option("tokenizer_filters")) {
      filters.add(TextAnalyzer.Config.fromDescription(f));
    }
    return analyzer(tokenizer, filters);
  }

  /** The tokenizer option's config (CozoDB's message when it is not a name or a call). */
  public static TextAnalyzer.Config config(Object option) {
    try {
      return TextAnalyzer.Config.ofOption(option);
    } catch (IllegalArgumentException e) {
      throw failure(e.getMessage());
    }
  }

  /** The filters option's configs; CozoDB refuses anything but a non-empty list. */
  public static List<TextAnalyzer.Config> filters(Object option) {
    if (!(option instanceof List<?> l) || l.isEmpty()) {
      throw failure("Filters must be a list of filters");
    }
    List<TextAnalyzer.Config> out = new ArrayList<>();
    for (Object f : l) {
      out.add(config(f));
    }
    return out;
  }

  /** The configs as {@code ::indices} shows them. */
  public static List<Object> describe(List<TextAnalyzer.Config> configs) {
    List<Object> out = new ArrayList<>();
    for (TextAnalyzer.Config c : configs) {
      out.add(Json.object(c.describe()));
    }
    return out;
  }

  /** The analyzer, or CozoDB's message for a bad tokenizer or filter. */
  public static TextAnalyzer analyzer(
      TextAnalyzer.Config tokenizer, List<TextAnalyzer.Config> filters) {
    try {
      return TextAnalyzer.of(tokenizer, filters);
    } catch (IllegalArgumentException e) {
      throw failure(e.getMessage());
    }
  }

  /** A failure CozoDB reports with a message and no code. */
  static ValueException failure(String message) {
    return new ValueException(null, message, null);
  }
}
