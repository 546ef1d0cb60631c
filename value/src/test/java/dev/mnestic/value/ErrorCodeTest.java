package dev.mnestic.value;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ErrorCode} is the one catalog of scripts' error codes (issue 15). */
class ErrorCodeTest {
  private static final Pattern CODE = Pattern.compile("[a-z_]+(?:::[a-z_0-9]+)+");
  private static final Pattern LITERAL = Pattern.compile("\"" + CODE.pattern() + "\"");

  @Test void eachCodeIsSpelledOnceAsCozoDbSpellsCodes() {
    final Set<String> codes = new HashSet<>();
    for (ErrorCode c : ErrorCode.values()) {
      assertTrue(CODE.matcher(c.code()).matches(), c.code());
      assertTrue(codes.add(c.code()), "twice: " + c.code());
      assertEquals(c.name(), c.code().toUpperCase().replace("::", "_"), "named after its code");
      assertFalse(c.meaning().isBlank(), c.code());
    }
  }

  /** No main source of the project spells a code but the catalog. */
  @Test void noCodeIsWrittenOutsideTheCatalog() throws IOException {
    final Path root = Path.of("..").toAbsolutePath().normalize();
    final List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : (Iterable<Path>) files
          .filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/")
              && !p.endsWith(Path.of("dev/mnestic/value/ErrorCode.java")))::iterator) {
        final List<String> lines = Files.readAllLines(f);
        for (int i = 0; i < lines.size(); i++) {
          if (LITERAL.matcher(lines.get(i)).find()) {
            found.add(root.relativize(f) + ":" + (i + 1));
          }
        }
      }
    }
    assertEquals(List.of(), found);
  }
}
