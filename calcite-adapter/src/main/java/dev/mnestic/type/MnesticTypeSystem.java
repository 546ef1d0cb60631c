package dev.mnestic.type;

import org.apache.calcite.rel.type.RelDataTypeSystemImpl;

/**
 * mnestic's type system: Calcite's default, except that string literals of
 * different lengths meeting in VALUES, UNION or CASE make a VARCHAR, not a
 * blank-padded CHAR, so {@code VALUES ('a'), ('zz')} holds {@code 'a'}, not
 * {@code 'a '}, and compares equal to a stored {@code 'a'}.
 */
public final class MnesticTypeSystem extends RelDataTypeSystemImpl {
  /** Named by the {@code typeSystem} connection property. */
  public static final MnesticTypeSystem INSTANCE = new MnesticTypeSystem();

  private MnesticTypeSystem() {
  }

  @Override public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }
}
