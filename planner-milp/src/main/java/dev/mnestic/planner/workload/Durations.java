package dev.mnestic.planner.workload;

import java.time.Duration;

/** Prometheus-style durations: {@code 30s}, {@code 1m}, {@code 5m}, {@code 2h}, {@code 7d}. */
public final class Durations {
  private Durations() {
  }

  /** The duration of {@code text}, or null when it is not one. */
  static Duration parse(String text) {
    if (text.length() < 2) {
      return null;
    }
    final String digits = text.substring(0, text.length() - 1);
    if (!digits.chars().allMatch(Character::isDigit)) {
      return null;
    }
    final long n;
    try {
      n = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      return null;
    }
    return switch (text.charAt(text.length() - 1)) {
      case 's' -> Duration.ofSeconds(n);
      case 'm' -> Duration.ofMinutes(n);
      case 'h' -> Duration.ofHours(n);
      case 'd' -> Duration.ofDays(n);
      default -> null;
    };
  }

  /** The shortest form with a whole number: 90s, 5m, 2h, 7d. */
  public static String format(Duration d) {
    final long s = d.getSeconds();
    if (s != 0 && s % 86400 == 0) {
      return s / 86400 + "d";
    }
    if (s != 0 && s % 3600 == 0) {
      return s / 3600 + "h";
    }
    if (s != 0 && s % 60 == 0) {
      return s / 60 + "m";
    }
    return s + "s";
  }
}
