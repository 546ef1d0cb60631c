package dev.mnestic.value;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Traditional to simplified Chinese, as CozoDB's {@code t2s} does it: the {@code fast2s} crate
 * 0.3.1's {@code convert}. Each character of three UTF-8 bytes (U+0800 to U+FFFF) is looked up
 * in the crate's table ({@code t2s.txt}, its {@code src/t2s.txt}, shipped with its licence),
 * except where the crate's special cases, which look at the characters before and after it in
 * the original text, keep it ({@code 慰藉}) or map it otherwise ({@code 計畫} to {@code 计划});
 * every other character stays.
 */
final class T2s {
  /** The crate's table: a traditional character to its simplified one. */
  private static final Map<Character, Character> TABLE = read();

  /** Characters the crate keeps as they are next to these neighbours (its T2S_EXCLUDE). */
  private static final Map<Character, String[]> EXCLUDE = Map.of(
      '兒', new String[] {"兒寬"},
      '覆', new String[] {"答覆", "批覆", "回覆"},
      '夥', new String[] {"甚夥"},
      '藉', new String[] {"慰藉", "狼藉"},
      '瞭', new String[] {"瞭望"},
      '麽', new String[] {"幺麽"},
      '幺', new String[] {"幺麽"},
      '於', new String[] {"樊於"},
      '乾', new String[] {"乾隆", "乾坤", "乾卦"});

  /**
   * Characters the crate maps otherwise next to these neighbours (its
   * T2S_SPECIAL_CONVERT_TYPE), each pair followed by what it maps to. The crate consults it only
   * for a character that {@link #EXCLUDE} does not name, so its entry for {@code 藉} is never
   * used; it is left out.
   */
  private static final Map<Character, String[]> SPECIAL = Map.of(
      '著', new String[] {"看著着"},
      '苧', new String[] {"苧麻苎"},
      '闔', new String[] {"闔家合"},
      '鍾', new String[] {"鍾書锺"},
      '讎', new String[] {"校讎雠", "讎定雠", "仇讎雠"},
      '畫', new String[] {"計畫划", "企畫划"});

  private T2s() {
  }

  /** {@code s} with its traditional characters simplified. */
  static String convert(String s) {
    final int[] cps = s.codePoints().toArray();
    final StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < cps.length; i++) {
      final int cur = cps[i];
      if (cur < 0x800 || cur > 0xFFFF) {
        b.appendCodePoint(cur);
        continue;
      }
      // the crate's neighbour of the first and the last character is '0'
      final int prev = i > 0 ? cps[i - 1] : '0';
      final int next = i + 1 < cps.length ? cps[i + 1] : '0';
      b.appendCodePoint(convert(prev, (char) cur, next));
    }
    return b.toString();
  }

  /** The crate's {@code special_convert}. */
  private static int convert(int prev, char cur, int next) {
    final String before = new StringBuilder().appendCodePoint(prev).append(cur).toString();
    final String after = new StringBuilder().append(cur).appendCodePoint(next).toString();
    final String[] kept = EXCLUDE.get(cur);
    if (kept != null) {
      for (String word : kept) {
        if (word.equals(before) || word.equals(after)) {
          return cur;
        }
      }
    } else {
      final String[] special = SPECIAL.get(cur);
      if (special != null) {
        // the crate looks for the word with the character before first
        for (String pair : new String[] {before, after}) {
          for (String entry : special) {
            if (entry.startsWith(pair)) {
              return entry.charAt(2);
            }
          }
        }
      }
    }
    return TABLE.getOrDefault(cur, cur);
  }

  private static Map<Character, Character> read() {
    final Map<Character, Character> table = new HashMap<>();
    try (InputStream in = Objects.requireNonNull(T2s.class.getResourceAsStream("t2s.txt"),
        "t2s.txt");
        BufferedReader r = new BufferedReader(new InputStreamReader(in,
            StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        // "繁 繁": one character, a space, one character
        table.put(line.charAt(0), line.charAt(2));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return table;
  }
}
