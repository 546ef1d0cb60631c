package dev.mnestic.graph;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A replica of the priority queue CozoDB's graph algorithms use ({@code priority_queue} 1.3.2's
 * {@code PriorityQueue}): items in insertion order ({@code map}, an index map that fills a
 * removed slot with its last item), a binary max-heap of their slots ({@code heap}) and each
 * slot's heap position ({@code qp}), with the crate's own sift-up and sift-down, so that items
 * of equal priority leave in the order CozoDB's do.
 *
 * @param <I> the items, each in the queue at most once
 * @param <P> their priorities, the greatest leaving first
 */
final class HeapQueue<I, P> {
  private final Comparator<P> order;
  private final Map<I, Integer> slots = new HashMap<>();
  private final List<I> items = new ArrayList<>();
  private final List<P> priorities = new ArrayList<>();
  /** {@code heap.get(position)}: the slot there. */
  private final List<Integer> heap = new ArrayList<>();
  /** {@code qp.get(slot)}: its position in {@link #heap}. */
  private final List<Integer> qp = new ArrayList<>();

  /** The item and priority the last {@link #pop} took. */
  I item;
  P priority;

  /** Costs as CozoDB's {@code Reverse(OrderedFloat(cost))}: the lowest first, -0 equal to 0. */
  static final Comparator<Float> LOWEST_COST = (a, b) -> a < b ? 1 : a > b ? -1 : 0;

  HeapQueue(Comparator<P> order) {
    this.order = order;
  }

  int size() {
    return heap.size();
  }

  private P at(int position) {
    return priorities.get(heap.get(position));
  }

  /** Puts {@code item} in at {@code p}, or gives it {@code p} if it is in. */
  void push(I item, P p) {
    Integer slot = slots.get(item);
    if (slot != null) {
      priorities.set(slot, p);
      int position = bubbleUp(qp.get(slot), slot);
      heapify(position);
      return;
    }
    int i = heap.size();
    slots.put(item, i);
    items.add(item);
    priorities.add(p);
    qp.add(i);
    heap.add(i);
    bubbleUp(i, i);
  }

  /** {@link #push}, unless {@code item} is in at a priority not below {@code p}. */
  void pushIncrease(I item, P p) {
    Integer slot = slots.get(item);
    if (slot == null || order.compare(p, priorities.get(slot)) > 0) {
      push(item, p);
    }
  }

  /** Takes the item of greatest priority into {@link #item} and {@link #priority}. */
  boolean pop() {
    int size = heap.size();
    if (size == 0) {
      return false;
    }
    // Store::swap_remove(0)
    int head = heap.get(0);
    heap.set(0, heap.get(size - 1));
    heap.remove(size - 1);
    int newSize = size - 1;
    if (newSize > 0) {
      qp.set(heap.get(0), 0);
    }
    qp.set(head, qp.get(newSize));
    qp.remove(newSize);
    if (head < newSize) {
      heap.set(qp.get(head), head);
    }
    item = items.get(head);
    priority = priorities.get(head);
    slots.remove(item);
    if (head < newSize) { // the index map's swap_remove_index: the last item fills the slot
      I last = items.get(newSize);
      items.set(head, last);
      priorities.set(head, priorities.get(newSize));
      slots.put(last, head);
    }
    items.remove(newSize);
    priorities.remove(newSize);
    if (newSize > 1) {
      heapify(0);
    }
    return true;
  }

  private void heapify(int i) {
    int size = heap.size();
    if (size <= 1) {
      return;
    }
    int largest = i;
    while (true) {
      P largestP = at(i);
      int l = 2 * i + 1;
      if (l < size) {
        P childP = at(l);
        if (order.compare(childP, largestP) > 0) {
          largest = l;
          largestP = childP;
        }
        int r = 2 * i + 2;
        if (r < size && order.compare(at(r), largestP) > 0) {
          largest = r;
        }
      }
      if (largest == i) {
        return;
      }
      int a = heap.get(i);
      int b = heap.get(largest);
      qp.set(a, largest);
      qp.set(b, i);
      heap.set(i, b);
      heap.set(largest, a);
      i = largest;
    }
  }

  private int bubbleUp(int position, int slot) {
    P p = priorities.get(slot);
    while (position > 0) {
      int parent = (position - 1) / 2;
      if (order.compare(at(parent), p) >= 0) {
        break;
      }
      int parentSlot = heap.get(parent);
      heap.set(position, parentSlot);
      qp.set(parentSlot, position);
      position = parent;
    }
    heap.set(position, slot);
    qp.set(slot, position);
    return position;
  }
}
