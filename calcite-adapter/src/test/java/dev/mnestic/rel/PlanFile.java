package dev.mnestic.rel;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Expected plans of a test class, in an XML file beside it (as Calcite's
 * DiffRepository keeps them): {@code <TestCase name="..."><Resource
 * name="planBefore">...</Resource>...</TestCase>}. Every plan a run checks
 * is also written, in the same form, to {@code target/plans/NAME.xml};
 * after an intended change, copy that file over the expected one. Used by
 * the plan tests of other modules too (this module's test jar).
 */
public final class PlanFile {
  private final String name;
  private final Map<String, Map<String, String>> expected = new LinkedHashMap<>();
  private final Map<String, Map<String, String>> actual = new TreeMap<>();

  public PlanFile(Class<?> testClass) throws Exception {
    name = testClass.getSimpleName();
    try (InputStream in = testClass.getResourceAsStream(name + ".xml")) {
      if (in == null) {
        return;
      }
      final Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
      final NodeList cases = doc.getElementsByTagName("TestCase");
      for (int i = 0; i < cases.getLength(); i++) {
        final Element c = (Element) cases.item(i);
        final Map<String, String> resources = new LinkedHashMap<>();
        final NodeList rs = c.getElementsByTagName("Resource");
        for (int j = 0; j < rs.getLength(); j++) {
          final Element r = (Element) rs.item(j);
          resources.put(r.getAttribute("name"), r.getTextContent().strip());
        }
        expected.put(c.getAttribute("name"), resources);
      }
    }
  }

  /** Records {@code plan} as resource {@code resource} of test case {@code testCase}. */
  public synchronized void record(String testCase, String resource, String plan) throws Exception {
    actual.computeIfAbsent(testCase, t -> new LinkedHashMap<>()).put(resource, plan.strip());
    write();
  }

  /** Checks the plans recorded for {@code testCase} against the expected ones. */
  public synchronized void check(String testCase) {
    final Map<String, String> plans = actual.getOrDefault(testCase, Map.of());
    plans.forEach((resource, plan) -> assertEquals(
        expected.getOrDefault(testCase, Map.of()).get(resource), plan,
        testCase + " " + resource + " (actual plans: target/plans/" + name + ".xml)"));
  }

  private void write() throws Exception {
    final StringBuilder b = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<!-- Expected plans of " + name + "; see PlanFile. -->\n<Root>\n");
    actual.forEach((testCase, resources) -> {
      b.append("  <TestCase name=\"").append(testCase).append("\">\n");
      resources.forEach((resource, plan) -> b.append("    <Resource name=\"").append(resource)
          .append("\">\n      <![CDATA[\n").append(plan).append("\n]]>\n    </Resource>\n"));
      b.append("  </TestCase>\n");
    });
    b.append("</Root>\n");
    final Path out = Path.of("target", "plans", name + ".xml");
    Files.createDirectories(out.getParent());
    Files.writeString(out, b);
  }
}
