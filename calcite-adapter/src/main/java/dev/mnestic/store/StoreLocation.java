package dev.mnestic.store;

import java.nio.file.Path;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Where a store lives.
 *
 * <ul>
 *   <li>{@link #privateMemory()}: an in-memory database of its own, gone when
 *       its last session closes (the default of {@code jdbc:mnestic:});
 *   <li>{@link #sharedMemory(String)}: an in-memory database that every
 *       session of this JVM naming it shares ({@code db=mem:NAME});
 *   <li>{@link #directory(Path)}: a file database in a directory, created on
 *       first use ({@code db=PATH}).
 * </ul>
 *
 * <p>Every location runs HSQLDB with multi-version concurrency control, so
 * readers never wait for writers and each session has its own transaction.
 * A file database syncs its log on every commit ({@code write_delay=false}):
 * a committed transaction survives the process being killed.
 */
public final class StoreLocation {
  private static final String MEMORY_PREFIX = "mem:";
  private static final String FILE_PREFIX = "file:";
  /** A URL scheme's prefix, as in {@code http:} (two letters or more: not a drive letter). */
  private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]+:.*");
  /** HSQLDB database properties; they apply when a database is created. */
  private static final String COMMON =
      ";shutdown=true;hsqldb.tx=mvcc;hsqldb.tx_level=read_committed";

  private final String hsqldbUrl;
  private final String description;

  private StoreLocation(String hsqldbUrl, String description) {
    this.hsqldbUrl = hsqldbUrl;
    this.description = description;
  }

  /** A fresh in-memory store that no other session can see. */
  public static StoreLocation privateMemory() {
    return new StoreLocation(
        "jdbc:hsqldb:mem:mnestic-" + UUID.randomUUID() + COMMON,
        "private in-memory store");
  }

  /** An in-memory store shared by every session of this JVM that names it. */
  public static StoreLocation sharedMemory(String name) {
    if (name.isEmpty() || !name.matches("[A-Za-z0-9_.-]+")) {
      throw new IllegalArgumentException(
          "in-memory store name must be letters, digits, '_', '.' or '-', was '"
              + name + "'");
    }
    return new StoreLocation("jdbc:hsqldb:mem:" + name + COMMON,
        "in-memory store '" + name + "'");
  }

  /** A file store in {@code directory}, created on first use. */
  public static StoreLocation directory(Path directory) {
    final Path dir = directory.toAbsolutePath().normalize();
    return new StoreLocation(
        "jdbc:hsqldb:file:" + dir.resolve("store") + COMMON
            + ";hsqldb.write_delay=false;hsqldb.default_table_type=cached",
        "file store " + dir);
  }

  /**
   * Parses the value of the {@code db} connection property: absent or empty
   * for a private in-memory store, {@code mem:NAME} for a shared in-memory
   * store, {@code file:DIRECTORY} or a path for a directory. Any other
   * scheme ({@code http:}, {@code jdbc:}) is refused rather than taken for a
   * relative directory of that name.
   */
  public static StoreLocation parse(String db) {
    if (db == null || db.isEmpty()) {
      return privateMemory();
    }
    if (db.startsWith(MEMORY_PREFIX)) {
      return sharedMemory(db.substring(MEMORY_PREFIX.length()));
    }
    if (db.startsWith(FILE_PREFIX)) {
      final String directory = db.substring(FILE_PREFIX.length());
      if (directory.isEmpty()) {
        throw new IllegalArgumentException("file: needs a directory, as in file:/var/mnestic");
      }
      return directory(Path.of(directory));
    }
    if (SCHEME.matcher(db).matches()) {
      throw new IllegalArgumentException("'" + db.substring(0, db.indexOf(':') + 1)
          + "' is not a kind of store: give a directory, file:DIRECTORY or mem:NAME");
    }
    return directory(Path.of(db));
  }

  /** The JDBC URL of the HSQLDB database behind this store. */
  public String hsqldbUrl() {
    return hsqldbUrl;
  }

  @Override public String toString() {
    return description;
  }

  @Override public boolean equals(Object o) {
    return o instanceof StoreLocation
        && hsqldbUrl.equals(((StoreLocation) o).hsqldbUrl);
  }

  @Override public int hashCode() {
    return Objects.hash(hsqldbUrl);
  }
}
