package dev.mnestic.planner;

import dev.mnestic.planner.workload.Workload;
import dev.mnestic.planner.workload.WorkloadParser;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Workloads of the tests' resources. */
public final class Workloads {
  private Workloads() {
  }

  public static Workload resource(String name) {
    try (InputStream in = Workloads.class.getResourceAsStream("/" + name)) {
      return WorkloadParser.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The spec's example: query A (rank error 0.01) and query B (a ratio, relative error 0.05). */
  public static Workload specExample() {
    return resource("spec-example.workload");
  }
}
