package dev.mnestic.datalog;

import dev.mnestic.datalog.conformance.Oracle;
import dev.mnestic.datalog.conformance.RawJson;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreLocation;

import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Whole queries against CozoDB: each case of every file in
 * {@code conformance/queries/} (one file per area) runs through {@link Engine}
 * (parse, stratify, lower to Calcite, run) and must give CozoDB's headers
 * and exactly CozoDB's rows, or fail with CozoDB's error code.
 */
class QueryConformanceTest {
  private static final String FOLDER = "/conformance/queries";

  @TestFactory List<DynamicContainer> matchesCozoDb() {
    final List<DynamicContainer> files = new ArrayList<>();
    for (String file : Oracle.files(FOLDER)) {
      final List<DynamicTest> tests = new ArrayList<>();
      for (RawJson.Node c : Oracle.cases(file)) {
        tests.add(DynamicTest.dynamicTest(c.get("name").string(), () -> check(c)));
      }
      files.add(DynamicContainer.dynamicContainer(file, tests));
    }
    return files;
  }

  /** Each case on a store of its own, as the oracle runs each in a fresh database. */
  private static void check(RawJson.Node c) throws SQLException {
    final Properties info = new Properties();
    info.setProperty("caseSensitive", "false");
    try (Connection connection = DriverManager.getConnection("jdbc:calcite:", info);
         Session session = Session.open(StoreLocation.privateMemory())) {
      session.attachTo(connection.unwrap(CalciteConnection.class).getRootSchema());
      final Engine engine = new Engine(connection);
      if (c.has("setup")) {
        for (RawJson.Node setup : c.get("setup").items()) {
          engine.run(setup.string(), Oracle.params(c));
        }
      }
      check(c, engine);
    }
  }

  private static void check(RawJson.Node c, Engine engine) throws SQLException {
    final String script = c.get("script").string();
    final RawJson.Node expected = c.get("expected");
    if (expected.get("ok").value() == Boolean.TRUE) {
      final Engine.Result result = engine.run(script, Oracle.params(c));
      assertEquals("{\"headers\":" + expected.get("headers").text() + ",\"rows\":"
          + expected.get("rows").text() + "}", result.toJson(), script);
      return;
    }
    final DatalogException e = assertThrows(DatalogException.class,
        () -> engine.run(script, Oracle.params(c)), script);
    assertEquals(expected.get("code").string(), e.code(), script);
  }

  @TestFactory List<DynamicTest> expectationsAreStillCozoDbs() {
    final List<DynamicTest> tests = new ArrayList<>();
    for (String file : Oracle.files(FOLDER)) {
      tests.add(DynamicTest.dynamicTest(file, () -> Oracle.assertStillCozoDbs(file)));
    }
    return tests;
  }
}
