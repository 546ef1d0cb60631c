package dev.mnestic.datalog.fixed;

import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.FixedApply;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.graph.GraphAlgorithms;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule;
import dev.mnestic.value.ValueException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The fixed rules a script may apply ({@code out[...] <~ Name(...)}), by name: CozoDB's
 * built-ins ({@link #builtIns}) and those a host program registered ({@link #with}).
 * Immutable: each {@code with...} gives a new registry.
 */
public final class FixedRules {
  /** The built-ins, reading every file the JVM's user can read; nothing registered. */
  public static final FixedRules DEFAULT = new FixedRules(ReadPolicy.ANY, Map.of());

  private final ReadPolicy files;
  /** The built-ins with {@link #files}, then the host's, by name. */
  private final Map<String, FixedRule> all;
  private final Map<String, FixedRule> host;

  private FixedRules(ReadPolicy files, Map<String, FixedRule> host) {
    this.files = files;
    this.host = Collections.unmodifiableMap(new TreeMap<>(host));
    final Map<String, FixedRule> all = new TreeMap<>(builtIns(files));
    all.putAll(host);
    this.all = Collections.unmodifiableMap(all);
  }

  /**
   * CozoDB's built-in fixed rules, the readers reading as {@code files} allows: the one place
   * built-ins are registered.
   */
  static Map<String, FixedRule> builtIns(ReadPolicy files) {
    final Map<String, FixedRule> builtIns = new TreeMap<>();
    builtIns.put("Constant", new Constant());
    builtIns.put(ReorderSort.NAME, new ReorderSort());
    builtIns.put(CsvReader.NAME, new CsvReader(files));
    builtIns.put(JsonReader.NAME, new JsonReader(files));
    builtIns.putAll(GraphAlgorithms.BUILT_IN);
    return builtIns;
  }

  /**
   * These fixed rules and {@code rule} as {@code name}.
   *
   * @throws IllegalArgumentException for a name that is not an identifier (a letter, then
   *     letters, digits and {@code _}) or is already a fixed rule's
   */
  public FixedRules with(String name, FixedRule rule) {
    if (name == null || !name.matches("[A-Za-z][A-Za-z0-9_]*")) {
      throw new IllegalArgumentException("a fixed rule's name is an identifier (a letter, then"
          + " letters, digits and _), was '" + name + "'");
    }
    if (all.containsKey(name)) {
      throw new IllegalArgumentException("'" + name + "' is already a fixed rule"
          + (host.containsKey(name) ? "" : " (a built-in)"));
    }
    final Map<String, FixedRule> more = new TreeMap<>(host);
    more.put(name, Objects.requireNonNull(rule, "rule"));
    return new FixedRules(files, more);
  }

  /** These fixed rules, their readers reading as {@code files} allows. */
  public FixedRules readingFiles(ReadPolicy files) {
    return new FixedRules(files, host);
  }

  /** The fixed rule of {@code name}, if any. */
  public Optional<FixedRule> find(String name) {
    return Optional.ofNullable(all.get(name));
  }

  /** Every fixed rule's name, sorted (what {@code ::fixed_rules} lists). */
  public List<String> names() {
    return List.copyOf(all.keySet());
  }

  /**
   * Fixed rule {@code rule} checked as CozoDB's parser checks it: its fixed rule exists
   * ({@code parser::fixed_rule_not_found}), its options give its width, which an explicit head
   * must have ({@code parser::fixed_rule_head_arity_mismatch}); an empty head becomes
   * {@code _0, _1, ...}. Any other rule is returned as it is.
   */
  public Rule checked(Rule rule, Map<String, ?> params) {
    if (rule.kind() != Rule.Kind.FIXED) {
      return rule;
    }
    final FixedApply f = rule.fixed();
    final FixedRule impl = resolve(f);
    final List<String> head = rule.head().stream().map(h -> h.var().name()).toList();
    final int arity;
    try {
      arity = impl.arity(options(f, params), head);
    } catch (ValueException e) {
      throw new DatalogException(e.errorCode(), e.getMessage(), f.pos().line(), f.pos().column(),
          e.help());
    }
    if (!head.isEmpty() && arity != head.size()) {
      throw new DatalogException(ErrorCode.PARSER_FIXED_RULE_HEAD_ARITY_MISMATCH,
          "Fixed rule head arity mismatch", f.argsPos().line(), f.argsPos().column(),
          "Expected arity: " + arity + ", number of arguments given: " + head.size());
    }
    if (!head.isEmpty()) {
      return rule;
    }
    final List<Rule.HeadArg> named = new ArrayList<>();
    for (int i = 0; i < arity; i++) {
      named.add(new Rule.HeadArg(new Expr.Var("_" + i, rule.pos()), null, List.of(), rule.pos()));
    }
    return new Rule(rule.name(), named, rule.kind(), rule.body(), rule.constant(), rule.pos(),
        rule.fixed());
  }

  /** The fixed rule {@code f} applies; {@code parser::fixed_rule_not_found} if there is none. */
  public FixedRule resolve(FixedApply f) {
    return find(f.name()).orElseThrow(() -> new DatalogException(
        ErrorCode.PARSER_FIXED_RULE_NOT_FOUND, "The requested fixed rule '" + f.name()
            + "' is not found", f.pos().line(), f.pos().column()));
  }

  /** The options of {@code f} as its rule reads them, with parameters {@code params}. */
  public static FixedRule.Options options(FixedApply f, Map<String, ?> params) {
    return new OptionValues(f, params);
  }

  /** {@code f} as a plan shows it: {@code ReorderSort(r[a, b], out: [a], take: 2)}. */
  public static String describe(FixedApply f) {
    final List<String> args = new ArrayList<>();
    for (FixedApply.Input in : f.inputs()) {
      final String bindings = in.named() != null
          ? in.named().stream().map(b -> b.column() + ": " + b.value())
              .collect(Collectors.joining(", ", "{", "}"))
          : in.bindings().toString();
      args.add((in.stored() ? "*" : "") + in.relation() + bindings);
    }
    f.options().forEach((k, v) -> args.add(k + ": " + v));
    return f.name() + "(" + String.join(", ", args) + ")";
  }
}
