package dev.mnestic.search.lsh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The bands and rows chosen against those CozoDB 0.7.6 chose ({@code lsh-params.json}, its
 * {@code ::indices} after {@code ::lsh create}, recorded by {@code search/src/test/cozo/
 * record.py}), and the quadrature against integrals known in closed form.
 */
class LshParamsTest {
  @TestFactory
  Stream<DynamicTest> sameBandsAndRowsAsCozo() throws IOException {
    JsonNode cases;
    try (InputStream in = getClass().getResourceAsStream("/dev/mnestic/search/lsh-params.json")) {
      cases = new ObjectMapper().readTree(in);
    }
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : cases) {
      int nPerm = c.get("n_perm").asInt();
      double threshold = c.get("threshold").asDouble();
      double fpw = c.get("false_positive_weight").asDouble();
      double fnw = c.get("false_negative_weight").asDouble();
      tests.add(
          DynamicTest.dynamicTest(
              "n_perm " + nPerm + " threshold " + threshold + " weights " + fpw + "/" + fnw,
              () ->
                  assertEquals(
                      new LshParams(c.get("n_bands").asInt(), c.get("n_rows_in_band").asInt()),
                      LshParams.optimal(threshold, nPerm, fpw, fnw))));
    }
    return tests.stream();
  }

  @Test
  void quadratureMatchesClosedForms() {
    // x^2 over [0, 1] is 1/3; sin over [0, pi] is 2; 1 - (1 - s^2)^3 over [0, 0.5]
    assertEquals(1.0 / 3, LshParams.integrate(x -> x * x, 0, 1, 1e-12), 1e-12);
    assertEquals(2.0, LshParams.integrate(Math::sin, 0, Math.PI, 1e-12), 1e-12);
    double exact = 0.5 - (0.5 - 3 * Math.pow(0.5, 3) / 3 + 3 * Math.pow(0.5, 5) / 5
        - Math.pow(0.5, 7) / 7);
    assertEquals(
        exact,
        LshParams.integrate(s -> 1 - Math.pow(1 - s * s, 3), 0, 0.5, 1e-12),
        1e-12);
  }

  @Test
  void powiIsRepeatedMultiplication() {
    for (int n = 0; n < 40; n++) {
      double expected = 1.0;
      for (int i = 0; i < n; i++) {
        expected *= 0.7;
      }
      assertEquals(Math.pow(0.7, n), LshParams.powi(0.7, n), 1e-15 * Math.max(1, expected));
    }
  }
}
