/**
 * The store: embedded HSQLDB seen by Calcite as the schema {@code PUBLIC}. A
 * {@link dev.mnestic.store.StoreLocation} names one, a {@link dev.mnestic.store.Session} is one
 * client's connection and transaction; tables, their scans from HSQLDB's row store
 * ({@link dev.mnestic.store.EnumerableStoreScan}), the reads still run as SQL
 * ({@link dev.mnestic.store.StoreConvention}), the values read and written
 * ({@link dev.mnestic.store.StoreReads}, {@link dev.mnestic.store.StoreWrites}), writes
 * ({@link dev.mnestic.store.EnumerableStoreModify},
 * {@link dev.mnestic.store.WriteGuard}, {@link dev.mnestic.store.TableVersions}), DDL
 * ({@link dev.mnestic.store.StoreDdlExecutor}) and what CozoScript sets on a table that both
 * pipelines obey: its access level and triggers ({@link dev.mnestic.store.TablePolicy}), the
 * triggers of SQL writes run through the interface the driver wires
 * ({@link dev.mnestic.store.TableTriggers}).
 *
 * <p>In: table scans, modifications and DDL from both pipelines. Out: rows, and the changes
 * HSQLDB keeps.
 */
package dev.mnestic.store;
