package dev.mnestic.flink.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The records' JSON: a sample is {@code {"ts": 1764720000000, "metric": "latency",
 * "labels": {"job": "api"}, "val": 12.5}} (labels optional, an object of strings), an answer
 * {@code {"query": "A", "end": 1764720060000, "value": 12.5}}.
 */
public final class SampleJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private SampleJson() {
  }

  /**
   * The sample {@code text} holds.
   *
   * @throws IllegalArgumentException naming the field missing or of the wrong type, or where
   *     the JSON is malformed
   */
  public static Sample parse(String text) {
    final JsonNode node;
    try {
      node = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("a sample is not JSON at line "
          + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ": "
          + e.getOriginalMessage());
    }
    if (!(node instanceof ObjectNode)) {
      throw new IllegalArgumentException("a sample is a JSON object, not: " + text);
    }
    final JsonNode ts = node.get("ts");
    final JsonNode metric = node.get("metric");
    final JsonNode val = node.get("val");
    final JsonNode labels = node.get("labels");
    if (ts == null || !ts.canConvertToLong() || !ts.isIntegralNumber()) {
      throw new IllegalArgumentException("a sample needs \"ts\", epoch milliseconds: " + text);
    }
    if (metric == null || !metric.isTextual()) {
      throw new IllegalArgumentException("a sample needs \"metric\", a string: " + text);
    }
    if (val == null || !val.isNumber()) {
      throw new IllegalArgumentException("a sample needs \"val\", a number: " + text);
    }
    if (labels != null && !labels.isObject()) {
      throw new IllegalArgumentException("a sample's \"labels\" is an object: " + text);
    }
    return new Sample(ts.longValue(), metric.textValue(),
        labels == null ? "{}" : labels.toString(), val.doubleValue());
  }

  /** The JSON of {@code sample}. */
  public static String format(Sample sample) {
    final ObjectNode node = JSON.createObjectNode();
    node.put("ts", sample.ts);
    node.put("metric", sample.metric);
    try {
      node.set("labels", JSON.readTree(sample.labels == null ? "{}" : sample.labels));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("labels are not a JSON object: " + sample.labels, e);
    }
    node.put("val", sample.val);
    return node.toString();
  }

  /** The JSON of {@code answer}. */
  public static String format(Answer answer) {
    final ObjectNode node = JSON.createObjectNode();
    node.put("query", answer.query);
    node.put("end", answer.end);
    node.put("value", answer.value);
    return node.toString();
  }

  /** The answer {@code text} holds ({@link #format(Answer)}'s JSON). */
  public static Answer parseAnswer(String text) {
    final JsonNode node;
    try {
      node = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("an answer is not JSON: " + text, e);
    }
    if (!node.path("query").isTextual() || !node.path("end").isIntegralNumber()
        || !node.path("value").isNumber()) {
      throw new IllegalArgumentException(
          "an answer has \"query\", \"end\" and \"value\": " + text);
    }
    return new Answer(node.get("query").textValue(), node.get("end").longValue(),
        node.get("value").doubleValue());
  }
}
