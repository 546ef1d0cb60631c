package dev.mnestic.sql2rel;

import dev.mnestic.rel.LogicalSkyline;
import dev.mnestic.rel.Skyline;
import dev.mnestic.sql.SqlSkylineSelect;
import dev.mnestic.sql.validate.StatementErrors;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.validate.SqlValidator;
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

/**
 * Calcite's SQL-to-relational conversion, and SKYLINE OF. A skyline block
 * converts as Calcite converts a block with ORDER BY: its SKYLINE OF
 * expressions that are not select items are computed as extra fields of the
 * block's projection (after aggregation, window functions and QUALIFY);
 * a {@link LogicalSkyline} over that projection (and DISTINCT, if any)
 * keeps the skyline; then ORDER BY, OFFSET and FETCH; then the extra fields
 * are dropped.
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

  /** A trimmer that also narrows the input of a skyline. */
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
    final RelNode skyline = LogicalSkyline.create(bb.root(), dimensions,
        ((SqlSkylineSelect) select).isSkylineDistinct());
    bb.setRoot(skyline, false);
    super.convertOrder(select, bb, collation, orderExprList, offset, fetch);
    // Calcite drops the extra fields after a sort below the top; without a
    // sort they are dropped here.
    final int fieldCount = validator.getValidatedNodeType(select).getFieldCount();
    if (bb.root() == skyline && skyline.getRowType().getFieldCount() > fieldCount) {
      final RelBuilder builder = config().getRelBuilderFactory().create(cluster, null);
      builder.push(skyline);
      bb.setRoot(builder.project(builder.fields().subList(0, fieldCount)).build(), false);
    }
  }
}
