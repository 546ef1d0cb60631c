package dev.mnestic.value;

import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * CozoDB's Set value ({@code DataValue::Set}), which only the meet
 * aggregations {@code union} and {@code intersection} make: once a group has
 * merged a second list, its value is the set of their elements. A query
 * result shows it as a list of its elements in {@link Values}' order, but it
 * is not a List: it sorts after every list, equals no list, is no list to
 * {@code get}, {@code first} or {@code x in s}, and only {@code length},
 * {@code concat}, {@code append}, {@code prepend}, {@code union},
 * {@code intersection}, {@code difference} and a few others take it, as in
 * CozoDB.
 */
public final class ValueSet {
  /** Distinct, in {@link Values}' order. */
  private final List<Object> elements;

  private ValueSet(List<Object> elements) {
    this.elements = elements;
  }

  /** The set of the given values. */
  public static ValueSet of(Collection<?> values) {
    final TreeSet<Object> set = new TreeSet<>(Values.ORDER);
    set.addAll(values);
    return new ValueSet(Values.listOf(set));
  }

  /** The elements, distinct, in {@link Values}' order. */
  public List<Object> elements() {
    return elements;
  }

  public int size() {
    return elements.size();
  }

  @Override public boolean equals(Object o) {
    return o instanceof ValueSet && Values.equal(elements, ((ValueSet) o).elements);
  }

  @Override public int hashCode() {
    return 17 * Values.hash(elements);
  }

  @Override public String toString() {
    return Values.display(this);
  }
}
