package dev.mnestic.store;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Runs MERGE in the store. Calcite's relational form of MERGE keeps too
 * little to execute it (an insert-only MERGE cannot tell matched rows from
 * unmatched ones), and HSQLDB implements MERGE fully and atomically; so the
 * parsed statement is sent to HSQLDB, its names first respelled as stored
 * (names resolve ignoring case, as everywhere in mnestic).
 */
public final class StoreMerge {
  private StoreMerge() {
  }

  /** Executes {@code merge} on the session; returns the number of rows inserted or updated. */
  public static long execute(Session session, SqlMerge merge, List<Object> parameters) {
    final String sql = storeSql(session, merge);
    try (PreparedStatement ps = session.getConnection().prepareStatement(sql)) {
      for (int i = 0; i < parameters.size(); i++) {
        ps.setObject(i + 1, parameters.get(i));
      }
      return ps.executeLargeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("MERGE failed: " + e.getMessage(), e);
    }
  }

  /** The statement as HSQLDB reads it: every identifier quoted, in its stored spelling. */
  static String storeSql(Session session, SqlMerge merge) {
    final Set<String> stored = new HashSet<>();
    for (String table : StoreCatalog.tableNames(session)) {
      stored.add(table);
      for (Object[] column : StoreCatalog.columns(session, table)) {
        stored.add((String) column[0]);
      }
    }
    final Map<String, String> byUpperCase = new HashMap<>();
    final Set<String> ambiguous = new HashSet<>();
    for (String name : stored) {
      final String upper = name.toUpperCase(Locale.ROOT);
      if (byUpperCase.putIfAbsent(upper, name) != null) {
        ambiguous.add(upper);
      }
    }
    merge.accept(new SqlBasicVisitor<Void>() {
      @Override public Void visit(SqlIdentifier id) {
        final List<String> names = new ArrayList<>();
        for (String name : id.names) {
          final String upper = name.toUpperCase(Locale.ROOT);
          names.add(stored.contains(name) || ambiguous.contains(upper)
              ? name : byUpperCase.getOrDefault(upper, name));
        }
        id.setNames(names, null);
        return null;
      }
    });
    return merge.toSqlString(StoreSchema.DIALECT).getSql();
  }
}
