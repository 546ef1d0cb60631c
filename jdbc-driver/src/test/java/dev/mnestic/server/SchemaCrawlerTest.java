package dev.mnestic.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import schemacrawler.schema.Catalog;
import schemacrawler.schema.Column;
import schemacrawler.schema.ColumnReference;
import schemacrawler.schema.ForeignKey;
import schemacrawler.schema.Index;
import schemacrawler.schema.Routine;
import schemacrawler.schema.RoutineType;
import schemacrawler.schema.Schema;
import schemacrawler.schema.Table;
import schemacrawler.schemacrawler.LimitOptionsBuilder;
import schemacrawler.schemacrawler.LoadOptionsBuilder;
import schemacrawler.schemacrawler.SchemaCrawlerOptions;
import schemacrawler.schemacrawler.SchemaCrawlerOptionsBuilder;
import schemacrawler.schemacrawler.SchemaInfoLevelBuilder;
import schemacrawler.tools.utility.SchemaCrawlerUtility;
import us.fatehi.utility.datasource.DatabaseConnectionSources;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SchemaCrawler, a real SQL tool nobody on this project wrote, crawls a store through its API
 * at its most detailed level, over the embedded driver and through a thin client of a real
 * server: the catalog it builds has the store's tables and standing queries, their columns
 * with types, the primary keys, the foreign keys (made through HSQLDB's own driver) and the
 * UNIQUE indexes; and the routines, mnestic's SQL functions, in the schema SYSTEM.
 */
class SchemaCrawlerTest {
  private static final String DB = "mem:schemacrawler-test";
  private static MnesticServer server;
  /** SchemaCrawler's loggers, held so their level stays (it logs each crawl step as INFO). */
  private static final List<Logger> QUIET =
      List.of(Logger.getLogger("schemacrawler"), Logger.getLogger("us.fatehi"));

  @BeforeAll static void start() throws Exception {
    QUIET.forEach(logger -> logger.setLevel(Level.WARNING));
    QUIET.forEach(logger -> logger.addHandler(new java.util.logging.Handler() {
      @Override public void publish(java.util.logging.LogRecord record) {
        if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
          WARNINGS.add(record.getMessage() + (record.getThrown() != null
              ? " " + record.getThrown() : ""));
        }
      }

      @Override public void flush() {
      }

      @Override public void close() {
      }
    }));
    server = MnesticServer.newBuilder().port(0).db(DB).build();
    server.start();
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=" + DB);
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE dept (id INT PRIMARY KEY, name VARCHAR(30) NOT NULL UNIQUE)");
      s.execute("CREATE TABLE emp (id INT, dept INT NOT NULL, name VARCHAR(40),"
          + " salary DECIMAL(10, 2), bonus DOUBLE, hired TIMESTAMP NOT NULL,"
          + " PRIMARY KEY (dept, id))");
      s.execute("CREATE STANDING QUERY pay AS SELECT TUMBLE_START(hired, INTERVAL '1' MINUTE)"
          + " AS w, APPROX_QUANTILE(salary, 0.5) AS median FROM emp"
          + " GROUP BY TUMBLE(hired, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.01");
    }
    // A foreign key, which mnestic's SQL does not declare, made through HSQLDB's own driver.
    try (Connection h = DriverManager.getConnection("jdbc:hsqldb:" + DB, "SA", "");
         Statement s = h.createStatement()) {
      s.execute("ALTER TABLE \"emp\" ADD CONSTRAINT emp_dept FOREIGN KEY (\"dept\")"
          + " REFERENCES \"dept\" (\"id\")");
    }
  }

  @AfterAll static void stop() throws Exception {
    server.close();
  }

  private static Connection connect(String how) throws SQLException {
    return how.equals("server") ? ThinClient.connect(server)
        : DriverManager.getConnection("jdbc:mnestic:db=" + DB);
  }

  /** SchemaCrawler's warnings while it crawls (it warned: getTypeMap unsupported). */
  private static final List<String> WARNINGS = new java.util.concurrent.CopyOnWriteArrayList<>();

  private static Catalog crawl(Connection c) throws Exception {
    final SchemaCrawlerOptions options = SchemaCrawlerOptionsBuilder.newSchemaCrawlerOptions()
        .withLimitOptions(LimitOptionsBuilder.builder().includeAllRoutines().toOptions())
        .withLoadOptions(LoadOptionsBuilder.builder()
            .withSchemaInfoLevel(SchemaInfoLevelBuilder.maximum()).toOptions());
    return SchemaCrawlerUtility.getCatalog(DatabaseConnectionSources.fromConnection(c), options);
  }

  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void crawledCatalog(String how) throws Exception {
    try (Connection c = connect(how)) {
      final Catalog catalog = crawl(c);
      final Map<String, Table> tables = new TreeMap<>();
      for (Table table : catalog.getTables()) {
        tables.put(table.getSchema().getName() + "." + table.getName(), table);
      }
      assertEquals(List.of("PUBLIC.dept", "PUBLIC.emp", "STANDING.pay"),
          new ArrayList<>(tables.keySet()));
      assertEquals("VIEW", tables.get("STANDING.pay").getTableType().getTableType()
          .toUpperCase());

      assertEquals(List.of("id INTEGER false", "dept INTEGER false", "name VARCHAR(40) true",
          "salary DECIMAL(10, 2) true", "bonus DOUBLE(64, 0) true", "hired TIMESTAMP false"),
          columns(tables.get("PUBLIC.emp")));
      // A standing query's DOUBLE is described as the store describes its own.
      assertEquals(List.of("w TIMESTAMP false", "median DOUBLE(64, 0) true"),
          columns(tables.get("STANDING.pay")));

      final Table emp = tables.get("PUBLIC.emp");
      assertEquals(List.of("dept", "id"), emp.getPrimaryKey().getConstrainedColumns().stream()
          .map(Column::getName).toList());
      final Table dept = tables.get("PUBLIC.dept");
      assertEquals(List.of("id"), dept.getPrimaryKey().getConstrainedColumns().stream()
          .map(Column::getName).toList());
      final List<String> foreignKeys = new ArrayList<>();
      for (ForeignKey key : emp.getImportedForeignKeys()) {
        for (ColumnReference column : key.getColumnReferences()) {
          foreignKeys.add(key.getName() + " " + column.getForeignKeyColumn().getFullName()
              + " -> " + column.getPrimaryKeyColumn().getFullName());
        }
      }
      assertEquals(List.of("EMP_DEPT PUBLIC.emp.dept -> PUBLIC.dept.id"), foreignKeys);
      assertEquals(List.of("EMP_DEPT"), dept.getExportedForeignKeys().stream()
          .map(ForeignKey::getName).toList());
      final List<String> indexes = new ArrayList<>();
      for (Index index : dept.getIndexes()) {
        indexes.add(index.getColumns().stream().map(Column::getName).toList() + " unique "
            + index.isUnique());
      }
      indexes.sort(String::compareTo);
      assertEquals(List.of("[id] unique true", "[name] unique true"), indexes);

      // mnestic's routines are its SQL functions, built in, in the schema SYSTEM (as
      // PostgreSQL's in pg_catalog), each one a function routine with its remarks.
      final Map<String, Routine> routines = new TreeMap<>();
      for (Routine routine : catalog.getRoutines()) {
        routines.put(routine.getSchema().getName() + "." + routine.getName(), routine);
      }
      for (String name : List.of("PARETO_MIN", "PARETO_MAX", "APPROX_QUANTILE", "UPPER",
          "COUNT")) {
        final Routine routine = routines.get("SYSTEM." + name);
        assertNotNull(routine, name + " in " + routines.keySet());
        assertEquals(RoutineType.function, routine.getRoutineType(), name);
      }
      assertTrue(routines.get("SYSTEM.APPROX_QUANTILE").getRemarks().contains("WITHIN"));
      assertEquals(Set.of("SYSTEM"), routines.values().stream()
          .map(r -> r.getSchema().getName()).collect(Collectors.toSet()));
      assertEquals(column(c.getMetaData().getFunctions(null, null, "%"), "FUNCTION_NAME"),
          routines.values().stream().map(Routine::getName).sorted().toList());
      final List<String> schemas = new ArrayList<>();
      for (Schema schema : catalog.getSchemas()) {
        schemas.add(schema.getName());
      }
      assertTrue(schemas.containsAll(List.of("PUBLIC", "STANDING", "SYSTEM")),
          schemas.toString());
      assertEquals(Map.of(), c.getTypeMap());
      assertTrue(WARNINGS.stream().noneMatch(w -> w.toLowerCase().contains("typemap")),
          WARNINGS.toString());
    }
  }

  private static List<String> column(java.sql.ResultSet rs, String name) throws SQLException {
    final List<String> values = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        values.add(rs.getString(name));
      }
    }
    return values;
  }

  /** Each column as "name type nullable", its type with the size SchemaCrawler shows. */
  private static List<String> columns(Table table) {
    final List<String> columns = new ArrayList<>();
    for (Column column : table.getColumns()) {
      columns.add(column.getName() + " " + column.getColumnDataType().getName()
          + column.getWidth() + " " + column.isNullable());
    }
    return columns;
  }
}
