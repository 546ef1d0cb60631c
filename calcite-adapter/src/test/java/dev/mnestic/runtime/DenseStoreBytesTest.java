package dev.mnestic.runtime;

import com.datadoghq.sketch.ddsketch.store.DenseStore;
import com.datadoghq.sketch.ddsketch.store.Store;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16 (point 3, "the planner's cost model counts that memory"): the bytes the
 * executor counts a DDSketch holding ({@code Sketches.Dd.bytes}, which {@code State.bytesHeld}
 * and the memory tests sum) are its dense stores' arrays, checked against the arrays themselves
 * (sketches-java's {@code DenseStore.counts}, read here by reflection) on random sketches: values
 * of random spread, positive and negative, built by updates and by merges of others. The count
 * is the array a store would allocate for its index range at once; grown in steps, its array is
 * between the range and that, so the count is at least the array's and at most one growth
 * increment (64 counts and the 6 past the range) above it.
 */
class DenseStoreBytesTest {
  @Test void ddSketchBytesAreItsDenseArrays() throws ReflectiveOperationException {
    final Field counts = DenseStore.class.getDeclaredField("counts");
    counts.setAccessible(true);
    final Random r = new Random(1617);
    for (int trial = 0; trial < 200; trial++) {
      final double alpha = new double[] {0.005, 0.01, 0.02, 0.05}[r.nextInt(4)];
      final double sigma = 0.1 + 3 * r.nextDouble();
      final boolean negatives = r.nextInt(4) == 0;
      final Sketches.Dd sketch = (Sketches.Dd) Sketches.sketch(Sketches.Family.DDSKETCH, alpha);
      for (int part = r.nextInt(4); part >= 0; part--) {
        final Sketches.Sketch into = part == 0 ? sketch
            : Sketches.sketch(Sketches.Family.DDSKETCH, alpha);
        for (int i = 1 + r.nextInt(r.nextBoolean() ? 5 : 5000); i > 0; i--) {
          final double v = Math.exp(2 + sigma * r.nextGaussian());
          into.update(negatives && r.nextBoolean() ? -v : v);
        }
        if (into != sketch) {
          sketch.merge(into);
        }
      }
      final long counted = sketch.bytes() - Sketches.Dd.FIXED_BYTES;
      final long arrays = arrayBytes(counts, sketch.sketch().getPositiveValueStore())
          + arrayBytes(counts, sketch.sketch().getNegativeValueStore());
      final int stores = (sketch.sketch().getPositiveValueStore().isEmpty() ? 0 : 1)
          + (sketch.sketch().getNegativeValueStore().isEmpty() ? 0 : 1);
      final String what = "trial " + trial + ": α " + alpha + ", σ " + sigma + ", counted "
          + counted + " bytes, arrays " + arrays;
      assertTrue(counted >= arrays, what);
      assertTrue(counted - arrays
          <= 8L * stores * (Sketches.Dd.GROWTH + Sketches.Dd.OVERHEAD), what);
    }
  }

  /** The array's bytes and its header; 0 for a store without one. */
  private static long arrayBytes(Field counts, Store store) throws IllegalAccessException {
    final double[] array = (double[]) counts.get(store);
    return array == null || store.isEmpty() ? 0
        : Sketches.Dd.ARRAY_BYTES + 8L * array.length;
  }
}
