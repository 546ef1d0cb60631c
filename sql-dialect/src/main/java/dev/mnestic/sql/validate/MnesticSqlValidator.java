package dev.mnestic.sql.validate;

import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.runtime.Skylines.Direction;
import dev.mnestic.sql.SqlSkylineSelect;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.SqlValidatorTable;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;
import org.apache.calcite.util.Util;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Set;

import static org.apache.calcite.util.Static.RESOURCE;

/**
 * Calcite's validator, and SKYLINE OF. An item is validated as an ORDER BY
 * item of its block is: it may name a select item by alias or ordinal; in
 * an aggregating block it may use only grouped expressions and aggregates;
 * after SELECT DISTINCT only select items. Besides: a MIN or MAX item needs
 * a type whose values are ordered, and a block that does not aggregate has
 * no aggregates in SKYLINE OF. Errors name the item's line and column.
 *
 * <p>Validation stops with its statement ({@link RunningStatement}): the validator looks at the
 * statement's flag at each rewrite, call, namespace, type derivation and type inference, so
 * a huge statement stops at its timeout or cancel while it is validated.
 */
public class MnesticSqlValidator extends CalciteSqlValidator {
  public MnesticSqlValidator(SqlOperatorTable opTab, CalciteCatalogReader catalogReader,
      JavaTypeFactory typeFactory, Config config) {
    super(opTab, catalogReader, typeFactory, config);
  }

  /**
   * As Calcite's, after a check of what Calcite would let through to fail inside its
   * converter: EXISTS of an expression (not a query).
   */
  @Override public void validateCall(SqlCall call, SqlValidatorScope scope) {
    RunningStatement.checkCurrent();
    if (call.getKind() == SqlKind.EXISTS && call.operandCount() == 1
        && !call.operand(0).isA(SqlKind.QUERY)) {
      throw newValidationError(call.operand(0), StatementErrors.RESOURCE.existsNeedsQuery());
    }
    super.validateCall(call, scope);
  }

  /**
   * A window function (TUMBLE, HOP, SESSION and their bounds) with an interval that is not
   * positive, which Calcite lets through to fail when the plan is implemented.
   */
  private void checkWindowIntervals(SqlCall call) {
    // GROUP BY's TUMBLE is Calcite's "$TUMBLE".
    final String name = call.getOperator().getName().replace("$", "");
    if (!WINDOWS.contains(name.toUpperCase(Locale.ROOT))) {
      return;
    }
    for (SqlNode operand : call.getOperandList()) {
      if (operand instanceof SqlIntervalLiteral literal) {
        final SqlIntervalLiteral.IntervalValue interval =
            literal.getValueAs(SqlIntervalLiteral.IntervalValue.class);
        final long length = interval.getIntervalQualifier().isYearMonth()
            ? SqlParserUtil.intervalToMonths(interval)
            : SqlParserUtil.intervalToMillis(interval);
        if (length * interval.getSign() <= 0) {
          throw newValidationError(operand, StatementErrors.RESOURCE
              .windowIntervalNotPositive(name, operand.toString()));
        }
      }
    }
  }

  /** Window functions whose interval operands are widths, steps or gaps. */
  private static final Set<String> WINDOWS = Set.of("TUMBLE", "TUMBLE_START", "TUMBLE_END",
      "HOP", "HOP_START", "HOP_END", "SESSION", "SESSION_START", "SESSION_END");

  /**
   * As Calcite's, but an INSERT without a column list whose source has more columns than the
   * table is refused as Calcite refuses it with one (Calcite's implicit target columns took a
   * sub-list past the table's end).
   */
  @Override protected RelDataType getLogicalTargetRowType(RelDataType targetRowType,
      SqlInsert insert) {
    if (insert.getTargetColumnList() == null) {
      final SqlValidatorNamespace source = getNamespace(insert.getSource());
      final int sourceCount = source == null ? 0 : source.getRowType().getFieldCount();
      if (sourceCount > targetRowType.getFieldCount()) {
        throw newValidationError(insert.getSource(),
            RESOURCE.unmatchInsertColumn(targetRowType.getFieldCount(), sourceCount));
      }
    }
    return super.getLogicalTargetRowType(targetRowType, insert);
  }

  @Override protected SqlNode performUnconditionalRewrites(SqlNode node, boolean underFrom) {
    RunningStatement.checkCurrent();
    if (node instanceof SqlCall call) {
      checkWindowIntervals(call);
    }
    // ORDER BY, OFFSET and FETCH after a skyline block join the block, as
    // Calcite joins them to a plain one; done before the block's operands are
    // rewritten, which gives it an ORDER BY list of its own (below).
    if (node instanceof SqlOrderBy orderBy) {
      final SqlSkylineSelect block = orderlessSkylineBlock(orderBy.query);
      if (block != null) {
        block.setOrderBy(orderBy.orderList);
        block.setOffset(orderBy.offset);
        block.setFetch(orderBy.fetch);
        return performUnconditionalRewrites(orderBy.query, underFrom);
      }
    }
    final SqlNode rewritten = super.performUnconditionalRewrites(node, underFrom);
    if (rewritten instanceof SqlUnknownLiteral literal) {
      // DATE '...' and TIMESTAMP '...' stay unresolved until their expression is validated
      switch (literal.tag) {
      case "DATE" -> checkDay(literal.resolve(SqlTypeName.DATE));
      case "TIMESTAMP" -> checkDay(literal.resolve(SqlTypeName.TIMESTAMP));
      default -> { }
      }
    }
    // A skyline block always has an ORDER BY list, empty if need be: Calcite
    // gives a block an ORDER BY scope only then, and SKYLINE OF items live
    // in that scope.
    if (rewritten instanceof SqlSkylineSelect block && block.getOrderList() == null) {
      block.setOrderBy(new SqlNodeList(SqlParserPos.ZERO));
    }
    if (rewritten instanceof SqlMerge merge) {
      splitMerge(merge);
    }
    return rewritten;
  }

  /**
   * Gives MERGE's two branches disjoint sources, as the converter plans them (see
   * {@code MnesticSqlToRelConverter}): Calcite's rewrite reads the update branch from
   * {@code source LEFT JOIN target ON condition} and the insert branch from every source row;
   * here the update branch reads only matched pairs ({@code INNER JOIN}) and the insert branch
   * only the source rows no target row matches
   * ({@code WHERE NOT EXISTS (SELECT 1 FROM target WHERE condition)}). A SET value that is a
   * bare parameter is cast to its column's type, which Calcite does not infer for MERGE.
   */
  private void splitMerge(SqlMerge merge) {
    final SqlSelect matched = merge.getSourceSelect();
    if (matched != null && matched.getFrom() instanceof SqlJoin join) {
      join.setOperand(2, JoinType.INNER.symbol(SqlParserPos.ZERO));
      typeSetParameters(merge, matched.getSelectList());
    }
    final SqlInsert insert = merge.getInsertCall();
    if (insert != null && insert.getSource() instanceof SqlSelect unmatched) {
      final SqlNode target = merge.getAlias() == null ? SqlNode.clone(merge.getTargetTable())
          : SqlValidatorUtil.addAlias(SqlNode.clone(merge.getTargetTable()),
              merge.getAlias().getSimple());
      final SqlSelect probe = new SqlSelect(SqlParserPos.ZERO, null,
          SqlNodeList.of(SqlLiteral.createExactNumeric("1", SqlParserPos.ZERO)), target,
          SqlNode.clone(merge.getCondition()), null, null, null, null, null, null, null, null);
      unmatched.setWhere(SqlStdOperatorTable.NOT.createCall(SqlParserPos.ZERO,
          SqlStdOperatorTable.EXISTS.createCall(SqlParserPos.ZERO, probe)));
    }
  }

  /** Casts each bare parameter among MERGE's SET values (after {@code *}) to its column's type. */
  private void typeSetParameters(SqlMerge merge, SqlNodeList items) {
    final SqlUpdate update = merge.getUpdateCall();
    final SqlValidatorTable table = merge.getTargetTable() instanceof SqlIdentifier id
        ? getCatalogReader().getTable(id.names) : null;
    if (update == null || table == null) {
      return;
    }
    for (int i = 0; i < update.getTargetColumnList().size() && i + 1 < items.size(); i++) {
      final RelDataTypeField column = table.getRowType().getField(
          Util.last(((SqlIdentifier) update.getTargetColumnList().get(i)).names), false, false);
      // each item is "value AS EXPR$i"
      if (items.get(i + 1) instanceof SqlCall item && item.getKind() == SqlKind.AS
          && item.operand(0) instanceof SqlDynamicParam parameter && column != null
          && column.getType().getComponentType() == null) {
        item.setOperand(0, SqlStdOperatorTable.CAST.createCall(parameter.getParserPosition(),
            parameter, SqlTypeUtil.convertTypeToSpec(column.getType())));
      }
    }
  }

  private static SqlSkylineSelect orderlessSkylineBlock(SqlNode query) {
    final SqlNode block = query instanceof SqlWith with ? with.body : query;
    return block instanceof SqlSkylineSelect s && s.getOrderList() == null ? s : null;
  }

  /**
   * A DATE or TIMESTAMP literal must name a day of the proleptic Gregorian calendar, whose days
   * Calcite counts: Calcite checks a date literal against the Julian calendar before 1582, so
   * {@code DATE '1500-02-29'} (a Julian leap day) would silently count as March 1.
   */
  private static void checkDay(SqlLiteral literal) {
    final String text;
    if (literal.getTypeName() == SqlTypeName.DATE) {
      text = literal.getValueAs(DateString.class).toString();
    } else if (literal.getTypeName() == SqlTypeName.TIMESTAMP) {
      text = literal.getValueAs(TimestampString.class).toString();
    } else {
      return;
    }
    try {
      LocalDate.parse(text.substring(0, 10));
    } catch (DateTimeParseException e) {
      throw SqlUtil.newContextException(literal.getParserPosition(),
          RESOURCE.illegalLiteral(literal.getTypeName().getName(), text,
              "no such day in the proleptic Gregorian calendar, whose days SQL dates count"));
    }
  }

  @Override protected void validateNamespace(SqlValidatorNamespace namespace,
      RelDataType targetRowType) {
    RunningStatement.checkCurrent();
    super.validateNamespace(namespace, targetRowType);
  }

  @Override public RelDataType deriveType(SqlValidatorScope scope, SqlNode expr) {
    RunningStatement.checkCurrent();
    return super.deriveType(scope, expr);
  }

  @Override protected void inferUnknownTypes(RelDataType inferredType, SqlValidatorScope scope,
      SqlNode node) {
    RunningStatement.checkCurrent();
    super.inferUnknownTypes(inferredType, scope, node);
  }

  @Override protected void validateSelect(SqlSelect select, RelDataType targetRowType) {
    super.validateSelect(select, targetRowType);
    if (select instanceof SqlSkylineSelect skyline) {
      validateSkyline(skyline);
    }
  }

  private void validateSkyline(SqlSkylineSelect select) {
    final SqlValidatorScope scope = getOrderScope(select);
    for (SqlNode node : select.getSkyline()) {
      final SqlCall item = (SqlCall) node;
      final SqlNode expression = expand(item.operand(0), scope);
      item.setOperand(0, expression);
      inferUnknownTypes(unknownType, scope, expression);
      expression.validateExpr(this, scope);
      scope.validateExpr(expression);
      if (!isAggregate(select)) {
        final SqlNode aggregate = findAggregate(expression);
        if (aggregate != null) {
          throw newValidationError(aggregate, SkylineErrors.RESOURCE.aggregateIllegalInSkyline());
        }
      }
      final Direction direction = SqlSkylineSelect.direction(item);
      final RelDataType type = deriveType(scope, expandOrderExpr(select, expression));
      if (direction != Direction.DIFF && !isOrdered(type)) {
        throw newValidationError(expression,
            SkylineErrors.RESOURCE.itemHasNoOrder(direction.name(), type.getFullTypeString()));
      }
    }
  }

  /** Numbers, strings, binary strings, booleans, datetimes and intervals. */
  private static boolean isOrdered(RelDataType type) {
    return SqlTypeUtil.isNumeric(type) || SqlTypeUtil.isCharacter(type)
        || SqlTypeUtil.isBinary(type) || SqlTypeUtil.isBoolean(type)
        || SqlTypeUtil.isDatetime(type) || SqlTypeUtil.isInterval(type);
  }

  /** The first aggregate call in {@code e} outside a window function, or null. */
  private static SqlNode findAggregate(SqlNode e) {
    try {
      e.accept(new SqlBasicVisitor<Void>() {
        @Override public Void visit(SqlCall call) {
          if (call.getKind() == SqlKind.OVER) {
            return null;
          }
          if (call.getOperator().isAggregator()) {
            throw new Util.FoundOne(call);
          }
          return super.visit(call);
        }
      });
      return null;
    } catch (Util.FoundOne found) {
      return (SqlNode) found.getNode();
    }
  }
}
