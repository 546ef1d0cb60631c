package dev.mnestic.datalog;

import dev.mnestic.runtime.SemiNaive;

import java.io.PrintStream;
import java.util.List;

/**
 * One line on a terminal (stderr) saying where a long evaluation is: the
 * stratum, the fixpoint's round and each relation's delta, e.g.
 * {@code mnestic: stratum 2/3 [tc] round 412, new tc=588}. Silent for the
 * first second, then redrawn at most five times a second; erased when the
 * evaluation ends.
 */
final class ProgressLine implements SemiNaive.Progress, AutoCloseable {
  private static final long QUIET_NANOS = 1_000_000_000L;
  private static final long REDRAW_NANOS = 200_000_000L;

  private final PrintStream out;
  private final long start = System.nanoTime();
  private long lastDrawn;
  private int width;
  private String stratum = "";
  private List<String> rules = List.of();

  ProgressLine(PrintStream out) {
    this.out = out;
  }

  /** Stratum {@code index} (from 1) of {@code count} begins, evaluating {@code rules}. */
  void stratum(int index, int count, List<String> rules) {
    this.stratum = "stratum " + index + "/" + count + " " + rules;
    this.rules = rules;
    draw(stratum);
  }

  @Override public void round(int round, int[] deltas) {
    final StringBuilder line = new StringBuilder(stratum).append(" round ").append(round).append(", new");
    for (int i = 0; i < deltas.length; i++) {
      line.append(' ').append(rules.get(i)).append('=').append(deltas[i]);
    }
    draw(line.toString());
  }

  private void draw(String text) {
    final long now = System.nanoTime();
    if (now - start < QUIET_NANOS || now - lastDrawn < REDRAW_NANOS) {
      return;
    }
    lastDrawn = now;
    final String line = "mnestic: " + text;
    out.print("\r" + line + " ".repeat(Math.max(0, width - line.length())));
    out.flush();
    width = line.length();
  }

  @Override public void close() {
    if (width > 0) {
      out.print("\r" + " ".repeat(width) + "\r");
      out.flush();
    }
  }
}
