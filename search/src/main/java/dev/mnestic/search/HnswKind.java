package dev.mnestic.search;

import dev.mnestic.value.ColType;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.Json;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.ValueException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CozoDB's HNSW vector index ({@code ::hnsw create rel:idx {dim: 128, m: 50, ef_construction:
 * 20, fields: [v], distance: L2, dtype: F32, filter: expr, extend_candidates: false,
 * keep_pruned_connections: false}}; {@code cozo-core/src/parse/sys.rs} and {@code
 * runtime/relation.rs}), searched by {@code ~rel:idx{... | query: q, k: 10, ef: 50,
 * bind_distance: d, bind_field: f, bind_field_idx: i, bind_vector: v, radius: r, filter:
 * expr}}, with CozoDB's checks and messages. The index is {@link HnswIndex}.
 */
public final class HnswKind implements SearchIndex.Kind {
  /** The parameters that bind a variable, in the order CozoDB appends their values. */
  static final List<String> BINDS = List.of("bind_field", "bind_field_idx", "bind_distance",
      "bind_vector");

  /** The checked parameters of one search. */
  record Request(int k, int ef, Double radius, List<String> binds)
      implements SearchIndex.Request {
  }

  @Override public String name() {
    return "hnsw";
  }

  @Override public List<String> bindParameters() {
    return BINDS;
  }

  @Override public SearchIndex.Definition define(String name, SearchIndex.Columns relation,
      Map<String, Object> options) {
    long dim = 0;
    String dtype = "F32";
    List<String> fields = List.of();
    String distance = "L2";
    long ef = 0;
    long m = 0;
    String filter = null;
    boolean extend = false;
    boolean keepPruned = false;
    for (Map.Entry<String, Object> o : options.entrySet()) {
      final Object v = o.getValue();
      switch (o.getKey()) {
      case "dim":
        dim = positive(v, "Invalid vec_dim: ");
        break;
      case "ef_construction":
      case "ef":
        ef = positive(v, "Invalid ef_construction: ");
        break;
      case "m_neighbours":
      case "m":
        m = positive(v, "Invalid m_neighbours: ");
        break;
      case "dtype":
        dtype = switch (String.valueOf(v)) {
          case "F32", "Float" -> "F32";
          case "F64", "Double" -> "F64";
          default -> throw failure("Invalid dtype: " + v);
        };
        break;
      case "fields":
        fields = names(v);
        break;
      case "distance":
      case "dist":
        distance = switch (String.valueOf(v).trim()) {
          case "L2" -> "L2";
          case "IP" -> "IP";
          case "Cosine" -> "Cosine";
          default -> throw failure("Invalid distance: " + v);
        };
        break;
      case "filter":
        filter = (String) v;
        break;
      case "extend_candidates":
        extend = Boolean.TRUE.equals(v);
        break;
      case "keep_pruned_connections":
        keepPruned = Boolean.TRUE.equals(v);
        break;
      default:
        throw failure("Invalid option: " + o.getKey());
      }
    }
    if (ef == 0) {
      throw failure("ef_construction must be set");
    }
    if (m == 0) {
      throw failure("m_neighbours must be set");
    }
    if (fields.isEmpty()) {
      throw failure("Cannot create HNSW index without vector fields");
    }
    for (String field : fields) {
      final int i = relation.indexOf(field);
      if (i < 0) {
        throw failure("Cannot create HNSW index with non-existent field " + field);
      }
      ColType t = relation.types().get(i);
      if (t.kind() == ColType.Kind.LIST && t.elements().get(0).isVector()) {
        t = t.elements().get(0);
      }
      if (!t.isVector()) {
        throw failure("Cannot create HNSW index with non-vector field " + field);
      }
      final String eltype = t.kind() == ColType.Kind.VEC_F32 ? "F32" : "F64";
      if (!eltype.equals(dtype)) {
        throw failure("Cannot create HNSW index with field " + field + " of type " + eltype
            + " (expected " + dtype + ")");
      }
      if (t.length() != dim) {
        throw failure("Cannot create HNSW index with field " + field + " of dimension "
            + t.length() + " (expected " + dim + ")");
      }
    }
    // CozoDB's manifest, as ::indices shows it
    final Map<String, Object> canonical = new LinkedHashMap<>();
    canonical.put("vec_dim", dim);
    canonical.put("dtype", dtype);
    final List<Object> positions = new ArrayList<>();
    fields.forEach(f -> positions.add((long) relation.indexOf(f)));
    canonical.put("vec_fields", positions);
    canonical.put("distance", distance);
    canonical.put("ef_construction", ef);
    canonical.put("m_neighbours", m);
    canonical.put("m_max", m);
    canonical.put("m_max0", 2 * m);
    canonical.put("level_multiplier", 1. / StrictMath.log((double) m));
    if (filter != null) {
      canonical.put("index_filter", filter);
    }
    canonical.put("extend_candidates", extend);
    canonical.put("keep_pruned_connections", keepPruned);
    return new SearchIndex.Definition(name(), name, Json.object(canonical));
  }

  @Override public SearchIndex create(SearchIndex.Definition definition,
      SearchIndex.Columns relation, SearchIndex.RowFilter filter,
      java.util.function.Function<String, SearchIndex.RowFunction> compile) {
    return new HnswIndex(definition, relation, filter);
  }

  /**
   * CozoDB's {@code rel:idx}, the graph: a layer, the linked vectors (each its row's key, its
   * field's column and its place in a list of vectors, or -1), their distance, a vector's hash
   * (on its self row) and whether the link is ignored.
   */
  @Override public List<SearchIndex.RelationColumn> relationColumns(
      SearchIndex.Definition definition, SearchIndex.Columns relation, String part) {
    if (!part.isEmpty()) {
      return null;
    }
    final List<SearchIndex.RelationColumn> columns = new ArrayList<>();
    columns.add(new SearchIndex.RelationColumn("layer", true, "Int"));
    for (String prefix : List.of("fr", "to")) {
      columns.addAll(KeyedRows.keyColumns(prefix + "_", relation));
      columns.add(new SearchIndex.RelationColumn(prefix + "__field", true, "Int"));
      columns.add(new SearchIndex.RelationColumn(prefix + "__sub_idx", true, "Int"));
    }
    columns.add(new SearchIndex.RelationColumn("dist", false, "Float"));
    columns.add(new SearchIndex.RelationColumn("hash", false, "Bytes?"));
    columns.add(new SearchIndex.RelationColumn("ignore_link", false, "Bool"));
    return columns;
  }

  @Override public SearchIndex.Request request(SearchIndex.Definition definition,
      SearchIndex.Columns relation, Map<String, Object> parameters) {
    final Map<String, Object> left = new LinkedHashMap<>(parameters);
    final Object k = left.remove("k");
    if (k == null) {
      throw new ValueException(ErrorCode.PARSER_HNSW_QUERY_REQUIRED,
          "Field `k` is required for HNSW search", null);
    }
    if (!(k instanceof Long) || (Long) k <= 0) {
      throw new ValueException(ErrorCode.PARSER_EXPECTED_INT_FOR_HNSW_K,
          "Expected positive integer for `k`", null);
    }
    final Object ef = left.remove("ef");
    if (ef == null) {
      throw new ValueException(ErrorCode.PARSER_HNSW_QUERY_REQUIRED,
          "Field `ef` is required for HNSW search", null);
    }
    if (!(ef instanceof Long) || (Long) ef <= 0) {
      throw new ValueException(ErrorCode.PARSER_EXPECTED_INT_FOR_HNSW_EF,
          "Expected positive integer for `ef`", null);
    }
    Double radius = null;
    if (left.containsKey("radius")) {
      final Object r = left.remove("radius");
      if (!(r instanceof Long || r instanceof Double) || !(((Number) r).doubleValue() > 0)) {
        throw new ValueException(ErrorCode.PARSER_EXPECTED_FLOAT_FOR_HNSW_RADIUS,
            "Expected positive float for `radius`", null);
      }
      radius = ((Number) r).doubleValue();
    }
    final List<String> binds = new ArrayList<>();
    for (String b : BINDS) {
      if (left.remove(b) != null) {
        binds.add(b);
      }
    }
    if (!left.isEmpty()) {
      throw failure("Unexpected parameters for HNSW: " + left.keySet());
    }
    return new Request((int) Math.min(Integer.MAX_VALUE, (Long) k),
        (int) Math.min(Integer.MAX_VALUE, (Long) ef), radius, List.copyOf(binds));
  }

  private static long positive(Object v, String message) {
    if (!(v instanceof Long) || (Long) v <= 0) {
      throw failure(message + v);
    }
    return (Long) v;
  }

  private static List<String> names(Object v) {
    final List<String> names = new ArrayList<>();
    if (v instanceof List) {
      for (Object o : (List<?>) v) {
        if (!(o instanceof String)) {
          throw failure("fields must be a list of column names");
        }
        names.add((String) o);
      }
      return names;
    }
    throw failure("fields must be a list of column names");
  }

  /** A failure CozoDB reports with a message and no code. */
  private static ValueException failure(String message) {
    return new ValueException(null, message, null);
  }
}
