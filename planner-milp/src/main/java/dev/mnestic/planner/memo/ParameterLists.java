package dev.mnestic.planner.memo;

import java.util.ArrayList;
import java.util.List;

/** The predefined θ lists Pass 1 draws state candidates from. */
public record ParameterLists(List<Integer> kllK, List<Double> ddSketchAlpha,
    boolean exactAccumulator) {
  /** KLL k 100, 200, 345, 400, 800; DDSketch α 0.005, 0.01, 0.02, 0.05; the exact accumulator. */
  public static final ParameterLists DEFAULT = new ParameterLists(List.of(100, 200, 345, 400, 800),
      List.of(0.005, 0.01, 0.02, 0.05), true);

  public ParameterLists {
    kllK = List.copyOf(kllK);
    ddSketchAlpha = List.copyOf(ddSketchAlpha);
  }

  /** θ of each {@code family}, checked. */
  public List<Parameters.Fixed> of(Family family) {
    final List<Parameters.Fixed> out = new ArrayList<>();
    switch (family) {
      case KLL -> kllK.forEach(k -> out.add(new Parameters.Kll(k)));
      case DDSKETCH -> ddSketchAlpha.forEach(a -> out.add(new Parameters.DdSketch(a)));
      case EXACT_VALUES -> {
        if (exactAccumulator) {
          out.add(new Parameters.Exact());
        }
      }
    }
    return out;
  }
}
