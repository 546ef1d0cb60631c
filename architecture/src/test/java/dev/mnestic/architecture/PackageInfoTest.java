package dev.mnestic.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every package of every module's main code has a {@code package-info.java} saying which
 * stage it is (javac writes no class file for one holding only Javadoc, so the sources are
 * read). mnestic's classes in Calcite's and Avatica's packages ({@code org.apache.calcite})
 * have none: one there would shadow the library's own.
 */
class PackageInfoTest {
  @Test
  void everyPackageSaysWhatItIs() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    assertTrue(Files.isRegularFile(root.resolve("pom.xml")), "no project root at " + root);
    List<Path> sourceRoots;
    try (Stream<Path> modules = Files.list(root)) {
      sourceRoots =
          modules
              .map(m -> m.resolve("src/main/java/dev/mnestic"))
              .filter(Files::isDirectory)
              .collect(Collectors.toList());
    }
    assertTrue(sourceRoots.size() >= 8, "too few modules found under " + root + ": " + sourceRoots);
    List<Path> missing;
    try (Stream<Path> dirs = sourceRoots.stream().flatMap(PackageInfoTest::walk)) {
      missing =
          dirs.filter(Files::isDirectory)
              .filter(d -> hasJava(d) && !Files.isRegularFile(d.resolve("package-info.java")))
              .map(root::relativize)
              .collect(Collectors.toList());
    }
    assertEquals(List.of(), missing, "packages without a package-info.java");
  }

  private static Stream<Path> walk(Path dir) {
    try {
      return Files.walk(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean hasJava(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.anyMatch(f -> f.toString().endsWith(".java"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
