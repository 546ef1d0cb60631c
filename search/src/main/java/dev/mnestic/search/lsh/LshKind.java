package dev.mnestic.search.lsh;

import dev.mnestic.search.KeyedRows;
import dev.mnestic.search.text.FtsKind;
import dev.mnestic.search.text.TextAnalyzer;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.Json;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.ValueException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * CozoDB's MinHash-LSH index as a search-index kind: {@code ::lsh create rel:idx {extractor,
 * extract_filter, tokenizer, filters, n_gram: 1, n_perm: 200, target_threshold: 0.9,
 * false_positive_weight: 1.0, false_negative_weight: 1.0}} ({@code cozo-core/src/parse/
 * sys.rs}) and the atom {@code ~rel:idx{... | query, k, filter}} ({@code data/program.rs}),
 * with CozoDB's checks and messages. The index is {@link LshSearchIndex}.
 *
 * <p>CozoDB draws the permutations' seeds at random and keeps them with the index; here they
 * come from a generator seeded by the index's name and canonical options, so that an index
 * rebuilt from its definition (a reopened store) has the same ones.
 */
public final class LshKind implements SearchIndex.Kind {
  /** The checked parameters of one search; {@code k} null for none. */
  record Request(Integer k) implements SearchIndex.Request {
    @Override
    public List<String> binds() {
      return List.of();
    }
  }

  @Override
  public String name() {
    return "lsh";
  }

  /**
   * None that LSH search takes; {@code bind_similarity} is read as a variable only so that
   * {@link #request} refuses it with CozoDB's error (CozoDB 0.7.6 has no such parameter).
   */
  @Override
  public List<String> bindParameters() {
    return List.of("bind_similarity");
  }

  @Override
  public SearchIndex.Definition define(
      String name, SearchIndex.Columns relation, Map<String, Object> options) {
    String extractor = "";
    String extractFilter = "";
    TextAnalyzer.Config tokenizer = TextAnalyzer.Config.of("");
    List<TextAnalyzer.Config> filters = new ArrayList<>();
    long nGram = 1;
    long nPerm = 200;
    double threshold = 0.9;
    double fpWeight = 1.0;
    double fnWeight = 1.0;
    for (Map.Entry<String, Object> o : options.entrySet()) {
      Object v = o.getValue();
      switch (o.getKey()) {
        case "false_positive_weight" -> fpWeight = number(v, "false_positive_weight must be a float");
        case "false_negative_weight" -> fnWeight = number(v, "false_negative_weight must be a float");
        case "n_gram" -> nGram = integer(v, "n_gram must be an integer");
        case "n_perm" -> nPerm = integer(v, "n_perm must be an integer");
        case "target_threshold" -> threshold = number(v, "target_threshold must be a float");
        case "extractor" -> extractor = (String) v;
        case "extract_filter" -> extractFilter = (String) v;
        case "tokenizer" -> tokenizer = FtsKind.config(v);
        case "filters" -> filters = FtsKind.filters(v);
        default -> throw failure("Unknown option " + o.getKey() + " for LSH index");
      }
    }
    check(fpWeight > 0, "false_positive_weight must be positive");
    check(fnWeight > 0, "false_negative_weight must be positive");
    check(nGram > 0, "n_gram must be positive");
    check(nPerm > 0, "n_perm must be positive");
    check(threshold > 0 && threshold < 1, "target_threshold must be between 0 and 1");
    FtsKind.analyzer(tokenizer, filters);
    LshParams params = LshParams.optimal(threshold, (int) nPerm, fpWeight, fnWeight);
    Map<String, Object> canonical = new LinkedHashMap<>();
    canonical.put("extractor", extractor);
    if (!extractFilter.isEmpty()) {
      // CozoDB folds it into the extractor as if(extract_filter, extractor)
      canonical.put("extract_filter", extractFilter);
    }
    canonical.put("n_bands", (long) params.bands());
    canonical.put("n_gram", nGram);
    canonical.put("n_rows_in_band", (long) params.rows());
    // CozoDB keeps (and hashes with) bands x rows permutations, not the n_perm asked
    canonical.put("num_perm", (long) params.bands() * params.rows());
    canonical.put("threshold", threshold);
    canonical.put("tokenizer", Json.object(tokenizer.describe()));
    canonical.put("tokenizer_filters", FtsKind.describe(filters));
    return new SearchIndex.Definition(name(), name, Json.object(canonical));
  }

  @Override
  public SearchIndex create(
      SearchIndex.Definition definition,
      SearchIndex.Columns relation,
      SearchIndex.RowFilter filter,
      Function<String, SearchIndex.RowFunction> compile) {
    TextAnalyzer analyzer = FtsKind.analyzerOf(definition);
    int nPerm = ((Number) definition.option("num_perm")).intValue();
    long seed = (definition.name() + "\u0000" + definition.options().text()).hashCode();
    int[] perms = MinHash.permutations(nPerm, new SplittableRandom(seed));
    LshParams params =
        new LshParams(
            ((Number) definition.option("n_bands")).intValue(),
            ((Number) definition.option("n_rows_in_band")).intValue());
    LshIndex<List<Object>> index =
        new LshIndex<>(
            analyzer,
            ((Number) definition.option("n_gram")).intValue(),
            params,
            perms,
            dev.mnestic.search.KeyedRows::compareKeys);
    return new LshSearchIndex(
        index, relation, FtsKind.extractor(definition, compile));
  }

  /**
   * CozoDB's {@code rel:idx} (a bucket's bytes, the row's key) and {@code rel:idx:inv} (the
   * row's key, its buckets).
   */
  @Override
  public List<SearchIndex.RelationColumn> relationColumns(
      SearchIndex.Definition definition, SearchIndex.Columns relation, String part) {
    List<SearchIndex.RelationColumn> columns = new ArrayList<>();
    if (part.isEmpty()) {
      columns.add(new SearchIndex.RelationColumn("hash", true, "Bytes"));
      columns.addAll(KeyedRows.keyColumns("src_", relation));
    } else if (part.equals("inv")) {
      columns.addAll(KeyedRows.keyColumns("", relation));
      columns.add(new SearchIndex.RelationColumn("minhash", false, "Bytes"));
    } else {
      return null;
    }
    return columns;
  }

  @Override
  public SearchIndex.Request request(
      SearchIndex.Definition definition,
      SearchIndex.Columns relation,
      Map<String, Object> parameters) {
    Map<String, Object> left = new LinkedHashMap<>(parameters);
    Integer k = null;
    if (left.containsKey("k")) {
      Object v = left.remove("k");
      if (!(v instanceof Long) || (Long) v <= 0) {
        throw new ValueException(
            ErrorCode.PARSER_EXPECTED_INT_FOR_HNSW_K, "Expected positive integer for `k`", null);
      }
      k = (int) Math.min(Integer.MAX_VALUE, (Long) v);
    }
    if (!left.isEmpty()) {
      StringBuilder names = new StringBuilder("[");
      for (String n : left.keySet()) {
        names.append(names.length() > 1 ? ", " : "").append('"').append(n).append('"');
      }
      throw new ValueException(
          ErrorCode.PARSER_EXTRA_PARAMETERS_FOR_LSH_SEARCH,
          "Extra parameters for LSH search: " + names + "]",
          null);
    }
    return new Request(k);
  }

  private static long integer(Object v, String message) {
    if (!(v instanceof Long)) {
      throw failure(message);
    }
    return (Long) v;
  }

  private static double number(Object v, String message) {
    if (!(v instanceof Long) && !(v instanceof Double)) {
      throw failure(message);
    }
    return ((Number) v).doubleValue();
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw failure(message);
    }
  }

  private static ValueException failure(String message) {
    return new ValueException(null, message, null);
  }
}
