package dev.mnestic.planner.physical;

/** Where a kept result lives. */
public enum StorageMedium {
  /** The JVM heap: fast to read, costly to hold. */
  HEAP,
  /** A table of the store: cheap to hold, read back by deserializing. */
  STORE
}
