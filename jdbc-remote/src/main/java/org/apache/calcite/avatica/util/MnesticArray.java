package org.apache.calcite.avatica.util;

import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

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
  /**
   * The accessor's own values of the elements (day counts, milliseconds) when they are
   * dates, times or timestamps, else null. {@link #toString} and {@link #getResultSet()} read these: Avatica's
   * accessors read a {@code java.sql.Date} element by its {@code getTime()}, in the Julian
   * calendar before 1582, so DATE '1582-10-04' read as 1582-10-14, also through the server.
   */
  private final List<Object> values;
  private final AbstractCursor.ArrayAccessor accessor;

  private MnesticArray(List<Object> elements, List<Object> values,
      AbstractCursor.ArrayAccessor accessor) {
    super(elements, accessor);
    this.values = values;
    this.accessor = accessor;
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
   * The {@code getString} of {@code accessor}'s current value: for an array the
   * {@link #toString} of the array of this kind; else as Avatica gives it.
   */
  public static String string(Cursor.Accessor accessor) throws SQLException {
    final Object array = of(accessor);
    return array instanceof MnesticArray ? array.toString() : accessor.getString();
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
      final int type = accessor.componentType.id;
      return new MnesticArray(elements, type == Types.DATE || type == Types.TIME
          || type == Types.TIMESTAMP ? new ArrayList<>(list) : null, accessor);
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
    return new MnesticArray(elements, null, accessor);
  }

  /** The elements' values: index (from 1) and element, read as a result set's columns are. */
  @Override public java.sql.ResultSet getResultSet() throws SQLException {
    return values == null ? super.getResultSet()
        : accessor.factory.create(accessor.componentType, values);
  }

  /**
   * As Avatica's, from the elements' values ({@code [1, null]}, {@code [1582-10-04]}), or the
   * nested arrays' own ({@code [[1582-10-04], null]}).
   */
  @Override public String toString() {
    if (accessor.componentType.id != Types.ARRAY && values == null) {
      return super.toString();
    }
    final StringJoiner joiner = new StringJoiner(", ", "[", "]");
    try {
      if (values == null) {
        for (Object element : (Object[]) getArray()) {
          joiner.add(String.valueOf(element));
        }
      } else {
        for (Object value : values) {
          accessor.componentSlotGetter.slot = value;
          joiner.add(accessor.componentAccessor.getString());
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    } finally {
      accessor.componentSlotGetter.slot = null;
    }
    return joiner.toString();
  }


  /** The elements as they are: the objects of {@code getObject}, boxed, nested arrays as Arrays. */
  @Override protected Object getArray(List<?> list, AbstractCursor.ArrayAccessor accessor) {
    return list.toArray();
  }
}
