package dev.mnestic.planner.workload;

import java.time.Duration;

/**
 * A standing query q: {@code expr} evaluated every {@code every}, its answer within
 * {@code target}, and every answer of the last {@code retention} available (constraint (R)).
 * {@code line} is where the workload states it.
 */
public record Query(String name, QueryExpr expr, Target target, Duration every,
    Duration retention, int line) {
}
