package dev.mnestic.datalog.fixed;

import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.ValueException;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;

/**
 * Which files the readers ({@code CsvReader}, {@code JsonReader}) may read where a script runs:
 * every file the JVM's user can read ({@link #ANY}, an embedded engine's default), none
 * ({@link #NONE}, a server's default), or only those under one directory ({@link #under}),
 * judged after {@code ..} and symbolic links are resolved. Only local files: a
 * {@code file://} URL or a path; an {@code http(s)://} URL (or any other) is never read.
 */
public final class ReadPolicy {
  /** Every file the JVM's user can read. */
  public static final ReadPolicy ANY = new ReadPolicy(null, true);
  /** No file: reading fails, naming how to allow it. */
  public static final ReadPolicy NONE = new ReadPolicy(null, false);

  /** The directory files must be under (its real path), or null. */
  private final Path root;
  private final boolean any;

  private ReadPolicy(Path root, boolean any) {
    this.root = root;
    this.any = any;
  }

  /**
   * Only files under {@code directory} (which must exist), judged by real paths.
   *
   * @throws IllegalArgumentException if {@code directory} is no directory
   */
  public static ReadPolicy under(Path directory) {
    try {
      final Path real = directory.toRealPath();
      if (!Files.isDirectory(real)) {
        throw new IllegalArgumentException("not a directory: " + directory);
      }
      return new ReadPolicy(real, false);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read directory " + directory + ": " + e, e);
    }
  }

  /**
   * The policy a connection property or a server flag names: {@code none}, or a directory.
   *
   * @throws IllegalArgumentException if it is neither
   */
  public static ReadPolicy parse(String value) {
    return value.equalsIgnoreCase("none") ? NONE : under(Paths.get(value));
  }

  /**
   * The local file {@code url} names, if this policy lets {@code rule} read it.
   *
   * @throws ValueException {@code mnestic::read_not_allowed} naming the file and the rule
   */
  Path file(String url, String rule) {
    final String lower = url.toLowerCase(Locale.ROOT);
    final Path path;
    if (lower.startsWith("file://")) {
      try {
        path = Paths.get(new URI(url.replace(" ", "%20")));
      } catch (URISyntaxException | IllegalArgumentException e) {
        throw refused(rule, "'" + url + "' is no file URL: " + e.getMessage());
      }
    } else if (lower.matches("^[a-z][a-z0-9+.-]*://.*")) {
      throw refused(rule, "'" + url + "' is not a local file; only file:// URLs and paths may"
          + " be read, never over the network");
    } else {
      path = Paths.get(url);
    }
    if (any) {
      return path;
    }
    if (root == null) {
      throw refused(rule, "reading files is not allowed here (" + url + "); a server allows it"
          + " under one directory with --allow-read DIR");
    }
    final Path real;
    try {
      real = path.toRealPath();
    } catch (IOException e) {
      throw refused(rule, "'" + url + "' is not a readable file under " + root);
    }
    if (!real.startsWith(root)) {
      throw refused(rule, "'" + url + "' is outside " + root + ", the only directory files may"
          + " be read from here");
    }
    return real;
  }

  private static ValueException refused(String rule, String why) {
    return new ValueException(ErrorCode.MNESTIC_READ_NOT_ALLOWED, rule + " may not read this file",
        why);
  }

  @Override public String toString() {
    return any ? "any" : root == null ? "none" : root.toString();
  }
}
