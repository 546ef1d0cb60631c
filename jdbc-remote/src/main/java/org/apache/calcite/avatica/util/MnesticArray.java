package org.apache.calcite.avatica.util;

import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * An SQL array of mnestic's drivers, embedded and thin, whose {@code getArray()} is an
 * {@code Object[]} of the objects {@code ResultSet.getObject} gives for values of the element
 * type, nested arrays as arrays of this kind, NULLs as null. Avatica's own casts the elements
 * to the internal Java type of the element type instead: embedded it gave an {@code int[]}
 * for {@code ARRAY[1, 2]} but an {@code Object[]} for {@code ARRAY[1, NULL]}, and failed on
 * arrays of arrays and of non-null dates, times and timestamps (a {@code java.sql.Date} is no
 * {@code Integer}); through Avatica's thin client it fails on a NULL element of an array of
 * arrays ("Unhandled"). In Avatica's package because the array accessor's parts are
 * package-private.
 */
public final class MnesticArray extends ArrayImpl {
  private MnesticArray(List<Object> elements, AbstractCursor.ArrayAccessor accessor) {
    super(elements, accessor);
  }

  /**
   * The current value of {@code accessor}, an array column's, as an array of this kind; null
   * for SQL NULL; or what Avatica gives if the column is no array.
   */
  public static Object of(Cursor.Accessor accessor) throws SQLException {
    if (!(accessor instanceof AbstractCursor.ArrayAccessor array)) {
      return accessor.getObject();
    }
    final Object value = array.getter.getObject();
    return value instanceof List<?> list ? of(list, array) : array.getArray();
  }

  /**
   * {@code list}, the accessor's value of an array (of internal Java values), as an array: the
   * elements converted as Avatica converts them (dates with the accessor's calendar), and
   * nested arrays from their own values, since Avatica's converted ones are its own arrays.
   */
  private static MnesticArray of(List<?> list, AbstractCursor.ArrayAccessor accessor)
      throws SQLException {
    if (accessor.componentType.id != Types.ARRAY) {
      // The accessor converts the list it reads, which is this one.
      @SuppressWarnings("unchecked") final List<Object> elements =
          (List<Object>) accessor.getObject();
      return new MnesticArray(elements, accessor);
    }
    final AbstractCursor.ArrayAccessor component =
        (AbstractCursor.ArrayAccessor) accessor.componentAccessor;
    final List<Object> elements = new ArrayList<>(list.size());
    for (Object element : list) {
      // The component accessor reads the slot.
      accessor.componentSlotGetter.slot = element;
      elements.add(element instanceof List<?> inner ? of(inner, component)
          : element == null ? null : component.getArray());
    }
    accessor.componentSlotGetter.slot = null;
    return new MnesticArray(elements, accessor);
  }

  /** The elements as they are: the objects of {@code getObject}, boxed, nested arrays as Arrays. */
  @Override protected Object getArray(List<?> list, AbstractCursor.ArrayAccessor accessor) {
    return list.toArray();
  }
}
