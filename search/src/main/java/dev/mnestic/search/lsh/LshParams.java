package dev.mnestic.search.lsh;

import java.util.function.DoubleUnaryOperator;

/**
 * CozoDB's choice of bands {@code b} and rows per band {@code r} ({@code
 * LshParams::find_optimal_params}, from rust-minhash): over every {@code b} in {@code 1..n}
 * and {@code r} in {@code 1..n/b}, the first pair of least {@code fpw * FP + fnw * FN}, where
 * {@code FP} integrates the probability {@code 1 - (1 - s^r)^b} that a pair of similarity
 * {@code s} shares a band over {@code [0, threshold]} and {@code FN} its complement over
 * {@code [threshold, 1]}. The integrals are the quadrature crate's double-exponential rule
 * (John D. Cook's), with its tolerance 0.001, so the same pair comes out.
 */
public record LshParams(int bands, int rows) {
  private static final double TOLERANCE = 0.001;

  /**
   * The bands and rows for {@code nPerm} permutations and the target {@code threshold}, the
   * weights first divided by their sum as {@code ::lsh create} does.
   */
  public static LshParams optimal(
      double threshold, int nPerm, double falsePositiveWeight, double falseNegativeWeight) {
    double total = falsePositiveWeight + falseNegativeWeight;
    double fpWeight = falsePositiveWeight / total;
    double fnWeight = falseNegativeWeight / total;
    double minError = Double.POSITIVE_INFINITY;
    LshParams opt = new LshParams(0, 0);
    for (int b = 1; b <= nPerm; b++) {
      int maxR = nPerm / b;
      for (int r = 1; r <= maxR; r++) {
        int bb = b;
        int rr = r;
        double fp =
            integrate(s -> 1.0 - Math.pow(1.0 - powi(s, rr), bb), 0.0, threshold, TOLERANCE);
        double fn =
            integrate(
                s -> 1.0 - (1.0 - Math.pow(1.0 - powi(s, rr), bb)), threshold, 1.0, TOLERANCE);
        double error = fp * fpWeight + fn * fnWeight;
        if (error < minError) {
          minError = error;
          opt = new LshParams(b, r);
        }
      }
    }
    return opt;
  }

  /** Rust's {@code f64::powi}: repeated multiplication (LLVM's {@code powi}). */
  static double powi(double x, int n) {
    double result = 1.0;
    double base = x;
    int e = n;
    while (e > 0) {
      if ((e & 1) != 0) {
        result *= base;
      }
      e >>= 1;
      if (e > 0) {
        base *= base;
      }
    }
    return result;
  }

  /**
   * The abscissas and weights of the double-exponential rule on {@code [-1, 1]}, layer by
   * layer: {@code x = tanh(pi/2 sinh t)}, {@code w = h * pi/2 cosh t / cosh^2(pi/2 sinh t)} at
   * {@code t = 1, 2, 3} (step 1), then the odd multiples of {@code 1/2, 1/4, ..., 1/64} up to
   * 3.
   */
  private static final double[][][] LAYERS = layers();

  private static double[][][] layers() {
    double[][][] layers = new double[7][][];
    for (int level = 0; level < 7; level++) {
      double h = 1.0 / (1 << level);
      int n = level == 0 ? 3 : (int) (3 / h) / 2;
      layers[level] = new double[n][];
      for (int i = 0; i < n; i++) {
        double t = level == 0 ? i + 1 : (2 * i + 1) * h;
        double u = Math.PI / 2 * Math.sinh(t);
        double cosh = Math.cosh(u);
        layers[level][i] =
            new double[] {h * Math.PI / 2 * Math.cosh(t) / (cosh * cosh), Math.tanh(u)};
      }
    }
    return layers;
  }

  /** The quadrature crate's {@code integrate}: the rule over {@code [a, b]}. */
  static double integrate(DoubleUnaryOperator f, double a, double b, double tolerance) {
    double c = 0.5 * (b - a);
    double d = 0.5 * (a + b);
    return c * integrateCore(x -> f.applyAsDouble(c * x + d), 0.25 * tolerance / c);
  }

  private static double integrateCore(DoubleUnaryOperator f, double target) {
    int evaluations = 1;
    double currentDelta = Double.MAX_VALUE;
    double integral = 2.0 * (Math.PI / 2) * f.applyAsDouble(0.0);
    for (double[][] layer : LAYERS) {
      double contribution = 0.0;
      for (double[] wx : layer) {
        contribution += wx[0] * (f.applyAsDouble(wx[1]) + f.applyAsDouble(-wx[1]));
      }
      evaluations += 2 * layer.length;
      double previousDeltaLn = Math.log(currentDelta);
      currentDelta = Math.abs(0.5 * integral - contribution);
      integral = 0.5 * integral + contribution;
      if (evaluations <= 13) {
        continue;
      }
      if (currentDelta == 0.0) {
        break;
      }
      double r = Math.log(currentDelta) / previousDeltaLn;
      double errorEstimate =
          r > 1.9 && r < 2.1 ? currentDelta * currentDelta : currentDelta;
      if (errorEstimate < target) {
        break;
      }
    }
    return integral;
  }
}
