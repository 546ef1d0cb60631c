package dev.mnestic.datalog;

import dev.mnestic.datalog.conformance.Oracle;
import dev.mnestic.datalog.conformance.RawJson;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreLocation;

import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Whole queries against CozoDB: each case of every file in
 * {@code conformance/queries/} (one file per area) runs through {@link Engine}
 * (parse, stratify, lower to Calcite, run) and must give CozoDB's headers
 * and exactly CozoDB's rows (and the results CozoDB chains after them), or fail with CozoDB's
 * error code (with CozoDB's
 * message where CozoDB gives no code).
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

  /**
   * Each case on a store of its own, as the oracle runs each in a fresh database. A case
   * marked {@code "pending"} (with the reason) must still differ from CozoDB, in its setup or
   * its script: it is reported as skipped, and fails once it matches, so that the mark is
   * removed.
   */
  static void check(RawJson.Node c) throws Exception {
    try (Store store = new Store()) {
      if (!c.has("pending")) {
        setUp(c, store.engine());
        check(c, store.engine());
        return;
      }
      try {
        setUp(c, store.engine());
        check(c, store.engine());
      } catch (AssertionError | Exception e) {
        Assumptions.abort("pending: " + c.get("pending").string() + " ("
            + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + ")");
      }
      fail("matches CozoDB now: remove its \"pending\" mark");
    }
  }

  /** An {@link Engine} on a private in-memory store of its own; closing it drops the store. */
  static final class Store implements AutoCloseable {
    private final Connection connection;
    private final Session session;
    private final Engine engine;

    Store() throws SQLException {
      this(StoreLocation.privateMemory());
    }

    /** An {@link Engine} on the store {@code location}. */
    Store(StoreLocation location) throws SQLException {
      final Properties info = new Properties();
      info.setProperty("caseSensitive", "false");
      connection = DriverManager.getConnection("jdbc:calcite:", info);
      session = Session.open(location);
      session.attachTo(connection.unwrap(CalciteConnection.class).getRootSchema());
      engine = new Engine(connection);
    }

    Engine engine() {
      return engine;
    }

    Connection connection() {
      return connection;
    }

    Session session() {
      return session;
    }

    @Override public void close() throws SQLException {
      try (connection; session) {
        // both closed, the session (the store) last
      }
    }
  }

  /**
   * Runs a case's setup steps in order: scripts, and {@code {"import": path}}
   * steps that load a relation-JSON file as CozoDB's import_relations does
   * (see {@link Oracle#importFile}).
   */
  static void setUp(RawJson.Node c, Engine engine) throws Exception {
    if (!c.has("setup")) {
      return;
    }
    for (RawJson.Node setup : c.get("setup").items()) {
      if (setup.value() instanceof String script) {
        engine.run(script, Oracle.params(c));
      } else {
        engine.importRelations(Files.readString(Oracle.importFile(setup.get("import").string())));
      }
    }
  }

  /** Runs a case's script: CozoDB's headers and exactly its rows, or its error code. */
  static void check(RawJson.Node c, Engine engine) throws SQLException {
    final String script = c.get("script").string();
    final RawJson.Node expected = c.get("expected");
    if (expected.get("ok").value() == Boolean.TRUE) {
      final Engine.Result result = engine.run(script, Oracle.params(c));
      assertEquals(rows(expected), result.toJson(), script);
      return;
    }
    final DatalogException e = assertThrows(DatalogException.class,
        () -> engine.run(script, Oracle.params(c)), script);
    if (expected.has("code")) {
      assertEquals(expected.get("code").string(), e.code(), script);
    } else {
      // CozoDB gives some errors (an aggregation's) only a message.
      assertNull(e.code(), script);
      assertEquals(expected.get("message").string(), e.getMessage(), script);
    }
  }

  /** CozoDB's result as {@link Engine.Result#toJson}: headers, rows and the results after. */
  private static String rows(RawJson.Node expected) {
    final RawJson.Node next = expected.get("next");
    return "{\"headers\":" + expected.get("headers").text() + ",\"rows\":"
        + expected.get("rows").text()
        + (next.value() == null ? "" : ",\"next\":" + rows(next)) + "}";
  }

  @TestFactory List<DynamicTest> expectationsAreStillCozoDbs() {
    final List<DynamicTest> tests = new ArrayList<>();
    for (String file : Oracle.files(FOLDER)) {
      tests.add(DynamicTest.dynamicTest(file, () -> Oracle.assertStillCozoDbs(file)));
    }
    return tests;
  }
}
