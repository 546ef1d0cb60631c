package dev.mnestic.jdbc;

import dev.mnestic.rel.PlanRules;
import dev.mnestic.runtime.DeepStack;
import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.sql.SqlCreateStandingQuery;
import dev.mnestic.sql.SqlStandingQuery;
import dev.mnestic.sql.parser.impl.MnesticSqlParserImpl;
import dev.mnestic.store.EnumerableStoreModify;
import dev.mnestic.store.StoreWrites;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.interpreter.BindableConvention;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.util.CancelFlag;

import java.io.Reader;
import java.lang.reflect.Type;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * Calcite's statement preparation with mnestic's validator and converter (SKYLINE OF), planner
 * rules ({@link PlanRules#SQL}) and statement router: a statement is parsed once, and its parsed
 * tree decides what handles it ({@link #route}). A {@code lang=datalog} connection prepares with
 * {@link DatalogPrepare} instead, chosen when it connects.
 *
 * <p>Calcite's connection makes one for each statement it prepares.
 */
class MnesticPrepare extends CalcitePrepareImpl {
  /**
   * The statement being prepared, as {@link #route} parsed it, until Calcite's preparation asks
   * for its parser ({@link #createParser}).
   */
  private Parsed parsed;

  /** What the statement being prepared writes, when its batches go straight to the store. */
  private StoreWrites.DirectInsert directInsert;

  /** Called by the statement's preparation, with what {@link EnumerableStoreModify#directInsert} found. */
  void directInsert(StoreWrites.DirectInsert insert) {
    directInsert = insert;
  }

  /** A statement's text and its parse. */
  private record Parsed(String sql, SqlNode node) {
  }

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
    // SQL's rules (why: PlanRules).
    PlanRules.SQL.applyTo(planner);
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
   * Prepares a statement on a {@link DeepStack} thread, so that deep nesting and long chains of
   * operators do not overflow the caller's stack; SQL text past {@link StatementShape}'s limits
   * (or empty) is refused first.
   */
  @Override public <T> CalciteSignature<T> prepareSql(Context context,
      Query<T> query, Type elementType, long maxRowCount) {
    if (query.sql != null) {
      try {
        StatementShape.check(query.sql);
      } catch (SQLException e) {
        throw SqlFailures.<RuntimeException>sneaky(e);
      }
    }
    return DeepStack.call(() -> route(context, query, elementType, maxRowCount));
  }

  /**
   * The statement router. A statement prepared before under the same {@link PlanCache.Key} is
   * the plan kept then; any other is parsed once, and its parsed tree decides what handles it:
   * <ul>
   *   <li>DDL ({@link SqlKind#DDL}), standing queries' included: run now by the parser's
   *       {@link org.apache.calcite.server.DdlExecutor} ({@link MnesticDdlExecutor});
   *   <li>a query with a target ({@link SqlStandingQuery}), {@code SELECT STREAM} of a standing
   *       query (followed) and an EXPLAIN of a standing query: the connection's standing queries
   *       ({@link StandingStatements});
   *   <li>anything else (queries, EXPLAIN, INSERT, UPDATE, DELETE, and MERGE, whose two branches
   *       the validator splits): Calcite's preparation, handed the parsed tree
   *       ({@link #createParser}); an INSERT of parameters whose batches can go straight to
   *       the store becomes a {@link DirectInsertSignature}.
   * </ul>
   */
  private <T> CalciteSignature<T> route(Context context, Query<T> query, Type elementType,
      long maxRowCount) {
    final StandingStatements standing = StandingStatements.of(context);
    if (standing.sync()) {
      PlanCache.of(context).clear();
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
    final SqlNode node = parseStatement(context, query.sql);
    if (node.getKind().belongsTo(SqlKind.DDL)) {
      // as Calcite runs DDL (MnesticDdlExecutor); a standing query is stored as its text
      executeDdl(context, node instanceof SqlCreateStandingQuery create
          ? create.withSource(query.sql) : node);
      // The connection's tables or standing queries changed: plans over the old ones must not
      // run.
      cache.clear();
      return new CalciteSignature<>(query.sql, List.of(), Map.of(), null, List.of(),
          Meta.CursorFactory.OBJECT, null, List.of(), -1, null, Meta.StatementType.OTHER_DDL);
    }
    if (node instanceof SqlStandingQuery target) {
      return standing.prepare(context, query.sql, target);
    }
    if (node instanceof SqlSelect select && standing.follows(select)) {
      return standing.follow(context, query.sql, select);
    }
    if (node instanceof SqlExplain explain && standing.explains(explain)) {
      return standing.prepare(context, query.sql, explain);
    }
    parsed = new Parsed(query.sql, node);
    directInsert = null;
    final CalciteSignature<T> planned =
        super.prepareSql(context, query, elementType, maxRowCount);
    final CalciteSignature<T> signature = directInsert == null ? planned
        : new DirectInsertSignature<>(planned, directInsert);
    cache.put(key, signature);
    return signature;
  }

  private static SqlNode parseStatement(Context context, String sql) {
    try {
      return SqlParser.create(sql, MnesticParserFactory.parserConfig(context.config()))
          .parseStmt();
    } catch (SqlParseException e) {
      // As Calcite's preparation says it.
      throw new RuntimeException("parse failed: " + e.getMessage(), e);
    }
  }

  /**
   * As Calcite's, but the parser of the statement {@link #route} parsed gives that parse: Calcite
   * parses it no second time. Any other text (a view's, expanded) is parsed.
   */
  @Override protected SqlParser createParser(String sql, SqlParser.Config parserConfig) {
    final Parsed statement = parsed;
    if (statement == null || statement.sql != sql) {
      return super.createParser(sql, parserConfig);
    }
    parsed = null;
    return SqlParser.create(sql,
        parserConfig.withParserFactory(reader -> new ParsedStatement(statement.node)));
  }

  /** A parser that parses nothing: its statement is one parsed before. */
  private static final class ParsedStatement extends MnesticSqlParserImpl {
    private final SqlNode node;

    ParsedStatement(SqlNode node) {
      super(Reader.nullReader());
      this.node = node;
    }

    @Override public SqlNode parseSqlStmtEof() {
      return node;
    }
  }
}
