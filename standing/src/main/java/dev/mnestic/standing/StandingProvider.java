package dev.mnestic.standing;

import dev.mnestic.planner.view.PlanCommand;
import dev.mnestic.sql.SqlCreateStandingQuery;
import dev.mnestic.sql.SqlDropStandingQuery;
import dev.mnestic.sql.SqlStandingQuery;
import dev.mnestic.sql.StandingQueries;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParser;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Standing queries as the driver asks for them: each call goes to the connection's
 * {@link Dashboard}. Declared in {@code META-INF/services}, so that the driver finds it
 * whenever this module's jar is on its class path.
 */
public final class StandingProvider implements StandingQueries {
  /** For {@link java.util.ServiceLoader}. */
  public StandingProvider() {
  }

  @Override public void attachTo(SchemaPlus root, SqlParser.Config parser) {
    Dashboard.attachTo(root, parser);
  }

  @Override public boolean sync(SchemaPlus root) {
    return Dashboard.of(root).sync();
  }

  @Override public Schema schema(SchemaPlus root) {
    final Dashboard dashboard = Dashboard.of(root);
    dashboard.sync();
    return dashboard;
  }

  @Override public void create(SchemaPlus root, SqlCreateStandingQuery create) {
    Dashboard.of(root).create(create);
  }

  @Override public void drop(SchemaPlus root, SqlDropStandingQuery drop) {
    Dashboard.of(root).drop(drop);
  }

  @Override public Target lower(SqlStandingQuery query, SchemaPlus root,
      JavaTypeFactory typeFactory) {
    final StandingQuery standing = StandingQuery.lower("query", query, null, root, typeFactory);
    return new Target() {
      @Override public RelDataType rowType() {
        return standing.rowType();
      }

      @Override public List<Object[]> answer(SchemaPlus root, AtomicBoolean cancel) {
        return Dashboard.answer(standing, root, cancel);
      }
    };
  }

  @Override public Followed follow(SchemaPlus root, SqlIdentifier name) {
    final StandingQuery query = Dashboard.of(root).lowered(name.names);
    if (Follow.boundColumn(query) < 0) {
      throw new StandingQueryException(name.getParserPosition(), "standing query " + query.name()
          + " selects no window bound, so its rows cannot be told apart as windows close: add"
          + " TUMBLE_START, TUMBLE_END, HOP_START or HOP_END to follow it");
    }
    return new Followed() {
      @Override public RelDataType rowType() {
        return query.rowType();
      }

      @Override public Feed open(SchemaPlus root, AtomicBoolean cancel, long lateness) {
        return new Follow(Dashboard.of(root), query, lateness, Follow.WALL_CLOCK, cancel);
      }
    };
  }

  @Override public List<PromQlStanding> promql(SchemaPlus root) {
    return Dashboard.of(root).promql();
  }

  @Override public boolean isStanding(SchemaPlus root, List<String> names) {
    return Dashboard.of(root).isStanding(names);
  }

  @Override public String explain(SchemaPlus root, String form, boolean all) {
    return Dashboard.of(root).explain(form, all);
  }

  @Override public List<String> readersOf(SchemaPlus root, String table) {
    return Dashboard.of(root).readersOf(table);
  }

  @Override public boolean isQueryError(Throwable t) {
    return t instanceof StandingQueryException;
  }

  @Override public int plan(List<String> args, PrintStream out, PrintStream err) {
    return PlanCommand.run(args.toArray(new String[0]), out, err);
  }
}
