package dev.mnestic.store;

import org.hsqldb.Table;

import java.sql.SQLException;

/**
 * One statement's writes to one store table, guarded against lost updates while it is open
 * ({@link Session#guardWrites}): a row the statement deletes or updates must still be the
 * version committed before the statement began reading. When another transaction has
 * committed a newer version, the write fails at once (SQLSTATE 40001, the statement rolled
 * back by HSQLDB) and {@link #conflicted} is true; the statement may then run again, reading
 * the newer version.
 */
public final class WriteGuard implements AutoCloseable {
  /** SQLSTATE of a serialization failure: the transaction may succeed when run again. */
  public static final String SERIALIZATION_FAILURE = "40001";

  private final TableVersions versions;
  private final org.hsqldb.Session session;
  final Table table;
  /** The change number before the statement read anything. */
  final long since;
  volatile boolean conflicted;

  WriteGuard(TableVersions versions, org.hsqldb.Session session, Table table, long since) {
    this.versions = versions;
    this.session = session;
    this.table = table;
    this.since = since;
  }

  /** Whether a row the statement wrote had been changed by another transaction meanwhile. */
  public boolean conflicted() {
    return conflicted;
  }

  /** The failure a conflict is: SQLSTATE {@value #SERIALIZATION_FAILURE}. */
  public SQLException conflict(Throwable cause) {
    return new SQLException(message(), SERIALIZATION_FAILURE, cause);
  }

  String message() {
    return "a row of table " + table.getName().name + " was changed by another transaction"
        + " after this statement read it (serialization failure: run it again)";
  }

  @Override public void close() {
    versions.unguard(session, this);
  }
}
