package dev.mnestic.jdbc;

import dev.mnestic.sql.SqlCreateStandingQuery;
import dev.mnestic.sql.SqlDropStandingQuery;
import dev.mnestic.sql.SqlStandingQuery;
import dev.mnestic.sql.StandingQueries;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParser;

import java.io.PrintStream;
import java.sql.SQLException;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The driver's standing queries: the {@link StandingQueries} on the driver's class path (the
 * standing module's jar declares one), or, when there is none, {@link Absent}.
 */
final class Standing {
  private Standing() {
  }

  /**
   * Looked up with the driver's own class loader, not the thread's: a tool such as DBeaver loads
   * the driver's jars in a loader of their own, which the thread's need not see.
   */
  private static final StandingQueries QUERIES = ServiceLoader
      .load(StandingQueries.class, StandingQueries.class.getClassLoader())
      .findFirst().orElseGet(Absent::new);

  /** The standing queries of every connection of this driver. */
  static StandingQueries queries() {
    return QUERIES;
  }

  /**
   * No standing queries on the class path: a connection has none, so nothing reads a table and
   * no name is one; a statement that needs them fails with SQLSTATE 0A000 naming the jar to add.
   */
  static final class Absent implements StandingQueries {
    /** What a statement (or {@code mnestic plan}) needing standing queries fails with. */
    static SQLException missing(String what) {
      return new SQLException(what + " needs standing queries, which this driver's jar does not"
          + " carry: put the standing module's jar mnestic-standing-VERSION-addon.jar"
          + " (standing/target/) on the class path beside it; bin/mnestic has both", "0A000");
    }

    @Override public void attachTo(SchemaPlus root, SqlParser.Config parser) {
    }

    @Override public boolean sync(SchemaPlus root) {
      return false;
    }

    @Override public Schema schema(SchemaPlus root) {
      return new AbstractSchema();
    }

    @Override public void create(SchemaPlus root, SqlCreateStandingQuery create) {
      throw SqlFailures.<RuntimeException>sneaky(missing("CREATE STANDING QUERY"));
    }

    @Override public void drop(SchemaPlus root, SqlDropStandingQuery drop) {
      throw SqlFailures.<RuntimeException>sneaky(missing("DROP STANDING QUERY"));
    }

    @Override public Target lower(SqlStandingQuery query, SchemaPlus root,
        JavaTypeFactory typeFactory) {
      throw SqlFailures.<RuntimeException>sneaky(missing("a query WITHIN RANK or RELATIVE ERROR"));
    }

    @Override public Followed follow(SchemaPlus root, SqlIdentifier name) {
      throw SqlFailures.<RuntimeException>sneaky(missing("SELECT STREAM of a standing query"));
    }

    @Override public boolean isStanding(SchemaPlus root, List<String> names) {
      return false;
    }

    @Override public String explain(SchemaPlus root, String form, boolean all) {
      throw SqlFailures.<RuntimeException>sneaky(missing("EXPLAIN of a standing query"));
    }

    @Override public List<String> readersOf(SchemaPlus root, String table) {
      return List.of();
    }

    @Override public boolean isQueryError(Throwable t) {
      return false;
    }

    @Override public int plan(List<String> args, PrintStream out, PrintStream err) {
      err.print("Error: " + missing("mnestic plan").getMessage() + "\n");
      return 1;
    }
  }
}
