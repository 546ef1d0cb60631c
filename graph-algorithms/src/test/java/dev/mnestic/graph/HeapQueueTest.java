package dev.mnestic.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link HeapQueue} against a map of items to priorities: random pushes, increases and pops
 * with many equal priorities; each pop takes an item of the greatest priority, with it.
 */
class HeapQueueTest {
  @Test
  void popsTheGreatestPriorityAndKeepsEveryItem() {
    for (long seed = 0; seed < 20; seed++) {
      Random r = new Random(seed);
      HeapQueue<Integer, Float> queue = new HeapQueue<>(HeapQueue.LOWEST_COST);
      Map<Integer, Float> model = new HashMap<>();
      for (int step = 0; step < 3000; step++) {
        int op = r.nextInt(3);
        int item = r.nextInt(60);
        float cost = r.nextInt(8);
        if (op == 0) {
          queue.push(item, cost);
          model.put(item, cost);
        } else if (op == 1) {
          queue.pushIncrease(item, cost);
          model.merge(item, cost, Math::min);
        } else if (queue.pop()) {
          float lowest = model.values().stream().min(Float::compare).orElseThrow();
          assertEquals(lowest, queue.priority, "seed " + seed + " step " + step);
          assertEquals(model.remove(queue.item), queue.priority);
        } else {
          assertTrue(model.isEmpty());
        }
        assertEquals(model.size(), queue.size());
      }
    }
  }
}
