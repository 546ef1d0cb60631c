package dev.mnestic.planner.physical;

/**
 * v after Stage 2: logical candidate {@code logical} of group {@code group} with physical
 * properties p^phys. The x_v of Stage 3 range over these.
 */
public record PhysicalCandidate(int id, int logical, int group, PhysicalProperties properties) {
}
