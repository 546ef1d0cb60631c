package dev.mnestic.examples;

import dev.mnestic.cli.Main;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The agent-memory example (issue 4): {@code agent-memory/dataset.cozo} loads
 * the skyline-aggregates spec's memory graph into a store, and every other
 * script there, run as {@code mnestic run --db STORE SCRIPT} (the command
 * line's own code, in-process), prints the spec's table for it, copied
 * verbatim into {@code src/test/resources/agent-memory/SCRIPT.txt}; a script
 * that fails prints the spec's error, {@code SCRIPT.err}, on standard error.
 * The spec writes a blank line inside a block as one space, so lines of
 * spaces compare as empty.
 */
class AgentMemoryExampleTest {
  private static final Path EXAMPLE = Path.of("agent-memory");

  @TempDir static Path dir;
  private static String store;

  @BeforeAll static void loadDataset() throws IOException {
    store = dir.resolve("store").toString();
    final Run load = run(EXAMPLE.resolve("dataset.cozo"));
    assertEquals(0, load.status, load.err);
  }

  @TestFactory List<DynamicTest> everyScriptPrintsTheSpecsTable() throws IOException {
    final List<Path> scripts;
    try (Stream<Path> files = Files.list(EXAMPLE)) {
      scripts = files.filter(f -> f.toString().endsWith(".cozo"))
          .filter(f -> !f.getFileName().toString().equals("dataset.cozo")).sorted().toList();
    }
    assertEquals(6, scripts.size(), scripts.toString());
    final List<DynamicTest> tests = new ArrayList<>();
    for (Path script : scripts) {
      final String name = script.getFileName().toString().replace(".cozo", "");
      tests.add(DynamicTest.dynamicTest(name, () -> {
        final Run run = run(script);
        final String table = expected(name + ".txt");
        if (table != null) {
          assertEquals(new Run(0, table, ""), run);
        } else {
          final String error = expected(name + ".err");
          assertNotNull(error, "no expected output for " + name);
          assertEquals(new Run(1, "", error), run);
        }
      }));
    }
    return tests;
  }

  private static String expected(String resource) throws IOException {
    try (InputStream in = AgentMemoryExampleTest.class.getResourceAsStream("/agent-memory/"
        + resource)) {
      return in == null ? null
          : blankLinesEmpty(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  private static String blankLinesEmpty(String text) {
    return text.replaceAll("(?m)^ +$", "");
  }

  /** What {@code mnestic run} gave: exit status, standard output, standard error. */
  record Run(int status, String out, String err) {
  }

  private static Run run(Path script) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final int status;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
         PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = Main.run(new String[] {"run", "--db", store, script.toString()}, System.in, o, e);
    }
    return new Run(status, out.toString(StandardCharsets.UTF_8),
        blankLinesEmpty(err.toString(StandardCharsets.UTF_8)));
  }
}
