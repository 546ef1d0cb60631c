/**
 * The Flink job's execute stage: {@link dev.mnestic.flink.job.PlanJob} compiles a chosen plan
 * (the planner's, over a workload) into a DataStream topology that runs it as the embedded
 * executor does ({@code planner.exec.PlanExecution}, {@code runtime.Sketches}): samples routed
 * to their metric's keyed stream and built into the plan's summaries by parallel subtasks
 * ({@link dev.mnestic.flink.job.BuildParts}), those parts merged per metric and read as each
 * window closes ({@link dev.mnestic.flink.job.MergeAndRead}), and each query's answer made of
 * its reads ({@link dev.mnestic.flink.job.Answers}).
 *
 * <p>In: a workload and a stream of {@code io.Sample}s. Out: a stream of {@code io.Answer}s.
 */
package dev.mnestic.flink.job;
