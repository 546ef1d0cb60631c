package dev.mnestic.datalog;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.Map;

/** Tests whose scripts share one private in-memory store, opened once per class. */
abstract class OneStoreTest {
  static QueryConformanceTest.Store store;

  @BeforeAll static void openStore() throws Exception {
    store = new QueryConformanceTest.Store();
  }

  @AfterAll static void closeStore() throws Exception {
    store.close();
  }

  /** Runs a script, without parameters, on the store's engine. */
  static Engine.Result run(String script) throws Exception {
    return store.engine().run(script, Map.of());
  }
}
