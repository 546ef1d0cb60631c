package dev.mnestic.datalog.lower;

import dev.mnestic.runtime.CozoCalls;

import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * The SQL operators lowered CozoScript uses: each calls a method of
 * {@link CozoCalls} from generated code. Values are of SQL type ANY.
 */
final class Operators {
  /** {@code CALL[n](name, a1..an)}: the CozoDB function {@code name} of n arguments. */
  static final SqlFunction[] CALL = new SqlFunction[CozoCalls.MAX_ARITY + 1];
  /** {@code TEST(v)}: a Boolean value as a SQL BOOLEAN; anything else fails. */
  static final SqlFunction TEST = udf("COZO_TEST", "test", SqlTypeName.BOOLEAN, false);
  /** {@code SAME(a, b)}: whether a and b are the same value. */
  static final SqlFunction SAME = udf("COZO_SAME", "same", SqlTypeName.BOOLEAN, false);
  /** {@code VALUE(x)}: a stored SQL value as a CozoDB value. */
  static final SqlFunction VALUE = udf("COZO_VALUE", "value", SqlTypeName.ANY, true);
  /** {@code STORED(x, 'codec')}: a value the store keeps in a form of its own, as a CozoDB value. */
  static final SqlFunction STORED = udf("COZO_STORED", "stored", SqlTypeName.ANY, true);
  /** {@code FLOAT_OF('NaN')}: a Float with no SQL literal. */
  static final SqlFunction FLOAT_OF = udf("COZO_FLOAT_OF", "floatOf", SqlTypeName.ANY, true);
  /** {@code SPREAD(v)}: the List {@code x in v} runs over, as a SQL ARRAY; anything else fails. */
  static final SqlFunction SPREAD = arrayUdf("COZO_SPREAD", "spread");
  /** {@code SPREAD_INDEXED(v)}: {@link #SPREAD}, each element as {@code [index, element]}. */
  static final SqlFunction SPREAD_INDEXED = arrayUdf("COZO_SPREAD_INDEXED", "spreadIndexed");

  static {
    for (int n = 0; n <= CozoCalls.MAX_ARITY; n++) {
      CALL[n] = udf("COZO_CALL" + n, "call" + n, SqlTypeName.ANY, true);
    }
  }

  private Operators() {
  }

  /** A function returning an ARRAY of values of type ANY. */
  @SuppressWarnings("deprecation") // see udf
  private static SqlFunction arrayUdf(String name, String method) {
    return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO),
        opBinding -> opBinding.getTypeFactory().createArrayType(
            opBinding.getTypeFactory().createTypeWithNullability(
                opBinding.getTypeFactory().createSqlType(SqlTypeName.ANY), true), -1),
        null, OperandTypes.VARIADIC, null, ScalarFunctionImpl.create(CozoCalls.class, method));
  }

  /**
   * A function of {@link CozoCalls}. Calcite never folds one on constants
   * (each is a "dynamic function"): a value may be a list, Bytes or another
   * value that no Calcite literal holds, and {@code now()} and
   * {@code rand_uuid_v4()} must give a value per row. Being deterministic,
   * filters over them are still pushed through joins.
   */
  // The constructor not deprecated takes operand metadata (each operand's name and type),
  // which a variadic function over values of type ANY does not have.
  @SuppressWarnings("deprecation")
  private static SqlFunction udf(String name, String method, SqlTypeName returns,
      boolean nullable) {
    return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO),
        nullable
            ? ReturnTypes.explicit(returns).andThen(SqlTypeTransforms.FORCE_NULLABLE)
            : ReturnTypes.explicit(returns),
        null, OperandTypes.VARIADIC, null,
        ScalarFunctionImpl.create(CozoCalls.class, method)) {
      @Override public boolean isDynamicFunction() {
        return true;
      }
    };
  }
}
