package dev.mnestic.server;

import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.util.DateTimeUtils;

import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.List;

/**
 * Dates and timestamps in the rows the server sends, as the protocol means them: a DATE is
 * its day count since 1970-01-01 and a TIMESTAMP its milliseconds since 1970-01-01 00:00, both
 * in the proleptic Gregorian calendar (ISO 8601), as the thin client decodes them and as
 * mnestic holds them.
 *
 * <p>Avatica's server reads them as {@code java.sql.Date} and {@code Timestamp} with a UTC
 * calendar and sends their {@code getTime()}, which counts in the Julian calendar before the
 * Gregorian reform of 1582: a DATE '1582-10-04' arrived as 1582-10-14 and DATE '0001-01-01'
 * as 0001-12-30. The fields it read are taken back from that count, in the calendar it was
 * made with, and counted again in the proleptic one. TIME values are a time of day and need
 * nothing.
 */
final class WireDates {
  private WireDates() {
  }

  /**
   * Counts again, in place, the dates and timestamps of {@code rows} (each an
   * {@code Object[]} of columns, typed {@code types}), also in arrays at any depth.
   */
  static void proleptic(Iterable<Object> rows, List<ColumnMetaData.AvaticaType> types) {
    if (types.stream().noneMatch(WireDates::holdsDates)) {
      return;
    }
    final Calendar calendar = DateTimeUtils.calendar();
    for (Object row : rows) {
      final Object[] columns = (Object[]) row;
      for (int i = 0; i < columns.length; i++) {
        columns[i] = proleptic(columns[i], types.get(i), calendar);
      }
    }
  }

  private static boolean holdsDates(ColumnMetaData.AvaticaType type) {
    return type instanceof ColumnMetaData.ArrayType array ? holdsDates(array.getComponent())
        : type.id == Types.DATE || type.id == Types.TIMESTAMP;
  }

  private static Object proleptic(Object value, ColumnMetaData.AvaticaType type,
      Calendar calendar) {
    if (value == null) {
      return null;
    }
    if (type instanceof ColumnMetaData.ArrayType array && value instanceof List<?> list) {
      final List<Object> elements = new ArrayList<>(list.size());
      for (Object e : list) {
        elements.add(proleptic(e, array.getComponent(), calendar));
      }
      return elements;
    }
    if (type.id == Types.DATE && value instanceof Number days) {
      calendar.setTimeInMillis(days.longValue() * DateTimeUtils.MILLIS_PER_DAY);
      return (int) date(calendar).toEpochDay();
    }
    if (type.id == Types.TIMESTAMP && value instanceof Number millis) {
      calendar.setTimeInMillis(millis.longValue());
      final LocalDateTime t = date(calendar).atTime(calendar.get(Calendar.HOUR_OF_DAY),
          calendar.get(Calendar.MINUTE), calendar.get(Calendar.SECOND));
      return t.toEpochSecond(ZoneOffset.UTC) * 1000 + calendar.get(Calendar.MILLISECOND);
    }
    return value;
  }

  /** The day {@code calendar} (Julian before 1582-10-15) is at, by its year, month and day. */
  private static LocalDate date(Calendar calendar) {
    final int year = calendar.get(Calendar.YEAR);
    return LocalDate.of(calendar.get(Calendar.ERA) == GregorianCalendar.BC ? 1 - year : year,
        calendar.get(Calendar.MONTH) + 1, calendar.get(Calendar.DAY_OF_MONTH));
  }
}
