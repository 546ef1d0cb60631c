package dev.mnestic.value;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The store's JSON text of values: read back as the same value, and one text per value. */
class StoredJsonTest {
  private static final List<Object> VALUES = Values.list(
      null, true, false, 0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 0.0, -0.0, 1.0, 1e16, 1e-7,
      0.1, Double.NaN, Values.ARITHMETIC_NAN, Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY, "", "a\"b\n\u0001é😀", Values.list(), Values.list(1L, 1.0, null),
      Values.list(Values.list("x")), Bytes.of(new byte[0]), Bytes.of(new byte[] {1, (byte) 0xff}),
      UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), Json.of(1L), Json.of("s"),
      Json.parse("{\"b\":[1,2.5],\"a\":null}"), Json.parse("null"), new Validity(-5, false),
      Values.list(Bytes.of(new byte[] {2}), Json.of(Values.list()), new Validity(1, true)));

  @Test void readsBackTheSameValue() {
    for (Object v : VALUES) {
      final String text = StoredJson.encode(v);
      assertTrue(Values.equal(v, StoredJson.decode(text)), text);
      assertEquals(text, StoredJson.encode(StoredJson.decode(text)));
    }
  }

  @Test void distinctValuesHaveDistinctTexts() {
    final Set<String> texts = new HashSet<>();
    for (Object v : VALUES) {
      assertTrue(texts.add(StoredJson.encode(v)), () -> "two values share " + StoredJson.encode(v));
    }
  }

  @Test void textsAreJsonThatSqlReads() {
    assertEquals("[1,1.0,null,\"x\"]", StoredJson.encode(Values.list(1L, 1.0, null, "x")));
    assertEquals("{\"$bytes\":\"Af8=\"}", StoredJson.encode(Bytes.of(new byte[] {1, (byte) 0xff})));
    assertEquals("{\"$json\":{\"a\":null,\"b\":[1,2.5]}}",
        StoredJson.encode(Json.parse(" { \"b\" : [1, 2.5], \"a\": null } ")));
    assertEquals("{\"$float\":\"-NaN\"}", StoredJson.encode(0.0 / zero()));
    assertThrows(IllegalStateException.class, () -> StoredJson.decode("{\"$what\":1}"));
  }

  @Test void jsonParsesAsSerdeJson() {
    assertEquals("{\"a\":1e16,\"b\":0.1,\"c\":-0.0,\"d\":12}",
        Json.parse("{\"d\": 12, \"c\": -0.0, \"b\": 0.1, \"a\": 1E16}").text());
    assertEquals("\"\\u0001\u00e9\"", Json.parse("\"\\u0001\\u00e9\"").text());
    for (String bad : List.of("", "[1,]", "{a:1}", "01", "1.", "\"x", "[1] 2", "nul")) {
      assertThrows(IllegalArgumentException.class, () -> Json.parse(bad), bad);
    }
  }

  private static double zero() {
    return 0.0;
  }
}
