package dev.mnestic.jdbc;

import dev.mnestic.rel.EnumerableStopCheck;
import dev.mnestic.rel.Plans;
import dev.mnestic.rel.rules.SkylineRules;
import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.sql.fun.MnesticOperatorTable;
import dev.mnestic.store.EnumerableStoreModify;
import dev.mnestic.sql.validate.MnesticSqlValidator;
import dev.mnestic.sql2rel.MnesticRelFieldTrimmer;
import dev.mnestic.sql2rel.MnesticSqlToRelConverter;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

import java.sql.SQLException;
import java.util.function.UnaryOperator;

/**
 * Calcite's preparation of one statement, with mnestic's validator,
 * SQL-to-relational converter and skyline rules (sql-dialect).
 */
final class MnesticPreparingStmt extends CalcitePrepareImpl.CalcitePreparingStmt {
  private final RelOptCluster cluster;
  private final MnesticPrepare prepare;

  MnesticPreparingStmt(MnesticPrepare prepare, CalcitePrepare.Context context,
      CalciteCatalogReader catalogReader, RelDataTypeFactory typeFactory, CalciteSchema schema,
      EnumerableRel.Prefer prefer, RelOptCluster cluster, Convention resultConvention,
      SqlRexConvertletTable convertletTable) {
    super(prepare, context, catalogReader, typeFactory, schema, prefer, cluster,
        resultConvention, convertletTable);
    this.cluster = cluster;
    this.prepare = prepare;
  }

  /**
   * As Calcite's, once long OR chains of equalities are IN lists ({@link OrChains}) and the
   * statement is found to hold no more operators than {@link StatementShape#MAX_OPERATORS}.
   */
  @SuppressWarnings("rawtypes") // Calcite's signature
  @Override public PreparedResult prepareSql(SqlNode sqlQuery, Class runtimeContextClass,
      SqlValidator validator, boolean needsValidation) {
    OrChains.rewrite(sqlQuery);
    try {
      StatementShape.checkOperators(sqlQuery);
    } catch (SQLException e) {
      throw SqlFailures.<RuntimeException>sneaky(e);
    }
    return super.prepareSql(sqlQuery, runtimeContextClass, validator, needsValidation);
  }

  /** As Calcite's, but a {@link MnesticSqlValidator} that also knows mnestic's functions. */
  @Override protected SqlValidator createSqlValidator(CatalogReader catalogReader,
      UnaryOperator<SqlValidator.Config> configTransform) {
    final CalciteConnectionConfig config = context.config();
    final SqlOperatorTable opTab = SqlOperatorTables.chain(
        config.fun(SqlOperatorTable.class, SqlStdOperatorTable.instance()),
        MnesticOperatorTable.instance(), catalogReader);
    return new MnesticSqlValidator(opTab, (CalciteCatalogReader) catalogReader,
        context.getTypeFactory(),
        configTransform.apply(SqlValidator.Config.DEFAULT
            .withLenientOperatorLookup(config.lenientOperatorLookup())
            .withConformance(config.conformance())
            .withDefaultNullCollation(config.defaultNullCollation())
            .withIdentifierExpansion(true)));
  }

  /**
   * Calcite's program ({@link Plans#standard()}, whose Hep planners stop with the statement)
   * after the skyline rules, which run once sub-queries are joins (so they see every skyline),
   * and a field trimming that knows skylines (so a skyline moved down reads only the fields it
   * needs).
   */
  @Override protected Program getProgram() {
    return Programs.sequence(Plans.subQueries(), Programs.decorrelate(), SkylineRules.program(),
        (planner, rel, traits, materializations, lattices) ->
            new MnesticRelFieldTrimmer(null,
                RelFactories.LOGICAL_BUILDER.create(rel.getCluster(), null)).trim(rel),
        Plans.standard());
  }

  /**
   * As Calcite's, with a check of the statement's cancel flag above each input of its joins,
   * correlates and recursions ({@link EnumerableStopCheck}); a statement stopped while it was
   * planned stops here, before its code is generated, and one stopped while its code is
   * compiled returns at once; a program too long to compile is refused
   * ({@link RunningStatement#compiled}). An INSERT whose batches can be bound straight into
   * the store tells {@link MnesticPrepare} so ({@link EnumerableStoreModify#directInsert}).
   */
  @Override protected PreparedResult implement(RelRoot root) {
    final RelRoot checked = root.rel instanceof EnumerableRel enumerable
        ? root.withRel(EnumerableStopCheck.insert(enumerable)) : root;
    if (checked.rel instanceof EnumerableStoreModify modify) {
      prepare.directInsert(modify.directInsert());
    }
    RunningStatement.checkCurrent();
    return RunningStatement.compiled(() -> super.implement(checked));
  }

  /** As Calcite's, but a {@link MnesticSqlToRelConverter}. */
  @Override protected SqlToRelConverter getSqlToRelConverter(SqlValidator validator,
      CatalogReader catalogReader, SqlToRelConverter.Config config) {
    return new MnesticSqlToRelConverter(this, validator, catalogReader, cluster,
        convertletTable, config.withTopDownGeneralDecorrelationEnabled(
            context.config().topDownGeneralDecorrelationEnabled()));
  }
}
