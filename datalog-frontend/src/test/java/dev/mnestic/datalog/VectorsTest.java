package dev.mnestic.datalog;

import dev.mnestic.value.Vector;

import org.junit.jupiter.api.Test;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Vector columns ({@code <F32; n>}, {@code <F64; n>}) are the store's {@code DOUBLE ARRAY}
 * columns: SQL reads them as arrays, and every F32 element comes back as the same float
 * (CozoDB's own answers are in {@code conformance/queries/vectors.json}).
 */
class VectorsTest extends OneStoreTest {
  @Test void sqlReadsAVectorColumnAsAnArrayAndF32RoundTrips() throws Exception {
    run(":create vs {k: Int => a: <F32; 3>, b: <F64; 2>?}");
    try {
      final float[] tricky = {0.1f, Float.MIN_VALUE, -3.4028235e38f};
      run("?[k, a, b] <- [[1, vec([0.1, 1.4e-45, -3.4028235e38]), [0.1, 0.2]], [2, [1, 2, 3], null]]"
          + " :put vs {k => a, b}");
      try (Statement s = store.connection().createStatement();
           ResultSet r = s.executeQuery("SELECT \"a\", \"b\" FROM \"PUBLIC\".\"vs\" WHERE \"k\" = 1")) {
        assertTrue(r.next());
        final Object[] a = (Object[]) r.getArray(1).getArray();
        final Array b = r.getArray(2);
        for (int i = 0; i < 3; i++) {
          assertEquals((double) tricky[i], ((Number) a[i]).doubleValue());
        }
        assertArrayEquals(new Object[] {0.1, 0.2}, (Object[]) b.getArray());
      }
      final List<Object> row = run("?[a] := *vs{k: 1, a}").rows().get(0);
      final Vector v = (Vector) row.get(0);
      assertTrue(v.isF32());
      assertArrayEquals(tricky, v.toFloats());
      assertEquals(null, run("?[b] := *vs{k: 2, b}").rows().get(0).get(0));
    } finally {
      run("::remove vs");
    }
  }
}
