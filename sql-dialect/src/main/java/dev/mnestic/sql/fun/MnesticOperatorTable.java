package dev.mnestic.sql.fun;

import dev.mnestic.runtime.Pareto;
import dev.mnestic.sql.validate.SkylineErrors;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.AggregateFunctionImpl;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandMetadata;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.Optionality;

import java.util.List;

/** mnestic's own SQL functions, looked up by name as Calcite's built-in ones are. */
public final class MnesticOperatorTable {
  private MnesticOperatorTable() {
  }

  /**
   * {@code PARETO_MIN(point)}: the points of the group that no other point
   * beats on every component, smaller better; an array of the points, in
   * ascending order. See {@link Pareto}.
   */
  public static final SqlAggFunction PARETO_MIN = pareto("PARETO_MIN", Pareto.Min.class);

  /** {@code PARETO_MAX(point)}: as {@link #PARETO_MIN}, larger better. */
  public static final SqlAggFunction PARETO_MAX = pareto("PARETO_MAX", Pareto.Max.class);

  private static final SqlOperatorTable INSTANCE = SqlOperatorTables.of(PARETO_MIN, PARETO_MAX);

  public static SqlOperatorTable instance() {
    return INSTANCE;
  }

  private static SqlAggFunction pareto(String name, Class<?> implementation) {
    return new SqlUserDefinedAggFunction(new SqlIdentifier(name, SqlParserPos.ZERO),
        SqlKind.OTHER_FUNCTION,
        // An array of points: arrays of the operand's component type. Declared
        // nullable though never NULL: Avatica reads an array of arrays of a
        // primitive type (DOUBLE NOT NULL) wrongly over JDBC.
        binding -> {
          final RelDataTypeFactory f = binding.getTypeFactory();
          final RelDataType point = binding.getOperandType(0);
          final RelDataType component = f.createTypeWithNullability(
              point.getComponentType(), true);
          return f.createTypeWithNullability(
              f.createArrayType(f.createArrayType(component, -1), -1), true);
        },
        InferTypes.FIRST_KNOWN, new PointOperand(name),
        AggregateFunctionImpl.create(implementation), false, false, Optionality.FORBIDDEN);
  }

  /** One operand, an array of numbers. */
  private static final class PointOperand implements SqlOperandMetadata {
    private final String name;

    PointOperand(String name) {
      this.name = name;
    }

    @Override public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
      final RelDataType type = binding.getOperandType(0);
      final boolean ok = type.getSqlTypeName() == SqlTypeName.ARRAY
          && SqlTypeUtil.isNumeric(type.getComponentType());
      if (!ok && throwOnFailure) {
        throw binding.newError(
            SkylineErrors.RESOURCE.paretoOperand(name, type.getFullTypeString()));
      }
      return ok;
    }

    @Override public SqlOperandCountRange getOperandCountRange() {
      return SqlOperandCountRanges.of(1);
    }

    @Override public String getAllowedSignatures(SqlOperator op, String opName) {
      return opName + "(<NUMERIC ARRAY>)";
    }

    @Override public List<RelDataType> paramTypes(RelDataTypeFactory typeFactory) {
      return List.of(typeFactory.createArrayType(
          typeFactory.createSqlType(SqlTypeName.DOUBLE), -1));
    }

    @Override public List<String> paramNames() {
      return List.of("point");
    }
  }
}
