package dev.mnestic.rel;

import com.google.common.collect.ImmutableList;

import org.apache.calcite.plan.RelOptSchema;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.RelOptTableImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.schema.impl.ListTransientTable;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Transient tables for {@link RecursiveUnion}: a scan finds its table by
 * name in the root schema while the fixpoint runs, and a connection's
 * schema may answer a reused name with a table it looked up before; so
 * every table gets a name of its own.
 */
public final class TransientTables {
  private static final AtomicLong NEXT = new AtomicLong();

  private TransientTables() {
  }

  /** A new empty transient table named {@code base$N}, N unique in this JVM. */
  public static RelOptTable create(RelOptSchema schema, String base, RelDataType rowType) {
    final String name = base + "$" + NEXT.incrementAndGet();
    return RelOptTableImpl.create(schema, rowType, new ListTransientTable(name, rowType),
        ImmutableList.of(name));
  }
}
