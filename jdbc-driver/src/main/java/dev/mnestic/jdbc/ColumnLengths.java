package dev.mnestic.jdbc;

import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;

import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.sql.type.SqlTypeName;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The lengths a result set's string and binary columns report ({@code getPrecision},
 * {@code getColumnDisplaySize}). The planner types a stored column as a string of any length
 * (the store enforces its length, see {@code StoreTable}), so Calcite would report 0 and -1: a
 * column read straight from a stored table reports the length it was declared with
 * ({@code VARCHAR(20)}: 20), any other string the longest the engine makes.
 */
public final class ColumnLengths {
  private ColumnLengths() {
  }

  /** {@code signature} with the lengths of its string and binary columns filled in. */
  public static Meta.Signature of(CalciteConnection connection, Meta.Signature signature) {
    if (signature == null || signature.columns == null
        || signature.columns.stream().noneMatch(ColumnLengths::lacksLength)) {
      return signature;
    }
    final List<ColumnMetaData> columns = new ArrayList<>();
    for (ColumnMetaData c : signature.columns) {
      columns.add(lacksLength(c) ? withLength(connection, c) : c);
    }
    return new Meta.Signature(columns, signature.sql, signature.parameters,
        signature.internalParameters, signature.cursorFactory, signature.statementType);
  }

  private static boolean lacksLength(ColumnMetaData c) {
    return c.precision <= 0 && (isString(c.type.id) || isBinary(c.type.id));
  }

  private static boolean isString(int type) {
    return type == Types.CHAR || type == Types.VARCHAR;
  }

  private static boolean isBinary(int type) {
    return type == Types.BINARY || type == Types.VARBINARY;
  }

  private static ColumnMetaData withLength(CalciteConnection connection, ColumnMetaData c) {
    int length = c.precision;
    if (length <= 0) {
      final OptionalInt declared = Session.SCHEMA.equals(c.schemaName)
          && c.tableName != null && !c.tableName.isEmpty()
          && c.columnName != null && !c.columnName.isEmpty()
          ? StoreCatalog.columnSize(Session.of(connection.getRootSchema()), c.tableName,
              c.columnName)
          : OptionalInt.empty();
      length = declared.orElseGet(() -> connection.getTypeFactory().getTypeSystem()
          .getMaxPrecision(isBinary(c.type.id) ? SqlTypeName.VARBINARY : SqlTypeName.VARCHAR));
    }
    // A binary value shows as two hexadecimal digits a byte.
    final int display = isBinary(c.type.id) ? (int) Math.min(Integer.MAX_VALUE, 2L * length)
        : length;
    return new ColumnMetaData(c.ordinal, c.autoIncrement, c.caseSensitive, c.searchable,
        c.currency, c.nullable, c.signed, display, c.label, c.columnName, c.schemaName, length,
        c.scale, c.tableName, c.catalogName, c.type, c.readOnly, c.writable,
        c.definitelyWritable, c.columnClassName);
  }
}
