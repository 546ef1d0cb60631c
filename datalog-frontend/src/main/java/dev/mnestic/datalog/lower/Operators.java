package dev.mnestic.datalog.lower;

import dev.mnestic.runtime.CozoCalls;
import dev.mnestic.value.CozoFunction;

import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.NotNullImplementor;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.ReflectiveCallNotNullImplementor;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The SQL operators lowered CozoScript uses: each calls a method of
 * {@link CozoCalls} from generated code. Values are of SQL type ANY.
 */
final class Operators {
  /** {@code TEST(v)}: a Boolean value as a SQL BOOLEAN; anything else fails. */
  static final SqlFunction TEST = udf("COZO_TEST", "test", SqlTypeName.BOOLEAN, false);
  /** {@code SAME(a, b)}: whether a and b are the same value. */
  static final SqlFunction SAME = udf("COZO_SAME", "same", SqlTypeName.BOOLEAN, false);
  /** {@code VALUE(x)}: a stored SQL value as a CozoDB value. */
  static final SqlFunction VALUE = udf("COZO_VALUE", "value", SqlTypeName.ANY, true);
  /** {@code FLOAT_OF('NaN')}: a Float with no SQL literal. */
  static final SqlFunction FLOAT_OF = udf("COZO_FLOAT_OF", "floatOf", SqlTypeName.ANY, true);
  /** {@code SPREAD(v)}: the List {@code x in v} runs over, as a SQL ARRAY; anything else fails. */
  static final SqlFunction SPREAD = arrayUdf("COZO_SPREAD", "spread");
  /** {@code SPREAD_INDEXED(v)}: {@link #SPREAD}, each element as {@code [index, element]}. */
  static final SqlFunction SPREAD_INDEXED = arrayUdf("COZO_SPREAD_INDEXED", "spreadIndexed");

  /** {@link #call}'s operators, one per function and arity. */
  private static final Map<List<Object>, SqlFunction> CALLS = new ConcurrentHashMap<>();
  /** {@link #stored}'s operators, one per codec. */
  private static final Map<CozoCalls.Codec, SqlFunction> STORED = new ConcurrentHashMap<>();

  private Operators() {
  }

  /**
   * {@code COZO_CALLn('name', a1..an)}: the CozoDB function {@code f}, resolved, of n
   * arguments. Plans show the name; generated code calls {@code f} itself.
   */
  static SqlFunction call(CozoFunction f, int arity) {
    return CALLS.computeIfAbsent(List.of(f, arity), k -> resolvedUdf("COZO_CALL" + arity,
        "call" + arity, f));
  }

  /**
   * {@code COZO_STORED(x, 'codec')}: a value the store keeps in a form of its own, as a CozoDB
   * value. Plans show the codec's name; generated code passes {@code codec} itself.
   */
  static SqlFunction stored(CozoCalls.Codec codec) {
    return STORED.computeIfAbsent(codec, c -> resolvedUdf("COZO_STORED", "stored", c));
  }

  /**
   * A function of {@link CozoCalls} of type ANY whose operand that names {@code constant} (a
   * literal, kept so that plans read as before) generated code replaces by the constant: the
   * name is resolved once, not per row.
   */
  private static SqlFunction resolvedUdf(String name, String method, Enum<?> constant) {
    final ScalarFunction target = ScalarFunctionImpl.create(CozoCalls.class, method);
    final Method m = ((ScalarFunctionImpl) target).method;
    final int at = Arrays.asList(m.getParameterTypes()).indexOf(constant.getDeclaringClass());
    final NotNullImplementor call = new ReflectiveCallNotNullImplementor(m);
    final CallImplementor implementor = RexImpTable.createImplementor(
        (translator, c, operands) -> {
          final List<Expression> args = new ArrayList<>(operands);
          // return CozoCalls.call2(CozoFunction.ADD, a, b) where the plan has 'add'
          args.set(at, Expressions.constant(constant));
          return call.implement(translator, c, args);
        }, NullPolicy.NONE, false);
    final class Resolved implements ScalarFunction, ImplementableFunction {
      @Override public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
        return target.getReturnType(typeFactory);
      }

      @Override public List<FunctionParameter> getParameters() {
        return target.getParameters();
      }

      @Override public CallImplementor getImplementor() {
        return implementor;
      }
    }
    return udf(name, SqlTypeName.ANY, true, new Resolved());
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
  private static SqlFunction udf(String name, String method, SqlTypeName returns,
      boolean nullable) {
    return udf(name, returns, nullable, ScalarFunctionImpl.create(CozoCalls.class, method));
  }

  /** {@link #udf(String, String, SqlTypeName, boolean)} implemented by {@code function}. */
  @SuppressWarnings("deprecation")
  private static SqlFunction udf(String name, SqlTypeName returns, boolean nullable,
      Function function) {
    return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO),
        nullable
            ? ReturnTypes.explicit(returns).andThen(SqlTypeTransforms.FORCE_NULLABLE)
            : ReturnTypes.explicit(returns),
        null, OperandTypes.VARIADIC, null, function) {
      @Override public boolean isDynamicFunction() {
        return true;
      }
    };
  }
}
