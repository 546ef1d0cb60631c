package dev.mnestic.jdbc;

import dev.mnestic.store.Session;

import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;

import java.lang.reflect.Type;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A connection's prepared statements by SQL text, so that running the same text again on a
 * fresh {@code Statement} (a tool re-running a query, a program not holding a
 * {@code PreparedStatement}) does not parse, validate, plan and generate code again: it
 * executes the {@link CalciteSignature} that preparing it made, as a {@code PreparedStatement}
 * re-executes its own.
 *
 * <p>A signature is reused only under the same {@link Key}: the SQL text, the connection's
 * default schema, its properties, the element type and {@code maxRows}, and the schema version:
 * the store's (HSQLDB's schema change stamp, which every DDL of any session moves: CREATE, DROP,
 * ALTER, views, comments, Datalog's {@code :create} and {@code ::remove}) and the connection's
 * own catalog (Calcite DDL, and the store's standing queries as this connection last saw them:
 * written in a catalog table, not by DDL), whose changes {@link #clear} the cache. The
 * version is read before preparing, so a plan made while DDL ran is kept under the older
 * version and never found again.
 *
 * <p>What is kept holds no execution's state: a signature is the plan's compiled code, its
 * constants (Calcite's internal parameters: conformance, stashed objects of the plan), its
 * column metadata and the schema snapshot it was planned on; each execution binds it to its
 * own data context (parameter values, cancel flag, timeout, current time). Statements that act
 * when prepared (DDL, CREATE and DROP STANDING QUERY) are not kept; nor are EXPLAIN of
 * a standing query, a target-bearing query and Datalog scripts, which do not plan through
 * Calcite.
 *
 * <p>Per connection, since a plan runs on the connection's store session; at most
 * {@value #CAPACITY} statements, least recently used dropped first. Thread-safe.
 */
public final class PlanCache {
  /** Statements kept per connection. */
  static final int CAPACITY = 64;

  private static final Map<CalciteConnection, PlanCache> CACHES =
      Collections.synchronizedMap(new WeakHashMap<>());
  private static final AtomicLong TOTAL_HITS = new AtomicLong();

  private final Map<Key, CalciteSignature<?>> signatures =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<Key, CalciteSignature<?>> e) {
          return size() > CAPACITY;
        }
      };
  private long hits;

  private PlanCache() {
  }

  /** Everything a prepared statement's plan depends on, besides the data. */
  record Key(String sql, List<String> defaultSchemaPath, Map<Object, Object> properties,
      Type elementType, long maxRowCount, boolean bindable, long storeSchemaVersion) {
  }

  /** The cache of the connection {@code context} prepares for. */
  static PlanCache of(CalcitePrepare.Context context) {
    return CACHES.computeIfAbsent(connection(context), c -> new PlanCache());
  }

  /** Drops the cache of a closing connection. */
  static void close(CalciteConnection connection) {
    CACHES.remove(connection);
  }

  private static CalciteConnection connection(CalcitePrepare.Context context) {
    return (CalciteConnection) context.getDataContext().getQueryProvider();
  }

  /** The key of preparing {@code sql} now in {@code context}. */
  static Key key(CalcitePrepare.Context context, String sql, Type elementType, long maxRowCount,
      boolean bindable) {
    return new Key(sql, List.copyOf(context.getDefaultSchemaPath()),
        Map.copyOf(connection(context).getProperties()), elementType, maxRowCount, bindable,
        Session.of(context.getRootSchema().plus()).schemaVersion());
  }

  /** The signature prepared under {@code key}, or null. */
  @SuppressWarnings("unchecked")
  synchronized <T> CalciteSignature<T> get(Key key) {
    final CalciteSignature<T> signature = (CalciteSignature<T>) signatures.get(key);
    if (signature != null) {
      hits++;
      TOTAL_HITS.incrementAndGet();
    }
    return signature;
  }

  /**
   * Keeps {@code signature} under {@code key} if it is a query or DML, which may run again; any
   * other statement was DDL, run when prepared, and may have changed what this connection sees
   * outside the store (Calcite's schema), so the cache is cleared.
   */
  synchronized void put(Key key, CalciteSignature<?> signature) {
    if (signature.statementType == Meta.StatementType.SELECT
        || signature.statementType == Meta.StatementType.IS_DML) {
      signatures.put(key, signature);
    } else {
      signatures.clear();
    }
  }

  /**
   * Forgets {@code signature} if {@code connection} keeps it: its code failed to initialize (a
   * constant that cannot be computed, such as {@code 1 / 0}), and a class whose initializer
   * failed cannot run again; preparing anew gives the same error again.
   */
  static void forget(CalciteConnection connection, Meta.Signature signature) {
    final PlanCache cache = CACHES.get(connection);
    if (cache != null) {
      synchronized (cache) {
        cache.signatures.values().removeIf(s -> s == signature);
      }
    }
  }

  /** Forgets every statement: the connection's own catalog changed. */
  synchronized void clear() {
    signatures.clear();
  }

  /** How many preparations of {@code connection} (a {@code jdbc:mnestic:} one) were cache hits. */
  public static long hits(Connection connection) throws SQLException {
    final PlanCache cache = CACHES.get(connection.unwrap(CalciteConnection.class));
    if (cache == null) {
      return 0;
    }
    synchronized (cache) {
      return cache.hits;
    }
  }

  /** How many preparations of every connection of this process were cache hits. */
  public static long hitsInProcess() {
    return TOTAL_HITS.get();
  }
}
