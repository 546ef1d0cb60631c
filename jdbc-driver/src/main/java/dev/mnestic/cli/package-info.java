/**
 * The command line {@code bin/mnestic} ({@link dev.mnestic.cli.Main}): {@code sql},
 * {@code run} (CozoScript), {@code import}, {@code serve} and {@code plan}.
 *
 * <p>In: arguments, files and standard input. Out: results on standard output, messages and an
 * exit status.
 */
package dev.mnestic.cli;
