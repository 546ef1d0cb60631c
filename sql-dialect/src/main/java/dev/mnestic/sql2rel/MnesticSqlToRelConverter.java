package dev.mnestic.sql2rel;

import dev.mnestic.rel.LogicalSkyline;
import dev.mnestic.rel.MnesticRelBuilder;
import dev.mnestic.rel.Skyline;
import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.sql.SqlSkylineSelect;
import dev.mnestic.sql.validate.StatementErrors;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.logical.LogicalTableModify;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.RelBuilder;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Calcite's SQL-to-relational conversion, and SKYLINE OF. A skyline block
 * converts as Calcite converts a block with ORDER BY: its SKYLINE OF
 * expressions that are not select items are computed as extra fields of the
 * block's projection (after aggregation, window functions and QUALIFY);
 * a {@link LogicalSkyline} over that projection (and DISTINCT, if any)
 * keeps the skyline; then ORDER BY, OFFSET and FETCH; then the extra fields
 * are dropped.
 *
 * <p>Conversion stops with its statement ({@link RunningStatement}): it looks at the
 * statement's flag at each query, FROM item and expression it converts.
 */
public class MnesticSqlToRelConverter extends SqlToRelConverter {
  private final SqlValidator validator;
  /** The dimensions of each skyline block between gathering and building its skyline. */
  private final Map<SqlSelect, List<Skyline.Dimension>> skylines = new IdentityHashMap<>();

  public MnesticSqlToRelConverter(RelOptTable.ViewExpander viewExpander, SqlValidator validator,
      Prepare.CatalogReader catalogReader, RelOptCluster cluster,
      SqlRexConvertletTable convertletTable, Config config) {
    super(viewExpander, validator, catalogReader, cluster, convertletTable, config);
    this.validator = validator;
  }

  @Override protected RelRoot convertQueryRecursive(SqlNode query, boolean top,
      RelDataType targetRowType) {
    RunningStatement.checkCurrent();
    if (query instanceof SqlMerge merge) {
      return RelRoot.of(convertMerge(merge), SqlKind.MERGE);
    }
    return super.convertQueryRecursive(query, top, targetRowType);
  }

  @Override protected void convertFrom(Blackboard bb, SqlNode from,
      List<String> fieldNames) {
    RunningStatement.checkCurrent();
    super.convertFrom(bb, from, fieldNames);
  }

  /** Calcite's conversion of each expression calls this first; it converts none itself. */
  @Override protected RexNode convertExtendedExpression(SqlNode node, Blackboard bb) {
    RunningStatement.checkCurrent();
    return super.convertExtendedExpression(node, bb);
  }

  /**
   * MERGE as one {@link TableModify} of operation MERGE whose input row is
   * {@code (matched, target columns, new values of the updated columns, inserted row)}:
   * <ul>
   *   <li>a pair of a source row and the target row it matches (the update branch, read from
   *     {@code source JOIN target ON condition}) has {@code matched} TRUE, the target row and
   *     the SET values (each of its column's type), and NULLs for the inserted row;
   *   <li>a source row no target row matches (the insert branch, read from the source
   *     {@code WHERE NOT EXISTS} a matching target row; see {@code MnesticSqlValidator}) has
   *     {@code matched} FALSE, NULLs, and the whole row to insert, its unlisted columns given
   *     their defaults as an INSERT gives them.
   * </ul>
   * Both branches read the table as it was before the statement; whoever executes the modify
   * must read all its input before writing. (Calcite's own conversion keeps the target
   * columns only when there is an update branch, and counts the source's fields from the join's
   * left input, which holds the join condition's pushed-down expressions too.)
   */
  private RelNode convertMerge(SqlMerge merge) {
    final RelOptTable table = getTargetTable(merge);
    final List<RelDataTypeField> columns = table.getRowType().getFieldList();
    final SqlUpdate update = merge.getUpdateCall();
    final List<String> updateColumns = new ArrayList<>();
    if (update != null) {
      for (SqlNode column : update.getTargetColumnList()) {
        updateColumns.add(requireNonNull(SqlValidatorUtil.getTargetField(table.getRowType(),
            typeFactory, (SqlIdentifier) column, catalogReader, table)).getName());
      }
    }
    final RexBuilder rex = cluster.getRexBuilder();
    final RelBuilder builder = config().getRelBuilderFactory().create(cluster, null);
    final List<RelDataType> setTypes = new ArrayList<>();
    int branches = 0;
    if (update != null) {
      // SELECT source.*, target.*, <SET values> FROM source JOIN target ON condition
      final RelNode pairs = convertSelect(requireNonNull(merge.getSourceSelect()), false);
      final int first = pairs.getRowType().getFieldCount() - columns.size() - updateColumns.size();
      builder.push(pairs);
      final List<RexNode> row = new ArrayList<>();
      row.add(rex.makeLiteral(true));
      for (int i = first; i < first + columns.size(); i++) {
        row.add(builder.field(i));
      }
      // each SET value as its column's type, as the store is written
      for (int j = 0; j < updateColumns.size(); j++) {
        final RelDataType type = table.getRowType().getField(updateColumns.get(j), true, false)
            .getType();
        row.add(rex.ensureType(type, builder.field(first + columns.size() + j), false));
        setTypes.add(type);
      }
      columns.forEach(c -> row.add(rex.makeNullLiteral(c.getType())));
      builder.project(row);
      branches++;
    }
    final SqlInsert insert = merge.getInsertCall();
    if (insert != null) {
      // INSERT INTO target SELECT <values> FROM source WHERE NOT EXISTS (matching target row)
      final RelNode inserted = convertInsert(insert).getInput(0);
      builder.push(inserted);
      final List<RexNode> row = new ArrayList<>();
      row.add(rex.makeLiteral(false));
      columns.forEach(c -> row.add(rex.makeNullLiteral(c.getType())));
      setTypes.forEach(t -> row.add(rex.makeNullLiteral(t)));
      row.addAll(builder.fields());
      builder.project(row);
      branches++;
    }
    builder.union(true, branches);
    return LogicalTableModify.create(table, catalogReader, builder.build(),
        TableModify.Operation.MERGE, updateColumns, null, false);
  }

  /**
   * As Calcite's, but a recursive query whose recursive step gives its columns other types
   * than its seed (a DECIMAL sum growing its precision) is a validation error at the query,
   * where Calcite's check of the converted types fails with an AssertionError.
   */
  @Override public RelRoot convertQuery(SqlNode query, boolean needsValidation, boolean top) {
    try {
      return super.convertQuery(query, needsValidation, top);
    } catch (AssertionError e) {
      final Matcher m = TYPES_CHANGED.matcher(String.valueOf(e.getMessage()));
      if (!m.find() || !isRecursive(query)) {
        throw e;
      }
      throw SqlUtil.newContextException(query.getParserPosition(),
          StatementErrors.RESOURCE.recursiveTypesChange(m.group(1), m.group(2)));
    }
  }

  /** Calcite's message when a converted query's row type is not the validated one. */
  private static final Pattern TYPES_CHANGED = Pattern.compile(
      "failed to preserve datatypes:\\s*validated type:\\s*(.*?)\\s*converted type:\\s*(.*?)\\s*(rel:|$)",
      Pattern.DOTALL);

  private static boolean isRecursive(SqlNode query) {
    if (query instanceof SqlWith with) {
      for (SqlNode item : with.withList) {
        if (item instanceof SqlWithItem w && w.recursive.booleanValue()) {
          return true;
        }
      }
    }
    return false;
  }

  /** A trimmer that also narrows the input of a skyline. */
  @Override protected RelFieldTrimmer newFieldTrimmer() {
    return new MnesticRelFieldTrimmer(validator,
        config().getRelBuilderFactory().create(cluster, null));
  }

  /** ORDER BY's expressions, then SKYLINE OF's: each a select item or an extra field. */
  @Override protected void gatherOrderExprs(Blackboard bb, SqlSelect select,
      SqlNodeList orderList, List<SqlNode> extraOrderExprs,
      List<RelFieldCollation> collationList) {
    super.gatherOrderExprs(bb, select, orderList, extraOrderExprs, collationList);
    if (select instanceof SqlSkylineSelect skyline) {
      final List<Skyline.Dimension> dimensions = new ArrayList<>();
      for (SqlNode item : skyline.getSkyline()) {
        final RelFieldCollation field = convertOrderItem(select,
            SqlSkylineSelect.expression(item), extraOrderExprs,
            RelFieldCollation.Direction.ASCENDING, RelFieldCollation.NullDirection.UNSPECIFIED);
        dimensions.add(
            new Skyline.Dimension(field.getFieldIndex(), SqlSkylineSelect.direction(item)));
      }
      skylines.put(select, dimensions);
    }
  }

  /** The skyline, then ORDER BY, OFFSET and FETCH. */
  @Override protected void convertOrder(SqlSelect select, Blackboard bb, RelCollation collation,
      List<SqlNode> orderExprList, SqlNode offset, SqlNode fetch) {
    final List<Skyline.Dimension> dimensions = skylines.remove(select);
    if (dimensions == null) {
      super.convertOrder(select, bb, collation, orderExprList, offset, fetch);
      return;
    }
    final RelBuilder builder = config().getRelBuilderFactory().create(cluster, null);
    final RelNode skyline = MnesticRelBuilder.skyline(builder.push(bb.root()), dimensions,
        ((SqlSkylineSelect) select).isSkylineDistinct()).build();
    bb.setRoot(skyline, false);
    super.convertOrder(select, bb, collation, orderExprList, offset, fetch);
    // Calcite drops the extra fields after a sort below the top; without a
    // sort they are dropped here.
    final int fieldCount = validator.getValidatedNodeType(select).getFieldCount();
    if (bb.root() == skyline && skyline.getRowType().getFieldCount() > fieldCount) {
      builder.push(skyline);
      bb.setRoot(builder.project(builder.fields().subList(0, fieldCount)).build(), false);
    }
  }
}
