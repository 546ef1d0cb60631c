package dev.mnestic.store;

import dev.mnestic.value.Json;
import dev.mnestic.value.SearchIndex;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What CozoScript's {@code ::access_level}, {@code ::set_triggers} and {@code ::hnsw create}
 * (also {@code ::fts}, {@code ::lsh}) set on a stored relation (a table of the store): its
 * access level, its trigger scripts ({@code on put}, {@code on rm}, {@code on replace}, each
 * kept as written) and its search indices' definitions, by index name (an index itself is
 * built in memory from the relation's rows: {@link SearchIndex}).
 *
 * <p>Kept as the store keeps a CozoScript column's type and default: in the store's own
 * metadata, here the table's comment ({@code COMMENT ON TABLE}, JDBC's {@code REMARKS}), as
 * {@value #MARK} and a JSON object. So it lives and dies with its table: it outlives the
 * connection that set it, every session of the store (embedded or through the server, now or
 * after the store is reopened) sees it, and a rename carries it along. A table without such a
 * comment (one SQL made) is {@link #NORMAL}. Writing it is DDL, which commits the session's
 * open transaction.
 *
 * <p>Both front doors obey it: CozoScript as CozoDB does ({@code cozo-core/src/query/stored.rs}),
 * SQL's INSERT, UPDATE, DELETE, MERGE ({@link StoreWrites}) and DROP TABLE, CREATE OR REPLACE
 * TABLE ({@link StoreDdlExecutor}) by the same levels, refused with {@link #refusal}.
 */
public record TablePolicy(Level level, List<String> put, List<String> rm, List<String> replace,
    Map<String, SearchIndex.Definition> searchIndices) {
  /** What begins a comment that is a policy. */
  static final String MARK = "mnestic:relation:";

  /** SQLSTATE 42501, insufficient privilege: what a refused operation fails with. */
  public static final String INSUFFICIENT_PRIVILEGE = "42501";

  /** A relation as made: normal, no triggers. */
  public static final TablePolicy NORMAL = new TablePolicy(Level.NORMAL, List.of(), List.of(),
      List.of(), Map.of());

  /**
   * CozoDB's access levels, from least to most allowed; each allows what the ones before it
   * do: {@link #HIDDEN} nothing (its rows are not read), {@link #READ_ONLY} reading,
   * {@link #PROTECTED} writing rows and setting triggers, {@link #NORMAL} also removing,
   * renaming and replacing the relation.
   */
  public enum Level {
    HIDDEN, READ_ONLY, PROTECTED, NORMAL;

    /** CozoDB's spelling: {@code hidden}, {@code read_only}, {@code protected}, {@code normal}. */
    @Override public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The level CozoDB spells {@code name}. */
    public static Level of(String name) {
      return valueOf(name.toUpperCase(Locale.ROOT));
    }
  }

  public TablePolicy {
    put = List.copyOf(put);
    rm = List.copyOf(rm);
    replace = List.copyOf(replace);
    searchIndices = Collections.unmodifiableMap(new LinkedHashMap<>(searchIndices));
  }

  /** Whether the level allows what needs {@code needed}. */
  public boolean allows(Level needed) {
    return level.compareTo(needed) >= 0;
  }

  public TablePolicy withLevel(Level level) {
    return new TablePolicy(level, put, rm, replace, searchIndices);
  }

  public TablePolicy withTriggers(List<String> put, List<String> rm, List<String> replace) {
    return new TablePolicy(level, put, rm, replace, searchIndices);
  }

  /** This policy with search index {@code definition} added, or with {@code name}'s removed (null). */
  public TablePolicy withSearchIndex(String name, SearchIndex.Definition definition) {
    final Map<String, SearchIndex.Definition> changed = new LinkedHashMap<>(searchIndices);
    if (definition == null) {
      changed.remove(name);
    } else {
      changed.put(name, definition);
    }
    return new TablePolicy(level, put, rm, replace, changed);
  }

  /**
   * CozoDB's message refusing {@code what} (its words: row insertion, row removal, relation
   * removal, ...) on {@code relation}.
   */
  public String refusal(String relation, String what) {
    return "Insufficient access level " + level + " for " + what + " on stored relation '"
        + relation + "'";
  }

  /** {@link #refusal} as the SQLException SQL gets, SQLSTATE {@value #INSUFFICIENT_PRIVILEGE}. */
  public SQLException sqlRefusal(String relation, String what) {
    return new SQLException(refusal(relation, what), INSUFFICIENT_PRIVILEGE);
  }

  /**
   * Refuses to read the rows of the store's table {@code table} (its stored name) when its
   * relation is {@code hidden}, as CozoScript refuses it: CozoDB's message, SQLSTATE
   * {@value #INSUFFICIENT_PRIVILEGE} (an SQLException in an IllegalStateException, as the
   * store's planning and its generated code throw). SQL asks where a read is planned
   * ({@link StoreTable#toRel}) and where it runs ({@link StoreReads#scan},
   * {@link StoreReads#readable}), so a plan made before the level changed is refused too.
   */
  public static void requireReadable(Session session, String table) {
    final TablePolicy policy = of(session, table);
    if (!policy.allows(Level.READ_ONLY)) {
      final SQLException refusal = policy.sqlRefusal(table, "reading rows");
      throw new IllegalStateException(refusal.getMessage(), refusal);
    }
  }

  /**
   * The policy of the store's table {@code table} (its stored name), from HSQLDB's own catalog
   * (the table's comment, set by DDL, which commits): no metadata query, as every write
   * statement asks.
   */
  public static TablePolicy of(Session session, String table) {
    final org.hsqldb.Table t = ((org.hsqldb.Session)
        ((org.hsqldb.jdbc.JDBCConnection) session.getConnection()).getSession())
        .database.schemaManager.findUserTable(table, Session.SCHEMA);
    return t == null ? NORMAL : parse(t.getName().comment);
  }

  /** Sets the policy of the store's table {@code table}: DDL, which commits. */
  public static void store(Session session, String table, TablePolicy policy)
      throws SQLException {
    try (Statement s = session.getConnection().createStatement()) {
      s.execute("COMMENT ON TABLE " + StoreDdlExecutor.quote(table) + " IS '"
          + policy.comment().replace("'", "''") + "'");
    }
  }

  /** The comment that keeps this policy. */
  String comment() {
    final Map<String, Object> members = new LinkedHashMap<>();
    members.put("access_level", level.toString());
    members.put("put", put);
    members.put("rm", rm);
    members.put("replace", replace);
    if (!searchIndices.isEmpty()) {
      final Map<String, Object> indices = new LinkedHashMap<>();
      searchIndices.forEach((name, d) -> indices.put(name,
          Json.object(Map.of("kind", d.kind(), "options", d.options()))));
      members.put("search_indices", Json.object(indices));
    }
    return MARK + Json.object(members).text();
  }

  /** The policy a table's comment keeps; {@link #NORMAL} for none or another comment. */
  static TablePolicy parse(String comment) {
    if (comment == null || !comment.startsWith(MARK)) {
      return NORMAL;
    }
    final Map<?, ?> members = (Map<?, ?>) Json.parse(comment.substring(MARK.length())).tree();
    return new TablePolicy(Level.of((String) members.get("access_level")),
        strings(members.get("put")), strings(members.get("rm")),
        strings(members.get("replace")), searchIndices(members.get("search_indices")));
  }

  private static Map<String, SearchIndex.Definition> searchIndices(Object tree) {
    final Map<String, SearchIndex.Definition> out = new LinkedHashMap<>();
    if (tree != null) {
      ((Map<?, ?>) tree).forEach((name, d) -> out.put((String) name, new SearchIndex.Definition(
          (String) ((Map<?, ?>) d).get("kind"), (String) name,
          Json.wrap(((Map<?, ?>) d).get("options")))));
    }
    return out;
  }

  private static List<String> strings(Object array) {
    final List<String> out = new ArrayList<>();
    for (Object o : (List<?>) array) {
      out.add((String) o);
    }
    return out;
  }
}
