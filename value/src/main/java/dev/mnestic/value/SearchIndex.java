package dev.mnestic.value;

import java.util.List;
import java.util.Map;

/**
 * A search index over one stored relation, searched by a rule atom: CozoDB's
 * {@code ~rel:idx{a, b | query: q, k: 10, ...}} (the HNSW, full-text and MinHash-LSH indices of
 * {@code cozo-core/src/runtime/hnsw.rs}, {@code fts/}, {@code minhash_lsh.rs}). An index is
 * made by one {@link Kind} ({@code ::hnsw create}, {@code ::fts create}, {@code ::lsh create});
 * this interface is what every kind implements, so that the front end, the plan operator and
 * the store treat all kinds alike. Values in and out are CozoDB's ({@link Values}).
 *
 * <h2>Life of an index</h2>
 * <ol>
 *   <li><b>Definition.</b> {@code ::hnsw create rel:idx {options}} evaluates each option to a
 *       constant (but {@code filter}, kept as its CozoScript text) and hands them to {@link
 *       Kind#define}, which checks them with CozoDB's errors and returns the {@link Definition}
 *       kept with the relation (in its table's comment, as the access level is: it survives
 *       reopening the store, moves with {@code ::rename} and goes with the table). Nothing here
 *       reads or writes the store.</li>
 *   <li><b>Instance.</b> The engine makes one instance per index and store with {@link
 *       Kind#create}, held in memory (an index is built from its relation's rows, not
 *       stored: reopening a store rebuilds it at its first search).</li>
 *   <li><b>Keeping in step.</b> Before a statement searches an index, the engine brings it
 *       to the rows of the relation that statement sees: the committed rows, and the writing
 *       transaction's own uncommitted ones (so a search after {@code :put} in the same script
 *       finds the new rows, and after a rollback no longer does). It hands the index either
 *       every row ({@link #sync}, after the store opens, or when what changed cannot be told)
 *       or only what changed since the rows it holds ({@link #update}: the rows committed
 *       since, and a transaction's own writes, which it takes back after the search with
 *       another {@code update}). So the index is always a function of the relation as the
 *       statement sees it, whichever door wrote it (CozoScript or SQL) and whether the write
 *       committed or rolled back. The engine calls {@code sync}, {@code update} and {@code
 *       search} for one instance from one thread at a time.</li>
 *   <li><b>Search.</b> The atom's parameters other than {@code query} and {@code filter} are
 *       constants: {@link Kind#request} checks them once per atom (CozoDB's errors) and returns
 *       a {@link Request}; then {@link #search} runs once per row reaching the atom, with that
 *       row's {@code query} value, and returns the matching rows the index holds, best first,
 *       each with the values its {@code bind_*} parameters bind.</li>
 * </ol>
 *
 * <p>A failure is a {@link ValueException} with CozoDB's code ({@code parser::expected_int_for_hnsw_k},
 * {@code eval::throw}, ...), message and help; the caller adds the place (line:column).
 *
 * <h2>Adding a kind</h2>
 * Implement {@link Kind} and this interface (the {@code search} module's {@code HnswIndex} is
 * one), and register the kind in the front end's {@code SearchIndexes.BUILT_IN} under its
 * system-op name ({@code hnsw}, {@code fts}, {@code lsh}); {@code ::NAME create} and {@code
 * ::NAME drop} then parse, and {@code ~rel:idx{...}} lowers to the plan's {@code SearchApply}
 * operator for every kind.
 */
public interface SearchIndex {
  /**
   * Brings the index to exactly {@code rows}: every row of the relation the searching
   * statement sees, each with the relation's columns in relation order (keys first, as
   * {@link Columns#names}), in no particular order. Rows the index already holds unchanged
   * should cost no more than a lookup. Long work calls {@code stop.check()} every few thousand
   * rows.
   */
  void sync(List<Object[]> rows, StopCheck stop);

  /**
   * Brings the index from the rows it holds to those rows without the rows whose keys are
   * those of {@code removed}, then with {@code added} (each replacing the row its key holds,
   * if any): rows as {@link #sync} takes them, keys distinct within each list. The cost is
   * that of the rows named, not of the relation.
   */
  void update(List<Object[]> removed, List<Object[]> added, StopCheck stop);

  /**
   * The rows matching {@code query} (the atom's {@code query} value for one row reaching it),
   * best first, at most as many as the request asks; each hit is a row the index holds and
   * carries the values of the request's {@link Request#binds}, in that order. Rows
   * that fail {@code filter} (the atom's {@code filter} over the relation's row followed by
   * those bound values; {@code null} when the atom has none) are not returned, and do not count
   * towards the request's limit.
   *
   * @throws ValueException on a query the index cannot take (CozoDB's code and message)
   */
  List<Hit> search(Request request, Object query, RowFilter filter, StopCheck stop);

  /**
   * The rows of the relation CozoDB keeps this index in ({@code *rel:idx{...}}, and for {@code
   * part} {@code "inv"} MinHash-LSH's {@code *rel:idx:inv{...}}), as the index holds them now:
   * each with the columns {@link Kind#relationColumns} gives for {@code part}, in the
   * relation's key order. Long work (an index may finish what it deferred, as HNSW links its
   * pending vectors into its graph) calls {@code stop.check()} every few thousand steps.
   *
   * @throws ValueException when this kind's relation cannot be read (the message says why)
   */
  List<Object[]> relationRows(String part, StopCheck stop);

  /** One match: the relation's row, and its bound values. */
  record Hit(Object[] row, List<Object> binds) {
  }

  /**
   * A predicate over a row of values, compiled by the front end from a CozoScript expression
   * (an index's {@code filter} option over the relation's columns; an atom's {@code filter}
   * over those and the atom's bound values).
   */
  @FunctionalInterface
  interface RowFilter {
    /**
     * Whether {@code row} passes.
     *
     * @throws ValueException when the expression fails or is not a Bool ({@code eval::throw})
     */
    boolean test(Object[] row);
  }

  /**
   * A CozoScript expression over a row of values, compiled by the front end (the full-text and
   * LSH indices' {@code extractor}).
   */
  @FunctionalInterface
  interface RowFunction {
    /**
     * The expression's value on {@code row}.
     *
     * @throws ValueException when the expression fails
     */
    Object apply(Object[] row);
  }

  /** The relation an index is over: its columns in relation order, keys first. */
  record Columns(List<String> names, List<ColType> types, int keyCount) {
    public Columns {
      names = List.copyOf(names);
      types = List.copyOf(types);
    }

    /** The position of column {@code name}, or -1. */
    public int indexOf(String name) {
      return names.indexOf(name);
    }
  }

  /**
   * An index as {@code ::NAME create} defined it: its kind's name, the index's name and its
   * options in a canonical form (defaults filled; CozoDB's manifest, which {@code ::indices}
   * shows as the index's {@code config}), as JSON, which is what the relation keeps.
   */
  record Definition(String kind, String name, Json options) {
    /** Option {@code key}'s value in the JSON tree, or null. */
    public Object option(String key) {
      return ((Map<?, ?>) options.tree()).get(key);
    }
  }

  /**
   * The checked constant parameters of one search atom, as {@link Kind#request} made them:
   * whatever the kind needs to search ({@code k}, {@code ef}, ...), and which {@code bind_*}
   * parameters the atom gives, in the order {@link Hit#binds} carries their values (CozoDB's:
   * HNSW {@code bind_field, bind_field_idx, bind_distance, bind_vector}).
   */
  interface Request {
    /** The {@code bind_*} parameters the atom gives, in the order of each hit's values. */
    List<String> binds();
  }

  /** A column of an index's own relation, as {@code ::columns rel:idx} shows it. */
  record RelationColumn(String name, boolean key, String type) {
  }

  /** A kind of search index: HNSW, full text, MinHash-LSH. */
  interface Kind {
    /** The system op's name: {@code hnsw}, {@code fts}, {@code lsh}. */
    String name();

    /**
     * The definition of index {@code name} over {@code relation}, from {@code ::NAME create}'s
     * options: each a constant value ({@code dim: 128}, {@code fields: [v]} as a list of
     * column names, {@code distance: 'L2'}, {@code extend_candidates: true}), but
     * {@code filter}, given as its CozoScript text. Checks them as CozoDB does (unknown
     * options, missing ones, bad values, fields that are not columns of the right type).
     *
     * @throws ValueException with CozoDB's code and message
     */
    Definition define(String name, Columns relation, Map<String, Object> options);

    /**
     * A new, empty instance of {@code definition} over {@code relation}; {@code filter} is the
     * definition's option {@code index_filter} (the CozoScript text of {@code ::NAME create}'s
     * {@code filter}, which {@link #define} keeps under that name, as CozoDB's manifests do)
     * compiled by the engine over the relation's columns (rows failing it are not indexed), or
     * null when the definition has none; {@code compile} turns any other CozoScript text the
     * definition keeps (the full-text and LSH indices' {@code extractor}) into a {@link
     * RowFunction} over the relation's columns.
     */
    SearchIndex create(Definition definition, Columns relation, RowFilter filter,
        java.util.function.Function<String, RowFunction> compile);

    /**
     * The columns of the relation CozoDB keeps an index of {@code definition} over {@code
     * relation} in, keys first ({@code cozo-core/src/runtime/relation.rs}): {@code part}
     * {@code ""} for {@code rel:idx}, {@code "inv"} for MinHash-LSH's {@code rel:idx:inv};
     * null when the kind has no such part.
     */
    List<RelationColumn> relationColumns(Definition definition, Columns relation, String part);

    /**
     * The names of the atom parameters that bind a variable ({@code bind_distance} ...), in
     * the order their values come in a hit. The front end treats each such parameter's value
     * as a variable, not an expression.
     */
    List<String> bindParameters();

    /**
     * Checks one atom's constant parameters (all but {@code query} and {@code filter}; the
     * {@code bind_*} ones given as the names of the variables they bind) against {@code
     * definition}, as CozoDB does ({@code k} required and positive, unknown parameters, ...).
     *
     * @throws ValueException with CozoDB's code and message
     */
    Request request(Definition definition, Columns relation, Map<String, Object> parameters);
  }
}
