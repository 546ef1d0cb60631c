/**
 * Every stage of the Datalog front end: its errors, reported as CozoDB
 * reports them ({@link dev.mnestic.datalog.error.DatalogException}: code,
 * line:column, help). Below every other {@code dev.mnestic.datalog}
 * package, which all throw it.
 */
package dev.mnestic.datalog.error;
