package dev.mnestic.sql;

import dev.mnestic.rel.Skyline;
import dev.mnestic.runtime.Skylines.Direction;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlPostfixOperator;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectOperator;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlVisitor;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A SELECT block with a SKYLINE OF clause:
 * {@code SELECT ... [QUALIFY ...] SKYLINE OF [DISTINCT] item, ... [ORDER BY ...]}.
 * The skyline applies to the block's rows after QUALIFY and before ORDER BY,
 * OFFSET and FETCH, with the semantics of {@link Skyline}. Items are calls
 * of {@link #item}; like ORDER BY items, they may name a select item by its
 * alias or ordinal.
 *
 * <p>Operands: SqlSelect's twelve, then the items (a {@link SqlNodeList})
 * and DISTINCT (a boolean literal).
 */
public final class SqlSkylineSelect extends SqlSelect {
  public static final int SKYLINE_OPERAND = 12;
  public static final int DISTINCT_OPERAND = 13;

  private static final Map<Direction, ItemOperator> ITEMS = new EnumMap<>(Direction.class);

  static {
    for (Direction d : Direction.values()) {
      ITEMS.put(d, new ItemOperator(d));
    }
  }

  /** The postfix operator of the items of one direction ({@code e MIN}), which it carries. */
  private static final class ItemOperator extends SqlPostfixOperator {
    final Direction direction;

    ItemOperator(Direction direction) {
      super(direction.name(), SqlKind.OTHER, 20, null, null, null);
      this.direction = direction;
    }
  }

  private SqlNodeList skyline;
  private boolean distinct;

  /** The block {@code select} followed by {@code SKYLINE OF [DISTINCT] skyline}. */
  public SqlSkylineSelect(SqlSelect select, boolean distinct, SqlNodeList skyline) {
    this(select.getParserPosition().plus(skyline.getParserPosition()),
        select.getOperandList(), skyline, distinct);
  }

  private SqlSkylineSelect(SqlParserPos pos, List<SqlNode> operands, SqlNodeList skyline,
      boolean distinct) {
    super(pos, (SqlNodeList) operands.get(0),
        requireNonNull((SqlNodeList) operands.get(1), "selectList"),
        operands.get(2), operands.get(3), (SqlNodeList) operands.get(4), operands.get(5),
        (SqlNodeList) operands.get(6), operands.get(7), (SqlNodeList) operands.get(8),
        operands.get(9), operands.get(10), (SqlNodeList) operands.get(11));
    this.skyline = requireNonNull(skyline, "skyline");
    this.distinct = distinct;
  }

  /** A SKYLINE OF item: {@code e MIN}, {@code e MAX} or {@code e DIFF}. */
  public static SqlCall item(Direction direction, SqlNode e, SqlParserPos pos) {
    return ITEMS.get(direction).createCall(pos, e);
  }

  /** The direction of an {@link #item}. */
  public static Direction direction(SqlNode item) {
    return ((ItemOperator) ((SqlCall) item).getOperator()).direction;
  }

  /** The expression of an {@link #item}. */
  public static SqlNode expression(SqlNode item) {
    return ((SqlCall) item).operand(0);
  }

  /** The items: calls of {@link #item}. */
  public SqlNodeList getSkyline() {
    return skyline;
  }

  /** Whether the clause is SKYLINE OF DISTINCT. */
  public boolean isSkylineDistinct() {
    return distinct;
  }

  @Override public SqlOperator getOperator() {
    return Operator.INSTANCE;
  }

  @Override public List<SqlNode> getOperandList() {
    final List<SqlNode> operands = new ArrayList<>(super.getOperandList());
    operands.add(skyline);
    operands.add(SqlLiteral.createBoolean(distinct, SqlParserPos.ZERO));
    return operands;
  }

  @Override public void setOperand(int i, SqlNode operand) {
    switch (i) {
    case SKYLINE_OPERAND -> skyline = requireNonNull((SqlNodeList) operand, "skyline");
    case DISTINCT_OPERAND -> distinct = ((SqlLiteral) operand).booleanValue();
    default -> super.setOperand(i, operand);
    }
  }

  /** SELECT with SKYLINE OF: creates and unparses {@link SqlSkylineSelect}s. */
  private static final class Operator extends SqlOperator {
    static final Operator INSTANCE = new Operator();

    private Operator() {
      // As SqlSelectOperator.
      super("SELECT", SqlKind.SELECT, 2, true, ReturnTypes.SCOPE, null, null);
    }

    @Override public SqlSyntax getSyntax() {
      return SqlSyntax.SPECIAL;
    }

    @Override public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos,
        SqlNode... operands) {
      final List<SqlNode> list = new ArrayList<>();
      for (SqlNode operand : operands) {
        list.add(operand);
      }
      return new SqlSkylineSelect(pos, list, (SqlNodeList) operands[SKYLINE_OPERAND],
          ((SqlLiteral) requireNonNull(operands[DISTINCT_OPERAND], "distinct")).booleanValue());
    }

    @Override public <R> void acceptCall(SqlVisitor<R> visitor, SqlCall call,
        boolean onlyExpressions, SqlBasicVisitor.ArgHandler<R> argHandler) {
      if (!onlyExpressions) {
        super.acceptCall(visitor, call, false, argHandler);
      }
    }

    /** Calcite's SELECT up to QUALIFY, then SKYLINE OF, then ORDER BY, OFFSET, FETCH. */
    @Override public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
      final SqlSkylineSelect select = (SqlSkylineSelect) call;
      final List<SqlNode> operands = new ArrayList<>(select.getOperandList().subList(0, 12));
      operands.set(8, null);
      operands.set(9, null);
      operands.set(10, null);
      final SqlWriter.Frame frame = writer.startList(SqlWriter.FrameTypeEnum.SIMPLE);
      SqlSelectOperator.INSTANCE.unparse(writer,
          SqlSelectOperator.INSTANCE.createCall(null, select.getParserPosition(),
              operands.toArray(new SqlNode[0])),
          leftPrec, rightPrec);
      writer.sep(select.distinct ? "SKYLINE OF DISTINCT" : "SKYLINE OF");
      writer.list(SqlWriter.FrameTypeEnum.ORDER_BY_LIST, SqlWriter.COMMA, select.skyline);
      final SqlNodeList orderBy = select.getOrderList();
      if (orderBy != null && !orderBy.isEmpty()) {
        writer.sep("ORDER BY");
        writer.list(SqlWriter.FrameTypeEnum.ORDER_BY_LIST, SqlWriter.COMMA, orderBy);
      }
      writer.fetchOffset(select.getFetch(), select.getOffset());
      writer.endList(frame);
    }
  }
}
