package dev.mnestic.planner.physical;

/**
 * (u, c, i): producer u may feed input i of consumer c (physical candidate ids), u being a
 * candidate of c's i-th child group. Feasible when both α^log (θ and metric against r^log) and
 * α^phys (timing and history against r^phys) hold; the feasible edges are the domain of
 * y_{u,c,i}.
 */
public record PhysicalEdge(int producer, int consumer, int input, Feasibility alphaLog,
    Feasibility alphaPhys) {
  public boolean feasible() {
    return alphaLog.ok() && alphaPhys.ok();
  }
}
