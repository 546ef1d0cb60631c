package dev.mnestic.value;

import java.util.Arrays;
import java.util.Base64;

/**
 * CozoDB's Bytes value: an immutable byte string. Ordered as unsigned bytes,
 * lexicographically ({@code [0, 255] < [1]}); written in query results as
 * standard Base64 with padding, as CozoDB writes them.
 */
public final class Bytes implements Comparable<Bytes> {
  private final byte[] bytes;

  private Bytes(byte[] bytes) {
    this.bytes = bytes;
  }

  /** A Bytes value holding a copy of {@code bytes}. */
  public static Bytes of(byte[] bytes) {
    return new Bytes(bytes.clone());
  }

  /**
   * Decodes standard Base64 as CozoDB does (Rust's {@code base64::STANDARD}):
   * padding required and canonical, no unused bits set, no other characters.
   *
   * @return the bytes, or null if {@code text} is not such Base64
   */
  public static Bytes fromBase64(String text) {
    if (text.length() % 4 != 0) {
      return null;
    }
    final byte[] decoded;
    try {
      decoded = Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
    final Bytes b = new Bytes(decoded);
    // Java accepts unused bits that are set ("AR=="); the canonical text has none.
    return b.base64().equals(text) ? b : null;
  }

  /** The bytes, copied. */
  public byte[] toByteArray() {
    return bytes.clone();
  }

  public int length() {
    return bytes.length;
  }

  /** Byte {@code i} as an unsigned number, 0 to 255. */
  public int get(int i) {
    return bytes[i] & 0xff;
  }

  /** Standard Base64 with padding. */
  public String base64() {
    return Base64.getEncoder().encodeToString(bytes);
  }

  /** Whether these bytes begin with {@code prefix}. */
  public boolean startsWith(Bytes prefix) {
    return prefix.bytes.length <= bytes.length
        && Arrays.equals(bytes, 0, prefix.bytes.length, prefix.bytes, 0, prefix.bytes.length);
  }

  /** Whether these bytes end with {@code suffix}. */
  public boolean endsWith(Bytes suffix) {
    final int from = bytes.length - suffix.bytes.length;
    return from >= 0
        && Arrays.equals(bytes, from, bytes.length, suffix.bytes, 0, suffix.bytes.length);
  }

  @Override public int compareTo(Bytes o) {
    return Arrays.compareUnsigned(bytes, o.bytes);
  }

  @Override public boolean equals(Object o) {
    return o instanceof Bytes && Arrays.equals(bytes, ((Bytes) o).bytes);
  }

  @Override public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** The Base64 text, as a query result shows the value. */
  @Override public String toString() {
    return base64();
  }
}
