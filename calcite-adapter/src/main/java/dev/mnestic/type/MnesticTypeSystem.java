package dev.mnestic.type;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * mnestic's type system: Calcite's default, except that string literals of
 * different lengths meeting in VALUES, UNION or CASE make a VARCHAR, not a
 * blank-padded CHAR, so {@code VALUES ('a'), ('zz')} holds {@code 'a'}, not
 * {@code 'a '}, and compares equal to a stored {@code 'a'}; and sums of
 * integers are BIGINT.
 */
public final class MnesticTypeSystem extends RelDataTypeSystemImpl {
  /** Named by the {@code typeSystem} connection property. */
  public static final MnesticTypeSystem INSTANCE = new MnesticTypeSystem();

  private MnesticTypeSystem() {
  }

  @Override public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }

  /** SUM over TINYINT, SMALLINT or INTEGER is a BIGINT, as in PostgreSQL, so it does not wrap around. */
  @Override public RelDataType deriveSumType(RelDataTypeFactory typeFactory,
      RelDataType argumentType) {
    switch (argumentType.getSqlTypeName()) {
    case TINYINT:
    case SMALLINT:
    case INTEGER:
      return typeFactory.createTypeWithNullability(
          typeFactory.createSqlType(SqlTypeName.BIGINT), argumentType.isNullable());
    default:
      return super.deriveSumType(typeFactory, argumentType);
    }
  }
}
