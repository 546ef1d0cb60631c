package dev.mnestic.sql;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParser;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What runs the dialect's standing queries ({@link SqlCreateStandingQuery},
 * {@link SqlDropStandingQuery}, {@link SqlStandingQuery}) for a connection: the service the
 * driver finds through {@link java.util.ServiceLoader}. The standing module implements it
 * (declared in its {@code META-INF/services}), with the sketch-sharing planner and OR-Tools
 * behind it; the driver's own jar carries neither, so without the standing jar beside it these
 * statements fail (SQLSTATE 0A000) saying which jar to add.
 *
 * <p>{@code root} is always a connection's root schema with its store session attached and
 * {@link #attachTo} done.
 */
public interface StandingQueries {
  /** The schema of a connection's root holding its standing queries as tables. */
  String SCHEMA = "STANDING";

  /**
   * Adds the store's standing queries to a connection's {@code root}, as the schema
   * {@value #SCHEMA} and each as a table of {@code root}, parsing their stored definitions with
   * {@code parser}; the session has no transaction open yet.
   */
  void attachTo(SchemaPlus root, SqlParser.Config parser);

  /**
   * Brings the connection's tables up to the store's catalog (another connection or a rollback
   * may have changed it); returns whether they changed, so plans over the old ones must go.
   */
  boolean sync(SchemaPlus root);

  /**
   * The connection's standing queries as the store's catalog has them now (synced): a schema
   * whose tables they are, as {@code DatabaseMetaData} lists them.
   */
  Schema schema(SchemaPlus root);

  /**
   * Stores {@code create}, whose {@link SqlCreateStandingQuery#source} is its statement's text,
   * in the session's transaction.
   */
  void create(SchemaPlus root, SqlCreateStandingQuery create);

  /** Removes {@code drop}'s standing query, in the session's transaction. */
  void drop(SchemaPlus root, SqlDropStandingQuery drop);

  /** {@code query}, a query with an accuracy target, lowered to run alone. */
  Target lower(SqlStandingQuery query, SchemaPlus root, JavaTypeFactory typeFactory);

  /**
   * The standing query {@code name} (a FROM's identifier, one that {@link #isStanding}) to be
   * followed ({@code SELECT STREAM * FROM name}).
   *
   * @throws RuntimeException when it cannot be followed (it selects no window bound), naming
   *     the place of {@code name}
   */
  Followed follow(SchemaPlus root, SqlIdentifier name);

  /** Whether {@code names} (a FROM's identifier) names one of the connection's standing queries. */
  boolean isStanding(SchemaPlus root, List<String> names);

  /**
   * The connection's plan of its standing queries as EXPLAIN shows it, in {@code form}
   * ({@code text}, {@code json} or {@code dot}); {@code all} adds the whole memo.
   */
  String explain(SchemaPlus root, String form, boolean all);

  /** The standing queries reading the store's table {@code table}, which DROP TABLE refuses. */
  List<String> readersOf(SchemaPlus root, String table);

  /** Whether {@code t} is this service's own error: a standing query that cannot be planned. */
  boolean isQueryError(Throwable t);

  /**
   * The {@code mnestic plan} command: plans the workload file {@code args} name with the
   * planner standing queries use; returns the exit status.
   */
  int plan(List<String> args, PrintStream out, PrintStream err);

  /**
   * A standing query written in PromQL ({@code AS PROMQL '...'}): its name as stored, its
   * expression's canonical text ({@link PromQl.Expr#toString}) and how often its windows end.
   * Its rows ({@code SELECT ts, labels, val FROM name}) are per window end and series.
   */
  record PromQlStanding(String name, String expr, java.time.Duration step) {
  }

  /**
   * The connection's standing queries written in PromQL, in the order they were created; none
   * without the standing module.
   */
  default List<PromQlStanding> promql(SchemaPlus root) {
    return List.of();
  }

  /** A query with an accuracy target, lowered: its rows are answered when executed. */
  interface Target {
    RelDataType rowType();

    /** Plans this query alone and answers it once, stopped when {@code cancel} is set. */
    List<Object[]> answer(SchemaPlus root, AtomicBoolean cancel);
  }

  /** A standing query to follow: its rows' type, and a feed of them for each execution. */
  interface Followed {
    RelDataType rowType();

    /**
     * Starts following, now: the feed's rows are those of the windows that close from now on,
     * each window closing {@code lateness} milliseconds after its end; it stops when
     * {@code cancel} is set.
     */
    Feed open(SchemaPlus root, AtomicBoolean cancel, long lateness);
  }

  /**
   * The rows of a followed standing query, each when its window closes, in window order; it has
   * no end. Read by one thread at a time; {@link #close} may come from any.
   */
  interface Feed extends AutoCloseable {
    /**
     * Waits at most {@code millis} for a row to be ready (returning at once when one is);
     * returns how many rows {@link #next} gives now without waiting.
     *
     * @throws RuntimeException when the feed was stopped (its cancel flag) or closed
     */
    int await(long millis);

    /**
     * The next row, waiting for its window to close.
     *
     * @throws RuntimeException when the feed was stopped (its cancel flag) or closed
     */
    Object[] next();

    /** Stops the feed: a thread waiting in {@link #await} or {@link #next} fails soon after. */
    @Override void close();
  }
}
