package dev.mnestic.cli;

/**
 * A command line the CLI cannot run: an unknown command or option, a missing
 * or bad argument, an unreadable file. The CLI prints the message and a hint
 * to use {@code --help}, and exits with status 2.
 */
final class UsageException extends Exception {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
