package dev.mnestic.graph;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * NetworkX, the oracle: runs {@code oracle.py} (beside this class) through
 * {@code bin/networkx-python}, which installs Debian's python3-networkx when it is missing (as
 * root) and fails otherwise, so a test without its oracle fails rather than skips.
 */
final class Networkx {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Networkx() {}

  /** A case for the oracle: {@code op} over {@code graph}, with more fields to add. */
  static Map<String, Object> graphCase(String op, RandomGraph graph) {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("op", op);
    c.put("directed", graph.directed);
    List<Object> edges = new ArrayList<>();
    for (Object[] e : graph.edges) {
      edges.add(List.of(e[0], e[1], e[2]));
    }
    c.put("edges", edges);
    return c;
  }

  /** NetworkX's answers to {@code cases}, in order. */
  static List<JsonNode> answer(List<Map<String, Object>> cases) {
    try {
      Path script = Path.of(Networkx.class.getResource("oracle.py").toURI());
      Path launcher = Path.of("").toAbsolutePath().getParent().resolve("bin/networkx-python");
      Process p = new ProcessBuilder(launcher.toString(), script.toString())
          .redirectError(ProcessBuilder.Redirect.INHERIT)
          .start();
      try (OutputStream in = p.getOutputStream()) {
        in.write(JSON.writeValueAsString(cases).getBytes(StandardCharsets.UTF_8));
      }
      JsonNode out = JSON.readTree(p.getInputStream());
      int status = p.waitFor();
      if (status != 0 || out == null) {
        throw new AssertionError("the NetworkX oracle failed with status " + status);
      }
      List<JsonNode> answers = new ArrayList<>();
      out.forEach(answers::add);
      return answers;
    } catch (IOException | java.net.URISyntaxException e) {
      throw new AssertionError("cannot run the NetworkX oracle", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** A JSON list of {@code [key, value]} pairs as a map from Long keys. */
  static Map<Long, JsonNode> pairs(JsonNode list) {
    Map<Long, JsonNode> map = new LinkedHashMap<>();
    for (JsonNode pair : list) {
      map.put(pair.get(0).asLong(), pair.get(1));
    }
    return map;
  }
}
