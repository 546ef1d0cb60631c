package dev.mnestic.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static dev.mnestic.architecture.Modules.module;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

import java.util.Map;

/**
 * The allowed dependencies between mnestic's modules and packages, checked on the main
 * classes of every module (this module's test classpath holds them all, through bench and
 * examples). A module is where a class was compiled ({@link Modules}), so the rules follow a
 * package that moves to another module.
 *
 * <p>The modules and what each may use:
 * <pre>
 *   value             nothing (JDK only)
 *   graph-algorithms  value
 *   search            value (and Lucene)
 *   calcite-adapter   value
 *   sql-dialect       calcite-adapter
 *   datalog-frontend  calcite-adapter, value, graph-algorithms, search
 *   planner-milp      nothing (no Calcite either)
 *   jdbc-remote       nothing (Avatica's client alone)
 *   jdbc-driver       calcite-adapter, value, sql-dialect, datalog-frontend, jdbc-remote
 *   standing          planner-milp, sql-dialect (its SPI, sql.StandingQueries),
 *                     calcite-adapter, value
 *   flink-job         standing, planner-milp, calcite-adapter (and Flink, Kafka's client)
 *   examples          nothing (java.sql only)
 *   bench             every module but examples
 * </pre>
 * The driver finds {@code standing} through {@link java.util.ServiceLoader} (the SPI is
 * sql-dialect's), so nothing uses it but bench, and the driver, its server and its CLI reach
 * the planner (and its solver's natives) only through it: the driver's jar leaves them out. A module without classes fails the layer rule: each is expected to exist.
 */
@AnalyzeClasses(
    packages = {"dev.mnestic", "org.apache.calcite.jdbc", "org.apache.calcite.avatica"},
    importOptions = {ImportOption.DoNotIncludeTests.class, Modules.MainCode.class})
class ArchitectureTest {
  @ArchTest
  static final ArchRule MODULES =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("value").definedBy(module("value"))
          .layer("graph-algorithms").definedBy(module("graph-algorithms"))
          .layer("search").definedBy(module("search"))
          .layer("calcite-adapter").definedBy(module("calcite-adapter"))
          .layer("sql-dialect").definedBy(module("sql-dialect"))
          .layer("datalog-frontend").definedBy(module("datalog-frontend"))
          .layer("planner-milp").definedBy(module("planner-milp"))
          .layer("jdbc-remote").definedBy(module("jdbc-remote"))
          .layer("jdbc-driver").definedBy(module("jdbc-driver"))
          .layer("standing").definedBy(module("standing"))
          .layer("flink-job").definedBy(module("flink-job"))
          .layer("examples").definedBy(module("examples"))
          .layer("bench").definedBy(module("bench"))
          .whereLayer("value").mayNotAccessAnyLayer()
          .whereLayer("graph-algorithms").mayOnlyAccessLayers("value")
          .whereLayer("search").mayOnlyAccessLayers("value")
          .whereLayer("calcite-adapter").mayOnlyAccessLayers("value")
          .whereLayer("sql-dialect").mayOnlyAccessLayers("calcite-adapter")
          .whereLayer("datalog-frontend")
          .mayOnlyAccessLayers("calcite-adapter", "value", "graph-algorithms", "search")
          .whereLayer("planner-milp").mayNotAccessAnyLayer()
          .whereLayer("jdbc-remote").mayNotAccessAnyLayer()
          .whereLayer("jdbc-driver")
          .mayOnlyAccessLayers(
              "calcite-adapter", "value", "sql-dialect", "datalog-frontend", "jdbc-remote")
          .whereLayer("standing")
          .mayOnlyAccessLayers("planner-milp", "sql-dialect", "calcite-adapter", "value")
          .whereLayer("flink-job")
          .mayOnlyAccessLayers("standing", "planner-milp", "calcite-adapter")
          .whereLayer("examples").mayNotAccessAnyLayer()
          .whereLayer("bench")
          .mayOnlyAccessLayers(
              "value", "graph-algorithms", "search", "calcite-adapter", "sql-dialect",
              "datalog-frontend",
              "planner-milp", "jdbc-remote", "jdbc-driver", "standing", "flink-job");

  /** CozoDB's values are plain Java: SQL, Calcite and Avatica never reach them. */
  @ArchTest
  static final ArchRule VALUE_IS_JDK_ONLY =
      classes()
          .that(module("value"))
          .should()
          .onlyDependOnClassesThat(resideInAPackage("java..").or(module("value")));

  /** The search indices are Lucene over values: no Calcite, no store. */
  @ArchTest
  static final ArchRule SEARCH_WITHOUT_CALCITE =
      noClasses()
          .that(module("search"))
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("org.apache.calcite..", "org.hsqldb..");

  /** The planner is Calcite-free: its plans run in {@code standing}. */
  @ArchTest
  static final ArchRule PLANNER_WITHOUT_CALCITE =
      noClasses()
          .that(module("planner-milp"))
          .should()
          .dependOnClassesThat()
          .resideInAPackage("org.apache.calcite..");

  /** The thin client's jar carries Avatica's client and nothing of Calcite's core. */
  @ArchTest
  static final ArchRule REMOTE_WITHOUT_CALCITE_CORE =
      noClasses()
          .that(module("jdbc-remote"))
          .should()
          .dependOnClassesThat(
              resideInAPackage("org.apache.calcite..")
                  .and(resideInAnyPackage("org.apache.calcite.avatica..").negate()));

  /** Each package is one stage: no two packages depend on each other, even indirectly. */
  @ArchTest
  static final ArchRule NO_PACKAGE_CYCLES =
      slices().matching("dev.mnestic.(**)").should().beFreeOfCycles();

  /** Where each package lives; a new package is added here with its module. */
  static final Map<String, String> PACKAGE_MODULES =
      Map.ofEntries(
          Map.entry("dev.mnestic.value", "value"),
          Map.entry("dev.mnestic.graph", "graph-algorithms"),
          Map.entry("dev.mnestic.search", "search"),
          Map.entry("dev.mnestic.search.text", "search"),
          Map.entry("dev.mnestic.search.lsh", "search"),
          Map.entry("dev.mnestic.rel", "calcite-adapter"),
          Map.entry("dev.mnestic.runtime", "calcite-adapter"),
          Map.entry("dev.mnestic.store", "calcite-adapter"),
          Map.entry("dev.mnestic.type", "calcite-adapter"),
          Map.entry("dev.mnestic.rel.rules", "sql-dialect"),
          Map.entry("dev.mnestic.sql", "sql-dialect"),
          Map.entry("dev.mnestic.sql.fun", "sql-dialect"),
          Map.entry("dev.mnestic.sql.parser.impl", "sql-dialect"),
          Map.entry("dev.mnestic.sql.validate", "sql-dialect"),
          Map.entry("dev.mnestic.sql2rel", "sql-dialect"),
          Map.entry("dev.mnestic.datalog", "datalog-frontend"),
          Map.entry("dev.mnestic.datalog.analysis", "datalog-frontend"),
          Map.entry("dev.mnestic.datalog.ast", "datalog-frontend"),
          Map.entry("dev.mnestic.datalog.eval", "datalog-frontend"),
          Map.entry("dev.mnestic.datalog.fixed", "datalog-frontend"),
          Map.entry("dev.mnestic.datalog.error", "datalog-frontend"),
          Map.entry("dev.mnestic.datalog.lower", "datalog-frontend"),
          Map.entry("dev.mnestic.datalog.parse", "datalog-frontend"),
          Map.entry("dev.mnestic.planner", "planner-milp"),
          Map.entry("dev.mnestic.planner.cost", "planner-milp"),
          Map.entry("dev.mnestic.planner.memo", "planner-milp"),
          Map.entry("dev.mnestic.planner.physical", "planner-milp"),
          Map.entry("dev.mnestic.planner.rules", "planner-milp"),
          Map.entry("dev.mnestic.planner.select", "planner-milp"),
          Map.entry("dev.mnestic.planner.view", "planner-milp"),
          Map.entry("dev.mnestic.planner.workload", "planner-milp"),
          Map.entry("dev.mnestic.planner.exec", "standing"),
          Map.entry("dev.mnestic.standing", "standing"),
          Map.entry("dev.mnestic.flink.io", "flink-job"),
          Map.entry("dev.mnestic.flink.job", "flink-job"),
          Map.entry("dev.mnestic.flink.submit", "flink-job"),
          Map.entry("dev.mnestic.remote", "jdbc-remote"),
          Map.entry("dev.mnestic.jdbc", "jdbc-driver"),
          Map.entry("dev.mnestic.server", "jdbc-driver"),
          Map.entry("dev.mnestic.cli", "jdbc-driver"),
          Map.entry("dev.mnestic.examples", "examples"),
          Map.entry("dev.mnestic.bench", "bench"));

  /** Every mnestic package is in the module {@link #PACKAGE_MODULES} gives it. */
  @ArchTest
  static final ArchRule PACKAGES_IN_THEIR_MODULES =
      classes().that().resideInAPackage("dev.mnestic..").should(liveInTheirModule());

  private static ArchCondition<JavaClass> liveInTheirModule() {
    return new ArchCondition<>("be in the module their package is assigned") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        String expected = PACKAGE_MODULES.get(c.getPackageName());
        String actual = c.getSource().flatMap(s -> Modules.of(s.getUri())).orElse("none");
        if (!actual.equals(expected)) {
          events.add(
              SimpleConditionEvent.violated(
                  c,
                  c.getName() + " is in module " + actual + "; its package belongs in "
                      + (expected == null ? "no module yet (add it to PACKAGE_MODULES)" : expected)));
        }
      }
    };
  }
}
