/**
 * ln Γ and the regularized incomplete gamma function, for the chi-square test of drift (§5
 * "Drift") and the Poisson likelihoods. Written out (Numerical Recipes §6.1–6.2: Lanczos, the
 * series below a + 1, Lentz's continued fraction above), since the engine has no library.
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (relative error below 1e−13; reflection below 0.5). */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

const EPS = 1e-15;
const MAX_TERMS = 10_000;

/** P(a, x) by its series (converges fast for x < a + 1). */
function lowerSeries(a: number, x: number): number {
  let term = 1 / a;
  let sum = term;
  for (let n = 1; n < MAX_TERMS; n++) {
    term *= x / (a + n);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPS) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - lnGamma(a));
}

/** Q(a, x) by its continued fraction (modified Lentz; converges fast for x ≥ a + 1). */
function upperFraction(a: number, x: number): number {
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_TERMS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - lnGamma(a)) * h;
}

/** Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function (a > 0, x ≥ 0). */
export function upperGammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  return x < a + 1 ? 1 - lowerSeries(a, x) : upperFraction(a, x);
}

/** P(χ²_df ≥ stat): the chi-square test's p-value. */
export function chiSquarePValue(stat: number, df: number): number {
  return upperGammaQ(df / 2, stat / 2);
}

/** ln of the Poisson probability of c events at mean λ (λ = 0: certain 0). */
export function logPoisson(c: number, lambda: number): number {
  if (lambda === 0) return c === 0 ? 0 : Number.NEGATIVE_INFINITY;
  return c * Math.log(lambda) - lambda - lnGamma(c + 1);
}
