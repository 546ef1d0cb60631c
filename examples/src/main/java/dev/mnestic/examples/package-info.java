/**
 * Programs a user would write against mnestic through {@code java.sql} alone; each has a
 * test that runs it.
 *
 * <p>In: a {@code jdbc:mnestic:} URL. Out: what the program prints.
 */
package dev.mnestic.examples;
