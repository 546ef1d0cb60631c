package dev.mnestic.search.lsh;

/** XXH32 (Yann Collet's xxHash, 32 bits) of a byte array under a seed, as twox-hash gives it. */
final class XxHash32 {
  private static final int P1 = 0x9E3779B1;
  private static final int P2 = 0x85EBCA77;
  private static final int P3 = 0xC2B2AE3D;
  private static final int P4 = 0x27D4EB2F;
  private static final int P5 = 0x165667B1;

  private XxHash32() {}

  static int hash(byte[] data, int seed) {
    int len = data.length;
    int i = 0;
    int h;
    if (len >= 16) {
      int v1 = seed + P1 + P2;
      int v2 = seed + P2;
      int v3 = seed;
      int v4 = seed - P1;
      for (; i + 16 <= len; i += 16) {
        v1 = round(v1, intLe(data, i));
        v2 = round(v2, intLe(data, i + 4));
        v3 = round(v3, intLe(data, i + 8));
        v4 = round(v4, intLe(data, i + 12));
      }
      h =
          Integer.rotateLeft(v1, 1)
              + Integer.rotateLeft(v2, 7)
              + Integer.rotateLeft(v3, 12)
              + Integer.rotateLeft(v4, 18);
    } else {
      h = seed + P5;
    }
    h += len;
    for (; i + 4 <= len; i += 4) {
      h = Integer.rotateLeft(h + intLe(data, i) * P3, 17) * P4;
    }
    for (; i < len; i++) {
      h = Integer.rotateLeft(h + (data[i] & 0xFF) * P5, 11) * P1;
    }
    h ^= h >>> 15;
    h *= P2;
    h ^= h >>> 13;
    h *= P3;
    h ^= h >>> 16;
    return h;
  }

  private static int round(int acc, int input) {
    return Integer.rotateLeft(acc + input * P2, 13) * P1;
  }

  private static int intLe(byte[] b, int i) {
    return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
  }
}
