package dev.mnestic.flink.io;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The records' JSON: read back as written, and a record that is not one named. */
class SampleJsonTest {
  @Test void samplesAndAnswersReadBackAsWritten() {
    final Sample s = new Sample(1_764_720_000_123L, "latency", "{\"instance\":\"host1\"}", 12.5);
    assertEquals(s, SampleJson.parse(SampleJson.format(s)));
    assertEquals(new Sample(7, "up", "{}", 1.0),
        SampleJson.parse("{\"ts\": 7, \"metric\": \"up\", \"val\": 1}"));
    final Answer a = new Answer("q1", 1_764_720_060_000L, 0.25);
    assertEquals(a, SampleJson.parseAnswer(SampleJson.format(a)));
  }

  @Test void aRecordThatIsNotASampleIsNamed() {
    assertMessage("a sample is not JSON at line 1, column", "{\"ts\": 7,");
    assertMessage("a sample is a JSON object", "[1, 2]");
    assertMessage("a sample needs \"ts\", epoch milliseconds", "{\"metric\": \"up\", \"val\": 1}");
    assertMessage("a sample needs \"ts\", epoch milliseconds",
        "{\"ts\": 1.5, \"metric\": \"up\", \"val\": 1}");
    assertMessage("a sample needs \"metric\", a string", "{\"ts\": 7, \"val\": 1}");
    assertMessage("a sample needs \"val\", a number", "{\"ts\": 7, \"metric\": \"up\", \"val\": \"x\"}");
    assertMessage("a sample's \"labels\" is an object",
        "{\"ts\": 7, \"metric\": \"up\", \"labels\": [], \"val\": 1}");
  }

  private static void assertMessage(String expected, String text) {
    final IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SampleJson.parse(text));
    assertTrue(e.getMessage().startsWith(expected), e.getMessage());
  }
}
