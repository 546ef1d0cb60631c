package dev.mnestic.value;

/**
 * The codes of the errors a script meets, each once: CozoDB's own ({@code parser::},
 * {@code eval::}, {@code query::}, {@code transact::}, {@code fixed_rule::}, spelled as
 * CozoDB 0.7.6 spells them, so that tools matching CozoDB's codes match ours) and mnestic's
 * ({@code mnestic::}, {@code import::}) for what CozoDB lacks or never reports. An error
 * carries its code ({@link ValueException#errorCode}, the Datalog front end's
 * {@code DatalogException}); its message and help are the thrower's.
 */
public enum ErrorCode {
  // parser::, the script's text
  PARSER_PEST("parser::pest", "the script does not parse (CozoDB's pest grammar rejects it)"),
  PARSER_OPTION_NOT_BOOL("parser::option_not_bool",
      "a query option that takes a boolean given another value"),
  PARSER_OPTION_NOT_NON_NEG("parser::option_not_non_neg",
      "a query option that takes a number given another value (:sleep)"),
  PARSER_OPTION_NOT_POS("parser::option_not_pos",
      "a query option that takes a positive number given zero or less (:sleep)"),
  PARSER_TOO_DEEP("parser::too_deep", "the script nests deeper than the parser's limit"),
  PARSER_TOO_LARGE("parser::too_large",
      "a rule body, query or script larger than the limits checked before anything runs"),
  PARSER_EMPTY_HORN_RULE_HEAD("parser::empty_horn_rule_head", "a rule with an empty head"),
  PARSER_NO_ENTRY("parser::no_entry", "a query without the entry rule '?'"),
  PARSER_NO_ENTRY_HEAD("parser::no_entry_head",
      "a relation operation whose entry rule's head is not found"),
  PARSER_PARAM_NOT_FOUND("parser::param_not_found", "a $parameter that was given no value"),
  PARSER_AGGR_NOT_FOUND("parser::aggr_not_found", "an aggregation that does not exist"),
  PARSER_FUNC_WRONG_NUM_ARGS("parser::func_wrong_num_args",
      "a function called with the wrong number of arguments"),
  PARSER_BAD_IF("parser::bad_if", "'if' with other than 2 or 3 arguments"),
  PARSER_EMPTY_COND("parser::empty_cond", "'cond' with no clauses"),
  PARSER_BAD_LIST_LEN_IN_TYPE("parser::bad_list_len_in_type",
      "a column type's list length that is no non-negative integer"),
  PARSER_DUP_NAME_IN_COLS("parser::dup_name_in_cols", "a column named twice in a relation's spec"),
  PARSER_RELATION_HAS_NO_KEYS("parser::relation_has_no_keys",
      "a relation operation that needs key columns on a relation without"),
  PARSER_EMPTY_INDEX("parser::empty_index", "an index of no columns"),
  PARSER_EMPTY_CONST_RULE("parser::empty_const_rule", "a constant rule without data"),
  PARSER_CONST_RULE_EMPTY_ROW("parser::const_rule_empty_row", "a constant rule with an empty row"),
  PARSER_BAD_ROW_FOR_CONST("parser::bad_row_for_const", "a constant rule's row that is no list"),
  PARSER_CONST_DATA_ARITY_MISMATCH("parser::const_data_arity_mismatch",
      "constant rule rows of different lengths"),
  PARSER_FIXED_RULE_HEAD_ARITY_MISMATCH("parser::fixed_rule_head_arity_mismatch",
      "a constant rule whose head and rows differ in arity"),
  PARSER_MULT_RULE_DEF("parser::mult_rule_def",
      "a rule defined more than once where one definition is a constant rule"),
  PARSER_HEAD_AGGR_MISMATCH("parser::head_aggr_mismatch",
      "definitions of one rule whose heads differ in arity or aggregations"),
  PARSER_BAD_POS_INT("parser::bad_pos_int", "a decimal integer literal past the 64-bit range"),
  PARSER_BAD_VALIDITY_SPEC("parser::bad_validity_spec",
      "a time-travel moment ('@') that is no integer, RFC 3339 string, 'NOW' or 'END'"),
  FIXED_RULE_ARG_WRONG("fixed_rule::arg_wrong", "a wrong option value of a fixed rule"),
  FIXED_RULE_ARG_NOT_FOUND("fixed_rule::arg_not_found", "a fixed rule's required option not given"),
  FIXED_RULE_NOT_ENOUGH_ARGS("fixed_rule::not_enough_args",
      "a fixed rule given fewer input relations than it reads"),
  PARSER_FIXED_RULE_NOT_FOUND("parser::fixed_rule_not_found", "a fixed rule ('<~') that does not exist"),
  PARSER_FIXED_AGGR_CONFLICT("parser::fixed_aggr_conflict", "a fixed rule's head that aggregates"),
  PARSER_DUPLICATE_BINDINGS_FOR_FIXED_RULE("parser::duplicate_bindings_for_fixed_rule",
      "a variable bound twice by a fixed rule's input relations"),
  PARSER_NO_ALGO_ARITY("parser::no_algo_arity",
      "a fixed rule whose options do not tell the width of its rows"),
  PARSER_SIMPLE_FIXED_RULE_ARITY_MISMATCH("parser::simple_fixed_rule_arity_mismatch",
      "a fixed rule that gave a row of another width than it declared"),
  EVAL_ALGO_BAD_FIELDS("eval::algo_bad_fields", "JsonReader's fields that are not a list of strings"),
  EVAL_BAD_BINDING("eval::bad_binding",
      "a fixed rule's option expression using a variable its inputs do not bind"),
  ALGO_RULE_NOT_FOUND("algo::rule_not_found", "a fixed rule's input rule that is not defined"),

  // search atoms (~rel:idx{...}) and search indices (::hnsw, ::fts, ::lsh)
  EVAL_HNSW_INDEX_NOT_FOUND("eval::hnsw_index_not_found",
      "a search atom naming an index its relation does not have (any kind of search index)"),
  PARSER_EXTRA_PARAMETERS_FOR_LSH_SEARCH("parser::extra_parameters_for_lsh_search",
      "an LSH search atom with a parameter LSH search does not take"),
  PARSER_HNSW_QUERY_REQUIRED("parser::hnsw_query_required",
      "a search atom without a required parameter (query, k, ef)"),
  PARSER_EXPECTED_INT_FOR_HNSW_K("parser::expected_int_for_hnsw_k",
      "a search atom's k that is not a positive integer"),
  PARSER_EXPECTED_INT_FOR_HNSW_EF("parser::expected_int_for_hnsw_ef",
      "an HNSW search's ef that is not a positive integer"),
  PARSER_EXPECTED_FLOAT_FOR_HNSW_RADIUS("parser::expected_float_for_hnsw_radius",
      "an HNSW search's radius that is not a positive number"),

  // eval::, checking and running a query
  EVAL_THROW("eval::throw", "a function failed on its values (the help says why)"),
  EVAL_FTS_EXTRACTOR_INVALID_RETURN_TYPE("eval::fts::extractor::invalid_return_type",
      "a full-text index's extractor gave a value that is neither a string nor null"),
  EVAL_NO_IMPLEMENTATION("eval::no_implementation", "a function that CozoDB does not have"),
  EVAL_NOT_CONSTANT("eval::not_constant", "an expression that must be constant uses a variable"),
  EVAL_PREDICATE_NOT_BOOL("eval::predicate_not_bool", "a filter whose value is not a Bool"),
  EVAL_INVALID_SPREAD_UNIF("eval::invalid_spread_unif", "'x in v' where v is not a list"),
  EVAL_UNBOUND_VARIABLE("eval::unbound_variable", "a variable used before anything binds it"),
  EVAL_UNBOUND_SYMB_IN_HEAD("eval::unbound_symb_in_head",
      "a head variable that the rule body does not bind"),
  EVAL_UNSAFE_NEGATION("eval::unsafe_negation", "a negated atom with no variable bound elsewhere"),
  EVAL_NAMED_FIELD_NOT_FOUND("eval::named_field_not_found",
      "a stored relation's column, named in an atom, that does not exist"),
  EVAL_RULE_ARITY_MISMATCH("eval::rule_arity_mismatch",
      "a rule applied to the wrong number of arguments"),
  EVAL_RULE_NOT_FOUND("eval::rule_not_found", "a rule that is not defined"),
  EVAL_UNSTRATIFIABLE("eval::unstratifiable",
      "recursion through negation or a non-meet aggregation"),
  EVAL_KILLED("eval::killed", "the script was stopped (its :timeout, or a cancel)"),
  EVAL_ASSERT_NONE_FAILURE("eval::assert_none_failure", ":assert none, and rows came"),
  EVAL_ASSERT_SOME_FAILURE("eval::assert_some_failure", ":assert some, and no row came"),
  EVAL_COERCION_NULL("eval::coercion_null", "null for a column that does not take null"),
  EVAL_COERCION_FAILED("eval::coercion_failed", "a value that is not of its column's type"),
  EVAL_COERCION_BAD_BASE_64("eval::coercion_bad_base_64",
      "a string for a Bytes column that is no base64"),
  EVAL_COERCION_BAD_LIST_LEN("eval::coercion_bad_list_len",
      "a list of another length than its column's type"),
  EVAL_INVALID_VALIDITY("eval::invalid_validity", "a value that cannot be made a Validity"),
  EVAL_COL_TYPE_MISMATCH("eval::col_type_mismatch",
      "a relation operation's column type that differs from the stored one"),
  EVAL_REQUIRED_COL_NOT_FOUND("eval::required_col_not_found",
      "a stored relation's column that the operation does not give"),
  EVAL_REQUIRED_COL_NOT_PROVIDED("eval::required_col_not_provided",
      "a column without default that the operation's rows do not give"),
  EVAL_UNABLE_TO_MAKE_EXTRACTOR("eval::unable_to_make_extractor",
      "a column the operation cannot read from its rows"),
  EVAL_STORED_RELATION_CONFLICT("eval::stored_relation_conflict",
      "a stored relation created where one exists, or changed by another"),
  EVAL_REL_NAME_CONFLICT("eval::rel_name_conflict",
      "::rename to the name of a stored relation that exists"),
  EVAL_INVALID_RELATION_NAME("eval::invalid_relation_name", "a stored relation name CozoDB rejects"),
  EVAL_REPLACE_IN_TRIGGER("eval::replace_in_trigger", "a trigger's script that :replace-s a relation"),
  EVAL_INVALID_TIME_TRAVEL("eval::invalid_time_travel",
      "time travel ('@') on a relation whose last key column is not a Validity"),
  EVAL_REPLACE_REL_WITH_INDICES("eval::replace_rel_with_indices",
      ":replace of a stored relation that has indices"),
  EVAL_DANGLING_CTRL_FLOW("eval::dangling_ctrl_flow",
      "%break or %continue outside a loop, or naming a %mark no loop around it has"),

  // query::, transact::, the stored relations
  QUERY_RELATION_NOT_FOUND("query::relation_not_found", "a stored relation that does not exist"),
  QUERY_SORT_KEY_NOT_FOUND("query::sort_key_not_found",
      ":order or :sort naming a column the result does not have"),
  TX_COL_IN_IDX_NOT_FOUND("tx::col_in_idx_not_found",
      "::index create naming a column the relation does not have"),
  TX_INDEX_ALREADY_EXISTS("tx::index_already_exists",
      "::index create of a name the relation's indices already have"),
  TX_IDX_NOT_FOUND("tx::idx_not_found", "::index drop of an index the relation does not have"),
  TRANSACT_ASSERTION_FAILURE("transact::assertion_failure",
      ":ensure, :ensure_not, :insert, :update or :delete finding rows other than required"),
  TX_INSUFFICIENT_ACCESS_LEVEL("tx::insufficient_access_level",
      "an operation that a stored relation's ::access_level forbids"),

  // algo::, the graph algorithms' fixed rules (graph-algorithms)
  ALGO_NOT_AN_EDGE("algo::not_an_edge", "an edge relation whose rows have fewer than two values"),
  ALGO_INVALID_EDGE_WEIGHT("algo::invalid_edge_weight",
      "an edge weight that is no finite number, or negative where the algorithm forbids it"),
  ALGO_NODE_WITH_KEY_NOT_FOUND("algo::node_with_key_not_found",
      "a node that the nodes relation of a graph algorithm lacks"),
  ALGO_INPUT_RELATION_BAD_ARITY("algo::input_relation_bad_arity",
      "an input relation of a graph algorithm with too few columns"),
  ALGO_UNACCEPTABLE_VALUE("algo::unacceptable_value",
      "an option expression of a graph algorithm giving a value it cannot use"),
  ALGO_EMPTY_STARTING("algo::empty_starting", "an empty relation of starting nodes"),
  ALGO_STARTING_NODE_NOT_FOUND("algo::starting_node_not_found",
      "a starting node that is not in the graph"),

  // import::, mnestic::, what mnestic adds
  IMPORT_BAD_JSON("import::bad_json", "relations to import that are not the JSON expected"),
  MNESTIC_UNSUPPORTED("mnestic::unsupported", "CozoScript that mnestic does not implement"),
  MNESTIC_TOO_DEEP("mnestic::too_deep", "a script nesting too deeply to be run"),
  MNESTIC_RESERVED_NAME("mnestic::reserved_name",
      "a stored relation name that mnestic keeps for itself"),
  MNESTIC_TABLE_READ_ELSEWHERE("mnestic::table_read_elsewhere",
      "a stored relation removed or made anew while a standing query reads its table"),
  MNESTIC_DUPLICATE_INDEX_COLUMN("mnestic::duplicate_index_column",
      "::index create naming a column twice, which the store's index cannot hold"),
  MNESTIC_NULL_KEY("mnestic::null_key", "null for a key column, which the store cannot hold"),
  MNESTIC_AGGREGATE_ARGUMENTS("mnestic::aggregate_arguments",
      "an aggregation given arguments it does not take"),
  MNESTIC_AGGREGATE_OPERAND("mnestic::aggregate_operand",
      "a bounded-meet aggregation given a value of the wrong shape"),
  MNESTIC_AGGREGATE_ORDER("mnestic::aggregate_order",
      "a registered dominance that is no strict partial order"),
  MNESTIC_AGGREGATE_OVERFLOW("mnestic::aggregate_overflow",
      "more survivors in a group than the bounded-meet aggregation allows"),
  MNESTIC_BOUNDED_MEET_HEAD("mnestic::bounded_meet_head",
      "a bounded-meet aggregation beside other aggregations in one head"),
  MNESTIC_NO_FIXPOINT("mnestic::no_fixpoint", "a recursion that keeps deriving new rows"),
  MNESTIC_FRONTIER_DIVERGES("mnestic::frontier_diverges",
      "a recursion through a bounded-meet aggregation still changing after :max_epochs"),
  MNESTIC_READ_NOT_ALLOWED("mnestic::read_not_allowed",
      "a file a fixed rule may not read where the script runs (the reading policy)"),
  MNESTIC_READ_FAILED("mnestic::read_failed", "a file a fixed rule could not read or parse"),
  MNESTIC_INTERNAL("mnestic::internal", "a failure inside mnestic (a bug)");

  private final String code;
  private final String meaning;

  ErrorCode(String code, String meaning) {
    this.code = code;
    this.meaning = meaning;
  }

  /** The code as scripts' errors show it, such as {@code eval::throw}. */
  public String code() {
    return code;
  }

  /** What the error is, in a few words. */
  public String meaning() {
    return meaning;
  }

  /** The part before {@code ::}, such as {@code parser}. */
  public String namespace() {
    return code.substring(0, code.indexOf("::"));
  }

  /** Whether it is the failure of an aggregation on its values, which names the rule and head it is in. */
  public boolean isAggregateFailure() {
    return this == MNESTIC_AGGREGATE_ARGUMENTS || this == MNESTIC_AGGREGATE_OPERAND
        || this == MNESTIC_AGGREGATE_ORDER || this == MNESTIC_AGGREGATE_OVERFLOW;
  }
}
