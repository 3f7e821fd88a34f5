/**
 * §5 "Arrivals": the gaps between consecutive failures, fitted two ways. The exponential
 * (Poisson arrivals) has its maximum-likelihood rate in closed form; the Weibull's shape k solves
 *   g(k) = Σ yᵏ ln y / Σ yᵏ − 1/k − mean(ln y) = 0,
 * which is increasing in k with one root, found by Newton's method kept inside a bracket (a step
 * that leaves it bisects instead). The gaps are first divided by their geometric mean (k does not
 * depend on the unit) and yᵏ is taken relative to the largest, so nothing overflows at any k.
 * The 95 % interval of k comes from the observed information on ln k at the maximum.
 */

export interface ExponentialFit {
  /** Failures per second. */
  rate: number;
  logLik: number;
  aic: number;
}

export interface WeibullFit {
  shape: number;
  shapeLo: number;
  shapeHi: number;
  scaleSeconds: number;
  logLik: number;
  aic: number;
  /** Newton steps taken (bisections included). */
  iterations: number;
}

/** The two-sided 95 % normal quantile. */
const Z95 = 1.959963984540054;

export function fitExponential(gaps: ArrayLike<number>): ExponentialFit {
  const n = gaps.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += gaps[i]!;
  const rate = n / sum;
  const logLik = n * Math.log(rate) - n;
  return { rate, logLik, aic: 2 - 2 * logLik };
}

/** Σ yᵏ ln^p y / Σ yᵏ for p = 1, 2, with yᵏ scaled by the largest (it cancels). */
function moments(lnY: Float64Array, maxLn: number, k: number): { w: number; m1: number; m2: number } {
  let w = 0;
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < lnY.length; i++) {
    const l = lnY[i]!;
    const e = Math.exp(k * (l - maxLn));
    w += e;
    s1 += e * l;
    s2 += e * l * l;
  }
  return { w, m1: s1 / w, m2: s2 / w };
}

/**
 * The Weibull maximum-likelihood fit of positive gaps, or null when the shape is not determined
 * (fewer than two gaps, or every gap equal: the likelihood grows without bound in k).
 */
export function fitWeibull(gaps: ArrayLike<number>): WeibullFit | null {
  const n = gaps.length;
  if (n < 2) return null;
  let meanLnX = 0;
  for (let i = 0; i < n; i++) meanLnX += Math.log(gaps[i]!);
  meanLnX /= n;
  const lnY = new Float64Array(n);
  let maxLn = Number.NEGATIVE_INFINITY;
  let minLn = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const l = Math.log(gaps[i]!) - meanLnX;
    lnY[i] = l;
    if (l > maxLn) maxLn = l;
    if (l < minLn) minLn = l;
  }
  if (!(maxLn - minLn > 1e-12)) return null;
  // mean(ln y) = 0 after the division, so g(k) = m1 − 1/k.
  const g = (k: number) => moments(lnY, maxLn, k).m1 - 1 / k;
  let lo = 1;
  let hi = 1;
  while (g(lo) > 0 && lo > 1e-8) lo /= 2;
  while (g(hi) < 0 && hi < 1e8) hi *= 2;
  let k = g(1) < 0 ? Math.min(hi, 2) : Math.max(lo, 0.5);
  if (k <= lo || k >= hi) k = Math.sqrt(lo * hi);
  let iterations = 0;
  for (; iterations < 200; iterations++) {
    const { m1, m2 } = moments(lnY, maxLn, k);
    const value = m1 - 1 / k;
    if (value < 0) lo = k;
    else hi = k;
    const slope = m2 - m1 * m1 + 1 / (k * k);
    let next = k - value / slope;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (Math.abs(next - k) <= 1e-13 * k) {
      k = next;
      break;
    }
    k = next;
  }
  // Scale in y units: θ_y = (Σ yᵏ / n)^(1/k), from the scaled sum.
  const { w } = moments(lnY, maxLn, k);
  const lnThetaY = maxLn + Math.log(w / n) / k;
  // Observed information at the maximum (θ profiled): Var k = n / ((n/k² + Σ z L²) n − (Σ z L)²),
  // z = (y/θ)ᵏ, L = ln(y/θ).
  let szl = 0;
  let szl2 = 0;
  for (let i = 0; i < n; i++) {
    const L = lnY[i]! - lnThetaY;
    const z = Math.exp(k * L);
    szl += z * L;
    szl2 += z * L * L;
  }
  const varK = n / ((n / (k * k) + szl2) * n - szl * szl);
  const seLnK = Math.sqrt(varK) / k;
  const lnTheta = lnThetaY + meanLnX;
  // ℓ = n ln k − n k ln θ + (k − 1) Σ ln x − Σ (x/θ)ᵏ, and Σ (x/θ)ᵏ = n at the maximum.
  const logLik = n * Math.log(k) - n * k * lnTheta + (k - 1) * n * meanLnX - n;
  return {
    shape: k,
    shapeLo: k * Math.exp(-Z95 * seLnK),
    shapeHi: k * Math.exp(Z95 * seLnK),
    scaleSeconds: Math.exp(lnTheta),
    logLik,
    aic: 4 - 2 * logLik,
    iterations,
  };
}
