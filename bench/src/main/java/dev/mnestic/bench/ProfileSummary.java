package dev.mnestic.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the time went in a JFR recording: the methods most often on top of
 * the sampled stacks (self time) and most often anywhere on them (total
 * time), as shares of all execution samples, and how long garbage
 * collection paused the program (samples are taken only while a thread runs
 * Java code, so pauses are not in them).
 *
 * <p>Reproduce, e.g. for the chain row: {@code BENCH_JAVA_OPTS=-XX:StartFlightRecording=filename=bench/target/chain.jfr,settings=profile
 * bench/run RecursionBench --peers mnestic chain}, then
 * {@code bench/run ProfileSummary bench/target/chain.jfr [TOP]}.
 */
public final class ProfileSummary {
  private ProfileSummary() {
  }

  public static void main(String[] args) throws Exception {
    final int top = args.length > 1 ? Integer.parseInt(args[1]) : 25;
    final Map<String, Integer> self = new HashMap<>();
    final Map<String, Integer> total = new HashMap<>();
    int samples = 0;
    Duration gc = Duration.ZERO;
    Instant first = Instant.MAX;
    Instant last = Instant.MIN;
    for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(args[0]))) {
      if (e.getEventType().getName().equals("jdk.GarbageCollection")) {
        gc = gc.plus(e.getDuration("sumOfPauses"));
      }
      if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null) {
        continue;
      }
      first = first.isBefore(e.getStartTime()) ? first : e.getStartTime();
      last = last.isAfter(e.getStartTime()) ? last : e.getStartTime();
      final List<RecordedFrame> frames = e.getStackTrace().getFrames();
      if (frames.isEmpty()) {
        continue;
      }
      samples++;
      self.merge(name(frames.get(0)), 1, Integer::sum);
      final Set<String> seen = new HashSet<>();
      for (RecordedFrame f : frames) {
        if (seen.add(name(f))) {
          total.merge(name(f), 1, Integer::sum);
        }
      }
      if (e.getStackTrace().isTruncated()) {
        total.merge("(stack truncated: total shares of outer frames are low)", 1, Integer::sum);
      }
    }
    System.out.printf(Locale.ROOT, "%d execution samples over %.1f s; garbage collection paused"
        + " the program for %.1f s in all%n", samples, Duration.between(first, last).toMillis() / 1e3,
        gc.toMillis() / 1e3);
    print("self", self, samples, top);
    print("total", total, samples, top);
  }

  private static String name(RecordedFrame f) {
    return f.getMethod().getType().getName() + "." + f.getMethod().getName();
  }

  private static void print(String what, Map<String, Integer> counts, int samples, int top) {
    System.out.printf(Locale.ROOT, "%n%s%n", what);
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(top)
        .forEach(c -> System.out.printf(Locale.ROOT, "%5.1f%%  %s%n", 100.0 * c.getValue() / samples, c.getKey()));
  }
}
