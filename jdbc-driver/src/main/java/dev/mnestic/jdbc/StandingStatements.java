package dev.mnestic.jdbc;

import dev.mnestic.sql.SqlCreateStandingQuery;
import dev.mnestic.sql.SqlDropStandingQuery;
import dev.mnestic.sql.SqlStandingQuery;
import dev.mnestic.sql.StandingQueries;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;

import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.jdbc.CalcitePrepare.Context;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.ddl.SqlDropTable;
import org.apache.calcite.sql.type.SqlTypeName;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the statement router ({@link MnesticPrepare}) asks of the connection's standing queries
 * (the driver's {@link StandingQueries}, {@link Standing#queries()}): every call of the router
 * into them is here.
 */
final class StandingStatements {
  private final SchemaPlus root;

  private StandingStatements(SchemaPlus root) {
    this.root = root;
  }

  /** The standing queries of the connection {@code context} prepares for. */
  static StandingStatements of(Context context) {
    return new StandingStatements(context.getRootSchema().plus());
  }

  /**
   * Reads the store's standing queries again; whether they changed since this connection last
   * saw them (another connection, or a rollback, changed them): plans over the old ones must
   * not run.
   */
  boolean sync() {
    return Standing.queries().sync(root);
  }

  /**
   * CREATE STANDING QUERY {@code ddl}, its text attached: changes the store's standing queries
   * now, in the session's transaction, as Calcite runs DDL.
   */
  void execute(SqlCreateStandingQuery ddl) {
    Standing.queries().create(root, ddl);
  }

  /** DROP STANDING QUERY {@code ddl}: as {@link #execute(SqlCreateStandingQuery)}. */
  void execute(SqlDropStandingQuery ddl) {
    Standing.queries().drop(root, ddl);
  }

  /**
   * A query with a target ({@code WITHIN RANK | RELATIVE ERROR}), planned alone when prepared
   * and answered when executed.
   */
  <T> CalciteSignature<T> prepare(Context context, String sql, SqlStandingQuery query) {
    final StandingQueries.Target standing = Standing.queries().lower(query, root,
        context.getTypeFactory());
    final Bindable<T> bindable = dataContext -> {
      @SuppressWarnings("unchecked")
      final List<T> rows = (List<T>) (List<?>) standing.answer(
          dataContext.getRootSchema(), DataContext.Variable.CANCEL_FLAG.get(dataContext));
      return Linq4j.asEnumerable(rows);
    };
    return new CalciteSignature<>(sql, List.of(), Map.of(), standing.rowType(),
        columns(standing.rowType()), Meta.CursorFactory.ARRAY, context.getRootSchema(),
        List.of(), -1, bindable, Meta.StatementType.SELECT);
  }

  /** The columns of a standing query's rows of type {@code rowType}: window bounds and values. */
  private static List<ColumnMetaData> columns(RelDataType rowType) {
    final List<ColumnMetaData> columns = new ArrayList<>();
    for (RelDataTypeField f : rowType.getFieldList()) {
      final boolean time = f.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP;
      columns.add(new ColumnMetaData(f.getIndex(), false, true, false, false,
          f.getType().isNullable() ? DatabaseMetaData.columnNullable
              : DatabaseMetaData.columnNoNulls,
          true, 20, f.getName(), f.getName(), null, f.getType().getPrecision(), 0, null, null,
          time ? ColumnMetaData.scalar(Types.TIMESTAMP, "TIMESTAMP", ColumnMetaData.Rep.LONG)
              : ColumnMetaData.scalar(Types.DOUBLE, "DOUBLE", ColumnMetaData.Rep.DOUBLE),
          true, false, false, time ? Long.class.getName() : Double.class.getName()));
    }
    return columns;
  }

  /** Whether {@code select} is {@code SELECT STREAM ... FROM name} of a standing query. */
  boolean follows(SqlSelect select) {
    return select.isKeywordPresent(SqlSelectKeyword.STREAM)
        && select.getFrom() instanceof SqlIdentifier from
        && Standing.queries().isStanding(root, from.names);
  }

  /**
   * {@code SELECT STREAM * FROM name} (a {@code select} that {@link #follows}): the standing
   * query followed, each window's row as the window closes (the lateness rule:
   * {@link StandingQueries.Feed}'s implementation), with the connection's
   * {@value Driver#FOLLOW_LATENESS}. Its result set has no end: Statement.cancel, close or the
   * query timeout stop it.
   */
  <T> CalciteSignature<T> follow(Context context, String sql, SqlSelect select) {
    final boolean whole = select.getSelectList().size() == 1
        && select.getSelectList().get(0) instanceof SqlIdentifier star && star.isStar()
        && select.getWhere() == null && select.getGroup() == null && select.getHaving() == null
        && select.getWindowList().isEmpty() && select.getQualify() == null
        && select.getOrderList() == null && select.getOffset() == null
        && select.getFetch() == null && !select.isDistinct();
    if (!whole) {
      throw SqlFailures.<RuntimeException>sneaky(new SQLException("At line "
          + select.getParserPosition().getLineNum() + ", column "
          + select.getParserPosition().getColumnNum() + ": a standing query is followed whole:"
          + " SELECT STREAM * FROM name", "42000"));
    }
    final long lateness = Driver.followLateness(
        ((CalciteConnection) context.getDataContext().getQueryProvider()).getProperties());
    final StandingQueries.Followed followed =
        Standing.queries().follow(root, (SqlIdentifier) select.getFrom());
    final Bindable<T> bindable = dataContext -> new FeedRows<>(followed, dataContext, lateness);
    return new CalciteSignature<>(sql, List.of(), Map.of(), followed.rowType(),
        columns(followed.rowType()), Meta.CursorFactory.ARRAY, context.getRootSchema(),
        List.of(), -1, bindable, Meta.StatementType.SELECT);
  }

  /** Whether {@code explain} is of a SELECT from one standing query of the connection. */
  boolean explains(SqlExplain explain) {
    return explain.getDepth() != SqlExplain.Depth.TYPE
        && explain.getExplicandum() instanceof SqlSelect select
        && select.getFrom() instanceof SqlIdentifier from
        && Standing.queries().isStanding(root, from.names);
  }

  /**
   * {@code EXPLAIN PLAN FOR SELECT ... FROM standing_query} (one that {@link #explains}): the
   * connection's standing queries are answered together, so the plan shown is theirs
   * ({@link StandingQueries#explain}), one row in the column PLAN as Calcite's EXPLAIN gives:
   * {@code INCLUDING ALL ATTRIBUTES} adds the whole memo, {@code AS JSON} and {@code AS DOT} are
   * the viewer's JSON and Graphviz forms.
   */
  <T> CalciteSignature<T> prepare(Context context, String sql, SqlExplain explain) {
    final String form = switch (explain.getFormat()) {
      case TEXT -> "text";
      case JSON -> "json";
      case DOT -> "dot";
      default -> throw SqlFailures.<RuntimeException>sneaky(new SQLException(
          atPosition(sql) + "a standing query's plan is shown as TEXT, JSON or DOT, not "
          + explain.getFormat(), "42000"));
    };
    final boolean all = explain.getDetailLevel() == SqlExplainLevel.ALL_ATTRIBUTES;
    final List<ColumnMetaData> columns =
        List.of(MetaImpl.columnMetaData("PLAN", 0, String.class, false));
    final Bindable<T> bindable = dataContext -> {
      @SuppressWarnings("unchecked")
      final T row = (T) Standing.queries().explain(dataContext.getRootSchema(), form, all);
      return Linq4j.asEnumerable(List.of(row));
    };
    return new CalciteSignature<>(sql, List.of(), Map.of(),
        context.getTypeFactory().builder().add("PLAN", SqlTypeName.VARCHAR).build(), columns,
        Meta.CursorFactory.OBJECT, context.getRootSchema(), List.of(), -1, bindable,
        Meta.StatementType.SELECT);
  }

  /** {@code At line L, column C: }, where an EXPLAIN's {@code AS format} names its format. */
  private static String atPosition(String sql) {
    final Matcher m = Pattern.compile("(?is)\\bAS\\s+(\\w+)\\s+FOR\\b").matcher(sql);
    final int at = m.find() ? m.start(1) : 0;
    final String before = sql.substring(0, at);
    return "At line " + before.split("\n", -1).length + ", column "
        + (at - before.lastIndexOf('\n')) + ": ";
  }

  /**
   * Refuses {@code drop} with SQLSTATE 2BP01 (PostgreSQL's "dependent objects still exist") when
   * standing queries read the table it drops: dropped, the table would leave them unreadable, as
   * a view's table left PostgreSQL's.
   */
  void refuseDependedOn(Context context, SqlDropTable drop) {
    final SqlIdentifier name = drop.name;
    if (name.names.size() > 2 || name.names.size() == 2
        && !name.names.get(0).equalsIgnoreCase(Session.SCHEMA)) {
      return; // not the store's table: the DDL executor says so
    }
    final Optional<String> table = StoreCatalog.findTable(Session.of(root),
        name.names.get(name.names.size() - 1));
    final List<String> dependents = table.isEmpty() ? List.of()
        : Standing.queries().readersOf(root, table.get());
    if (!dependents.isEmpty()) {
      throw SqlFailures.<RuntimeException>sneaky(new SQLException("At line "
          + name.getParserPosition().getLineNum() + ", column "
          + name.getParserPosition().getColumnNum() + ": cannot drop table " + table.get()
          + " because standing " + (dependents.size() == 1 ? "query " : "queries ")
          + String.join(", ", dependents) + " read" + (dependents.size() == 1 ? "s" : "")
          + " it; drop " + (dependents.size() == 1 ? "it" : "them")
          + " first (DROP STANDING QUERY name)", "2BP01"));
    }
  }

  /**
   * A followed standing query's rows, read from its feed: endless, so its iterator waits in
   * {@code next()} (not in {@code hasNext()}, nor when made: the statement's result set is
   * returned at once), and closing the iterator (the result set) ends the feed.
   */
  private static final class FeedRows<T> extends AbstractEnumerable<T> {
    private final StandingQueries.Followed followed;
    private final DataContext dataContext;
    private final long lateness;

    FeedRows(StandingQueries.Followed followed, DataContext dataContext, long lateness) {
      this.followed = followed;
      this.dataContext = dataContext;
      this.lateness = lateness;
    }

    @Override public Iterator<T> iterator() {
      final AtomicBoolean flag = DataContext.Variable.CANCEL_FLAG.get(dataContext);
      final StandingQueries.Feed feed = followed.open(dataContext.getRootSchema(), flag, lateness);
      if (flag != null) {
        Feeds.put(flag, feed);
      }
      final class Rows implements Iterator<T>, AutoCloseable {
        @Override public boolean hasNext() {
          return true;
        }

        @SuppressWarnings("unchecked")
        @Override public T next() {
          return (T) feed.next();
        }

        @Override public void close() {
          if (flag != null) {
            Feeds.close(flag, feed);
          } else {
            feed.close();
          }
        }
      }
      return new Rows();
    }

    @Override public Enumerator<T> enumerator() {
      return Linq4j.iterableEnumerator(this);
    }
  }
}
