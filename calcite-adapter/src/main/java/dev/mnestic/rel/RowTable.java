package dev.mnestic.rel;

import com.google.common.collect.ImmutableList;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptSchema;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.RelOptTableImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.util.BuiltInMethod;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.Objects.requireNonNull;

/**
 * An in-memory relation of {@code Object[]} rows that Datalog evaluation
 * fills and scans: a stratum's result, a recursive relation's {@code full}
 * and {@code delta}, a copy of a stored relation.
 *
 * <p>Generated code finds the table in its {@link DataContext}, under the
 * table's name ({@code root.get(name)}), and scans its list directly. So a
 * plan over row tables runs only with a context that holds them
 * ({@link Plans#run}); nothing is registered in a schema. (Calcite's own
 * {@code TransientTable} cannot be scanned by generated code at all:
 * Calcite runs such scans in its interpreter, per row and per round.)
 */
public final class RowTable extends AbstractTable implements ScannableTable {
  private static final AtomicLong NEXT = new AtomicLong();

  private final String name;
  private final RelDataType rowType;
  private final List<Object[]> rows = new ArrayList<>();

  private RowTable(String name, RelDataType rowType) {
    this.name = name;
    this.rowType = rowType;
  }

  /** A new empty row table named {@code base$N}, N unique in this JVM, for plans of {@code schema}. */
  public static RelOptTable create(RelOptSchema schema, String base, RelDataType rowType) {
    final RowTable table = new RowTable(base + "$" + NEXT.incrementAndGet(), rowType);
    // Schemas.enumerable((ScannableTable) root.get(name), root)
    final Expression scan = Expressions.call(BuiltInMethod.SCHEMAS_ENUMERABLE_SCANNABLE.method,
        Expressions.convert_(Expressions.call(DataContext.ROOT, BuiltInMethod.DATA_CONTEXT_GET.method,
            Expressions.constant(table.name)), ScannableTable.class),
        DataContext.ROOT);
    return RelOptTableImpl.create(schema, rowType, ImmutableList.of(table.name), table, scan);
  }

  /** The row table behind {@code table}. */
  public static RowTable of(RelOptTable table) {
    return requireNonNull(table.unwrap(RowTable.class), () -> table + " is not a row table");
  }

  /** The name generated code looks the table up by. */
  public String name() {
    return name;
  }

  /** The rows, to read and write in place. */
  public List<Object[]> rows() {
    return rows;
  }

  @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return rowType;
  }

  @Override public Enumerable<Object[]> scan(DataContext root) {
    return Linq4j.asEnumerable(rows);
  }
}
