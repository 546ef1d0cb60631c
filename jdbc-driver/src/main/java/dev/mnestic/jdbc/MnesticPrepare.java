package dev.mnestic.jdbc;

import dev.mnestic.datalog.DatalogException;
import dev.mnestic.rel.MnesticRules;
import dev.mnestic.runtime.DeepStack;
import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.sql.SqlCreateStandingQuery;
import dev.mnestic.sql.SqlDropStandingQuery;
import dev.mnestic.sql.SqlStandingQuery;
import dev.mnestic.standing.Dashboard;
import dev.mnestic.standing.StandingQuery;
import dev.mnestic.standing.StandingQueryException;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;
import dev.mnestic.store.StoreRules;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.util.CancelFlag;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.interpreter.BindableConvention;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.ddl.SqlDropTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeName;

import java.lang.reflect.Type;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Calcite's statement preparation with mnestic's validator and converter
 * (SKYLINE OF) and planner rules.
 */
final class MnesticPrepare extends CalcitePrepareImpl {
  @Override protected RelOptPlanner createPlanner(
      Context prepareContext, org.apache.calcite.plan.Context externalContext,
      RelOptCostFactory costFactory) {
    // The statement's cancel flag reaches the planner (checkCancel, at each rule it fires):
    // a statement stopped while planned stops planning; MnesticPreparingStmt.implement fails it.
    final RunningStatement running = RunningStatement.current();
    final RelOptPlanner planner = super.createPlanner(prepareContext,
        running == null ? externalContext : Contexts.chain(
            Contexts.of(new CancelFlag(running.flag())),
            externalContext != null ? externalContext : Contexts.of(prepareContext.config())),
        costFactory);
    // Store tables are written by StoreWrites, not through a Java collection.
    planner.removeRule(EnumerableRules.ENUMERABLE_TABLE_MODIFICATION_RULE);
    planner.addRule(StoreRules.STORE_MODIFY);
    planner.addRule(MnesticRules.ENUMERABLE_RECURSIVE_UNION);
    // WITH RECURSIVE: Calcite's rule, with the recursive step rebuilt each round.
    planner.removeRule(EnumerableRules.ENUMERABLE_REPEAT_UNION_RULE);
    planner.addRule(MnesticRules.ENUMERABLE_REPEAT_UNION);
    planner.addRule(MnesticRules.ENUMERABLE_SKYLINE);
    // Many rows of VALUES (and IN lists, which become VALUES) as data, not as generated code.
    planner.removeRule(EnumerableRules.ENUMERABLE_VALUES_RULE);
    planner.addRule(MnesticRules.ENUMERABLE_VALUES);
    // Store scans come unsorted: a merge join would sort both sides, and
    // Calcite's merge join is many times slower than its hash join here
    // (bench/RESULTS.md, "Where work over the store runs").
    planner.removeRule(EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE);
    return planner;
  }

  /** As Calcite's, with mnestic's validator and converter (SKYLINE OF). */
  @Override protected CalcitePreparingStmt getPreparingStmt(Context context, Type elementType,
      CalciteCatalogReader catalogReader, RelOptPlanner planner) {
    return new MnesticPreparingStmt(this, context, catalogReader, context.getTypeFactory(),
        context.getRootSchema(),
        elementType == Object[].class ? EnumerableRel.Prefer.ARRAY : EnumerableRel.Prefer.CUSTOM,
        createCluster(planner, new RexBuilder(context.getTypeFactory())),
        enableBindable ? BindableConvention.INSTANCE : EnumerableConvention.INSTANCE,
        createConvertletTable());
  }

  /**
   * A statement that may be a standing query's: CREATE or DROP STANDING QUERY, or a query with
   * a target (WITHIN RANK / RELATIVE ERROR). Such statements are parsed here; others go on to
   * Calcite's preparation.
   */
  private static final Pattern STANDING = Pattern.compile(
      "(?is)\\bSTANDING\\s+QUERY\\b|\\bWITHIN\\s+(RANK|RELATIVE)\\b");

  /** A statement that may be a DROP TABLE, which a standing query reading the table refuses. */
  private static final Pattern DROP_TABLE = Pattern.compile("(?is)^\\s*DROP\\s+TABLE\\b");

  /**
   * Prepares a statement on a {@link DeepStack} thread, so that deep nesting and long chains of
   * operators do not overflow the caller's stack; SQL text past {@link StatementShape}'s limits
   * (or empty) is refused first.
   */
  @Override public <T> CalciteSignature<T> prepareSql(Context context,
      Query<T> query, Type elementType, long maxRowCount) {
    if (query.sql != null && !Driver.DATALOG.equalsIgnoreCase(((CalciteConnection) context
        .getDataContext().getQueryProvider()).getProperties().getProperty(Driver.LANG))) {
      try {
        StatementShape.check(query.sql);
      } catch (SQLException e) {
        throw SqlFailures.<RuntimeException>sneaky(e);
      }
    }
    return DeepStack.call(() -> prepareDeep(context, query, elementType, maxRowCount));
  }

  private <T> CalciteSignature<T> prepareDeep(Context context,
      Query<T> query, Type elementType, long maxRowCount) {
    if (query.sql != null && Driver.DATALOG.equalsIgnoreCase(((CalciteConnection) context
        .getDataContext().getQueryProvider()).getProperties().getProperty(Driver.LANG))) {
      try {
        @SuppressWarnings("unchecked")
        final CalciteSignature<T> script = (CalciteSignature<T>) (CalciteSignature<?>)
            DatalogSignature.prepare(query.sql);
        return script;
      } catch (DatalogException e) {
        throw new IllegalStateException(e.render(query.sql), e);
      }
    }
    // Other connections (or a rollback) may have changed the store's standing queries since:
    // plans over the old ones must not run.
    if (Dashboard.of(context.getRootSchema().plus()).sync()) {
      PlanCache.of(context).clear();
    }
    if (query.sql != null && EXPLAIN.matcher(watched(query.sql)).matches()) {
      final SqlNode node = parseStatement(context, query.sql);
      if (node instanceof SqlExplain explain && readsStandingQuery(context, explain)) {
        return prepareExplainStanding(context, query.sql, explain);
      }
    }
    if (query.sql != null && STANDING.matcher(watched(query.sql)).find()) {
      final SqlNode node = parseStatement(context, query.sql);
      if (node instanceof SqlCreateStandingQuery
          || node instanceof SqlDropStandingQuery || node instanceof SqlStandingQuery) {
        final CalciteSignature<T> standing = prepareStanding(context, query.sql, node);
        if (!(node instanceof SqlStandingQuery)) {
          // The connection's tables changed: plans over the old ones must not run.
          PlanCache.of(context).clear();
        }
        return standing;
      }
    }
    if (query.sql != null && DROP_TABLE.matcher(query.sql).find()
        && parseStatement(context, query.sql) instanceof SqlDropTable drop) {
      refuseDependedOn(context, drop);
    }
    if (query.sql == null) {
      return super.prepareSql(context, query, elementType, maxRowCount);
    }
    final PlanCache cache = PlanCache.of(context);
    final PlanCache.Key key =
        PlanCache.key(context, query.sql, elementType, maxRowCount, enableBindable);
    final CalciteSignature<T> cached = cache.get(key);
    if (cached != null) {
      return cached;
    }
    final CalciteSignature<T> signature =
        super.prepareSql(context, query, elementType, maxRowCount);
    cache.put(key, signature);
    return signature;
  }

  /**
   * {@code sql} for a pattern to read: the running statement's flag is looked at every
   * {@value #WATCH_CHARS} characters read, so a scan of a huge statement (over 20 MB, STANDING
   * took 0.7-1.5 s under load) ends when it is stopped.
   */
  private static CharSequence watched(String sql) {
    return new CharSequence() {
      @Override public int length() {
        return sql.length();
      }

      @Override public char charAt(int index) {
        if ((index & (WATCH_CHARS - 1)) == 0) {
          RunningStatement.checkCurrent();
        }
        return sql.charAt(index);
      }

      @Override public CharSequence subSequence(int start, int end) {
        return sql.subSequence(start, end);
      }

      @Override public String toString() {
        return sql;
      }
    };
  }

  private static final int WATCH_CHARS = 1 << 16;

  /**
   * CREATE and DROP STANDING QUERY change the store's standing queries now (in the session's
   * transaction), as Calcite runs DDL; a query with a target is planned alone and answered when
   * executed.
   */
  private static <T> CalciteSignature<T> prepareStanding(Context context, String sql,
      SqlNode node) {
    final SchemaPlus root = context.getRootSchema().plus();
    if (node instanceof SqlCreateStandingQuery create) {
      Dashboard.of(root).create(create, sql);
    } else if (node instanceof SqlDropStandingQuery drop) {
      Dashboard.of(root).drop(drop);
    } else {
      final StandingQuery standing = StandingQuery.lower("query", (SqlStandingQuery) node, root,
          context.getTypeFactory());
      final List<ColumnMetaData> columns = new ArrayList<>();
      for (RelDataTypeField f : standing.rowType().getFieldList()) {
        final boolean time = f.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP;
        columns.add(new ColumnMetaData(f.getIndex(), false, true, false, false,
            f.getType().isNullable() ? DatabaseMetaData.columnNullable
                : DatabaseMetaData.columnNoNulls,
            true, 20, f.getName(), f.getName(), null, f.getType().getPrecision(), 0, null, null,
            time ? ColumnMetaData.scalar(Types.TIMESTAMP, "TIMESTAMP", ColumnMetaData.Rep.LONG)
                : ColumnMetaData.scalar(Types.DOUBLE, "DOUBLE", ColumnMetaData.Rep.DOUBLE),
            true, false, false, time ? Long.class.getName() : Double.class.getName()));
      }
      final Bindable<T> bindable = dataContext -> {
        @SuppressWarnings("unchecked")
        final List<T> rows = (List<T>) (List<?>) Dashboard.answer(standing,
            dataContext.getRootSchema(), DataContext.Variable.CANCEL_FLAG.get(dataContext));
        return Linq4j.asEnumerable(rows);
      };
      return new CalciteSignature<>(sql, List.of(), Map.of(), standing.rowType(), columns,
          Meta.CursorFactory.ARRAY, context.getRootSchema(), List.of(), -1, bindable,
          Meta.StatementType.SELECT);
    }
    return new CalciteSignature<>(sql, List.of(), Map.of(), null, List.of(),
        Meta.CursorFactory.OBJECT, null, List.of(), -1, null, Meta.StatementType.OTHER_DDL);
  }

  /** An EXPLAIN: one of a standing query's read shows the planner's plan. */
  private static final Pattern EXPLAIN = Pattern.compile(
      "(?is)^(\\s|--[^\\n]*(\\n|$)|/\\*.*?\\*/)*EXPLAIN\\b.*");

  /** Whether {@code explain} is of a SELECT from one standing query of the connection. */
  private static boolean readsStandingQuery(Context context, SqlExplain explain) {
    return explain.getDepth() != SqlExplain.Depth.TYPE
        && explain.getExplicandum() instanceof SqlSelect select
        && select.getFrom() instanceof SqlIdentifier from
        && Dashboard.of(context.getRootSchema().plus()).isStanding(from.names);
  }

  /**
   * {@code EXPLAIN PLAN FOR SELECT ... FROM standing_query}: the connection's standing queries
   * are answered together, so the plan shown is theirs ({@link Dashboard#explain}), one row in
   * the column PLAN as Calcite's EXPLAIN gives: {@code INCLUDING ALL ATTRIBUTES} adds the whole
   * memo, {@code AS JSON} and {@code AS DOT} are the viewer's JSON and Graphviz forms.
   */
  private static <T> CalciteSignature<T> prepareExplainStanding(Context context, String sql,
      SqlExplain explain) {
    final String form = switch (explain.getFormat()) {
      case TEXT -> "text";
      case JSON -> "json";
      case DOT -> "dot";
      default -> throw new StandingQueryException(formatPosition(sql),
          "a standing query's plan is shown as TEXT, JSON or DOT, not " + explain.getFormat());
    };
    final boolean all = explain.getDetailLevel() == SqlExplainLevel.ALL_ATTRIBUTES;
    final List<ColumnMetaData> columns =
        List.of(MetaImpl.columnMetaData("PLAN", 0, String.class, false));
    final Bindable<T> bindable = dataContext -> {
      @SuppressWarnings("unchecked")
      final T row = (T) Dashboard.of(dataContext.getRootSchema()).explain(form, all);
      return Linq4j.asEnumerable(List.of(row));
    };
    return new CalciteSignature<>(sql, List.of(), Map.of(),
        context.getTypeFactory().builder().add("PLAN", SqlTypeName.VARCHAR).build(), columns,
        Meta.CursorFactory.OBJECT, context.getRootSchema(), List.of(), -1, bindable,
        Meta.StatementType.SELECT);
  }

  /** Where an EXPLAIN's {@code AS format} names its format. */
  private static SqlParserPos formatPosition(String sql) {
    final Matcher m = Pattern.compile("(?is)\\bAS\\s+(\\w+)\\s+FOR\\b").matcher(sql);
    final int at = m.find() ? m.start(1) : 0;
    final String before = sql.substring(0, at);
    return new SqlParserPos(before.split("\n", -1).length,
        at - before.lastIndexOf('\n'));
  }

  /**
   * Refuses {@code drop} with SQLSTATE 2BP01 (PostgreSQL's "dependent objects still exist") when
   * standing queries read the table it drops: dropped, the table would leave them unreadable, as
   * a view's table left PostgreSQL's.
   */
  private static void refuseDependedOn(Context context, SqlDropTable drop) {
    final SqlIdentifier name = drop.name;
    if (name.names.size() > 2 || name.names.size() == 2
        && !name.names.get(0).equalsIgnoreCase(Session.SCHEMA)) {
      return; // not the store's table: the DDL executor says so
    }
    final SchemaPlus root = context.getRootSchema().plus();
    final Optional<String> table = StoreCatalog.findTable(Session.of(root),
        name.names.get(name.names.size() - 1));
    final List<String> dependents = table.isEmpty() ? List.of()
        : Dashboard.of(root).readersOf(table.get());
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

  private static SqlNode parseStatement(Context context, String sql) {
    try {
      return SqlParser.create(sql, MnesticParserFactory.parserConfig(context.config()))
          .parseStmt();
    } catch (SqlParseException e) {
      throw new RuntimeException("parse failed: " + e.getMessage(), e);
    }
  }
}
