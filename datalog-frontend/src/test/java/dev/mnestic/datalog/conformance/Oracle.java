package dev.mnestic.datalog.conformance;



import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recorded answers of CozoDB (the conformance files under
 * {@code src/test/resources/conformance/}, made by {@code generate.sh}
 * there) and CozoDB itself, run live through {@code src/test/cozo}.
 */
public final class Oracle {
  private static final Path COZO = Path.of("src/test/cozo");

  private Oracle() {
  }

  /** The conformance files ({@code *.json}) of a class-path folder, as resource names, sorted. */
  public static List<String> files(String folder) {
    try (var names = Files.list(Path.of(Oracle.class.getResource(folder).toURI()))) {
      return names.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted()
          .map(n -> folder + "/" + n).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The cases of a conformance file (a class-path resource). */
  public static List<RawJson.Node> cases(String resource) {
    try (InputStream in = Oracle.class.getResourceAsStream(resource)) {
      return RawJson.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)).items();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The file of a setup step {@code {"import": path}}: relative paths are
   * relative to the oracle's folder, as {@code cozo-run.mjs} resolves them
   * when {@code generate.sh} runs it.
   */
  public static Path importFile(String path) {
    return COZO.resolve(path);
  }

  /** A case's parameters as mnestic values. */
  public static Map<String, Object> params(RawJson.Node c) {
    final Map<String, Object> params = new HashMap<>();
    if (c.has("params")) {
      final RawJson.Node p = RawJson.parse(c.get("params").string());
      @SuppressWarnings("unchecked")
      final Map<String, RawJson.Node> m = (Map<String, RawJson.Node>) p.value();
      m.forEach((k, v) -> params.put(k, v.toValue()));
    }
    return params;
  }

  /**
   * Runs every case through CozoDB again ({@code node cozo-run.mjs --batch}),
   * each on a fresh database, and checks that the recorded expectations are
   * still CozoDB's answers. Fails (never skips) without {@code node}, or when
   * the oracle is not installed and {@code npm ci} cannot install it: CI
   * re-checks every recorded expectation.
   */
  public static void assertStillCozoDbs(String resource) {
    assertStillCozoDbs(resource, false);
  }

  /**
   * As {@link #assertStillCozoDbs(String)}; with {@code sharedDb} all cases
   * run in order on one database ({@code --shared-db}, the files that
   * {@code generate.sh --shared-db} records).
   */
  public static void assertStillCozoDbs(String resource, boolean sharedDb) {
    assertTrue(run(List.of("node", "--version"), null, 30) != null, "node is not on PATH");
    if (!Files.isDirectory(COZO.resolve("node_modules/cozo-lib-wasm"))) {
      assertTrue(run(List.of("npm", "ci", "--no-audit", "--no-fund"), null, 300) != null,
          "the CozoDB oracle is not installed and `npm ci` in " + COZO + " failed");
    }
    final List<RawJson.Node> cases = cases(resource);
    final StringBuilder input = new StringBuilder("[");
    for (RawJson.Node c : cases) {
      input.append(input.length() > 1 ? "," : "").append("{\"name\":").append(c.get("name").text())
          .append(",\"script\":").append(c.get("script").text());
      if (c.has("params")) {
        input.append(",\"params\":").append(c.get("params").text());
      }
      if (c.has("setup")) {
        input.append(",\"setup\":").append(c.get("setup").text());
      }
      input.append('}');
    }
    final List<String> command = new ArrayList<>(List.of("node", "cozo-run.mjs", "--batch"));
    if (sharedDb) {
      command.add("--shared-db");
    }
    final String out = run(command, input.append(']').toString(), 300);
    assertTrue(out != null, "cozo-run.mjs failed");
    final List<String> lines = new ArrayList<>();
    for (String line : out.split("\n")) {
      if (line.startsWith("{")) {
        lines.add(line.endsWith(",") ? line.substring(0, line.length() - 1) : line);
      }
    }
    assertEquals(cases.size(), lines.size());
    final List<String> changed = new ArrayList<>();
    for (int k = 0; k < cases.size(); k++) {
      final RawJson.Node c = cases.get(k);
      final String prefix = "{\"name\":" + c.get("name").text() + ",";
      assertTrue(lines.get(k).startsWith(prefix), lines.get(k));
      // generate.sh's transformation: CozoDB's object without the name and the rendered "display"
      final String actual = ("{" + lines.get(k).substring(prefix.length()))
          .replaceFirst(",\"display\":\"(?:[^\"\\\\]|\\\\.)*\"", "");
      if (!c.get("expected").text().equals(actual)) {
        changed.add(c.get("name").string() + ": recorded " + c.get("expected").text()
            + "\n    CozoDB now " + actual);
      }
    }
    assertTrue(changed.isEmpty(), "run conformance/generate.sh on " + resource + "? CozoDB's answers differ:\n  "
        + String.join("\n  ", changed));
  }

  /** Runs a command in the oracle's folder; its stdout, or null if it could not run or failed. */
  private static String run(List<String> command, String stdin, int timeoutSeconds) {
    try {
      final Process p = new ProcessBuilder(command).directory(COZO.toFile())
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      final CompletableFuture<byte[]> stdout = CompletableFuture.supplyAsync(() -> {
        try (InputStream in = p.getInputStream()) {
          return in.readAllBytes();
        } catch (IOException e) {
          return new byte[0];
        }
      });
      try (OutputStream os = p.getOutputStream()) {
        if (stdin != null) {
          os.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
      }
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return null;
      }
      return p.exitValue() == 0 ? new String(stdout.get(), StandardCharsets.UTF_8) : null;
    } catch (IOException | InterruptedException | ExecutionException e) {
      return null;
    }
  }
}
