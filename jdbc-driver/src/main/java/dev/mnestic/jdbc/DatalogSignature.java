package dev.mnestic.jdbc;

import dev.mnestic.datalog.Engine;
import dev.mnestic.value.Bytes;
import dev.mnestic.value.Json;
import dev.mnestic.value.Validity;

import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Linq4j;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.sql.Wrapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A CozoScript script as a JDBC statement ({@code lang=datalog}). Prepared,
 * its parameters are its {@code $name}s, each once, in the order they first
 * appear ({@code setObject(1, ...)} binds the first); its columns are the
 * entry rule's headers, of JDBC type JAVA_OBJECT holding CozoDB values (Long,
 * Double, String, Boolean, List, null, and as {@link #jdbcValue} says,
 * byte[], UUID and JSON text). Run, it is a signature holding the rows the
 * script returned; its result set also unwraps to the script's {@link Engine.Result}, whose
 * values are CozoDB's as the engine gave them (a Json value stays Json, not its text):
 * {@code mnestic run} prints those as CozoDB does.
 */
public final class DatalogSignature extends CalcitePrepare.CalciteSignature<Object> implements Wrapper {
  private static final ColumnMetaData.AvaticaType ANY =
      ColumnMetaData.scalar(Types.JAVA_OBJECT, "ANY", ColumnMetaData.Rep.OBJECT);

  final String script;
  /** The script's result; null when only prepared. */
  private final Engine.Result result;

  private DatalogSignature(String script, List<AvaticaParameter> parameters,
      List<String> headers, List<Object> rows, Engine.Result result) {
    super(script, parameters, Map.of(), null, columns(headers), Meta.CursorFactory.ARRAY, null,
        List.of(), -1, dataContext -> Linq4j.asEnumerable(rows), Meta.StatementType.SELECT);
    this.script = script;
    this.result = result;
  }

  /** The script prepared: its parameters and its headers, no rows yet. */
  static DatalogSignature prepare(String script) {
    final Engine.Description description = Engine.describe(script);
    final List<AvaticaParameter> parameters = new ArrayList<>();
    for (String name : description.parameters()) {
      parameters.add(new AvaticaParameter(false, 0, 0, Types.JAVA_OBJECT, "ANY",
          Object.class.getName(), name));
    }
    return new DatalogSignature(script, parameters, description.headers(), List.of(), null);
  }

  /** The script's result. */
  static DatalogSignature of(String script, Engine.Result result) {
    final List<Object> rows = new ArrayList<>();
    for (List<Object> row : result.rows()) {
      rows.add(row.stream().map(DatalogSignature::jdbcValue).toArray());
    }
    return new DatalogSignature(script, List.of(), result.headers(), rows, result);
  }

  /**
   * The result after a statement's result of {@code signature}, for JDBC's
   * {@code getMoreResults}: a CozoScript's {@code %return a, b} gives {@code b}'s rows after
   * {@code a}'s ({@link Engine.Result#next}); null when there is none.
   */
  public static Meta.Signature next(Meta.Signature signature) {
    return signature instanceof DatalogSignature s && s.result != null
        && s.result.next() != null ? of(s.script, s.result.next()) : null;
  }

  /**
   * A CozoDB value as a JDBC client takes it: Bytes as {@code byte[]}, a Json
   * value as its JSON text, a Validity as the list {@code [timestamp,
   * assertion]}, inside lists too; Uuids stay {@link java.util.UUID}s.
   */
  private static Object jdbcValue(Object v) {
    if (v instanceof Bytes) {
      return ((Bytes) v).toByteArray();
    }
    if (v instanceof Json) {
      return ((Json) v).text();
    }
    if (v instanceof Validity) {
      return List.of(((Validity) v).timestamp(), ((Validity) v).assertion());
    }
    if (v instanceof List) {
      return ((List<?>) v).stream().map(DatalogSignature::jdbcValue).toList();
    }
    return v;
  }

  /** The script's {@link Engine.Result}, once run. */
  @Override public <T> T unwrap(Class<T> iface) throws SQLException {
    if (!isWrapperFor(iface)) {
      throw new SQLException("not a wrapper for " + iface.getName());
    }
    return iface.cast(result);
  }

  @Override public boolean isWrapperFor(Class<?> iface) {
    return result != null && iface.isInstance(result);
  }

  private static List<ColumnMetaData> columns(List<String> headers) {
    final List<ColumnMetaData> columns = new ArrayList<>();
    for (int i = 0; i < headers.size(); i++) {
      final String name = headers.get(i);
      columns.add(new ColumnMetaData(i, false, true, false, false,
          DatabaseMetaData.columnNullable, true, 40, name, name, null, 0, 0, null, null, ANY,
          true, false, false, Object.class.getName()));
    }
    return columns;
  }
}
