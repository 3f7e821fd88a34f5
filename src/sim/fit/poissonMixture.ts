/**
 * §5 "Lemon hosts": fault starts per host over the whole fleet (hosts absent from the log count
 * 0). The dispersion index (population variance / mean) is 1 for a fleet of alike hosts; a
 * two-class Poisson mixture fitted by EM says how many hosts are lemons and how much more often
 * they fail. Start: π = 0.15 (the high class), means 0.5× and 3× the overall mean; stop when the
 * log-likelihood gains less than 1e−9, or after 2,000 iterations. The likelihood is summed over
 * the distinct counts (a fleet of 100,000 hosts has a few dozen), each weighted by how many hosts
 * have it.
 */
import { logPoisson } from "./specialFunctions.ts";

export interface MixtureFit {
  /** Share of hosts in the high class (π). */
  share: number;
  lowMean: number;
  highMean: number;
  /** highMean / lowMean (Infinity when the low class never fails). */
  factor: number;
  logLikOne: number;
  logLikTwo: number;
  /** AIC of one Poisson (1 parameter) and of the mixture (3). */
  aicOne: number;
  aicTwo: number;
  /** "two" when the mixture's AIC is lower by more than 2. */
  chosen: "one" | "two";
  iterations: number;
}

export const EM_START_SHARE = 0.15;
export const EM_TOLERANCE = 1e-9;
export const EM_MAX_ITERATIONS = 2000;

/** Population variance / mean of the per-host counts; null when no host failed. */
export function dispersionIndex(counts: ArrayLike<number>): number | null {
  const n = counts.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += counts[i]!;
  const mean = sum / n;
  if (!(mean > 0)) return null;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (counts[i]! - mean) ** 2;
  return ss / n / mean;
}

/** Each distinct count and how many hosts have it. */
function histogram(counts: ArrayLike<number>): { value: Float64Array; hosts: Float64Array } {
  const by = new Map<number, number>();
  for (let i = 0; i < counts.length; i++) by.set(counts[i]!, (by.get(counts[i]!) ?? 0) + 1);
  const keys = [...by.keys()].sort((a, b) => a - b);
  return { value: Float64Array.from(keys), hosts: Float64Array.from(keys, (k) => by.get(k)!) };
}

const logSumExp = (a: number, b: number) => {
  const m = Math.max(a, b);
  return m === Number.NEGATIVE_INFINITY ? m : m + Math.log(Math.exp(a - m) + Math.exp(b - m));
};

/** The mixture fit of per-host counts, or null when no host failed (nothing to split). */
export function fitPoissonMixture(counts: ArrayLike<number>): MixtureFit | null {
  const n = counts.length;
  const { value, hosts } = histogram(counts);
  let total = 0;
  for (let j = 0; j < value.length; j++) total += value[j]! * hosts[j]!;
  const mean = total / n;
  if (!(mean > 0)) return null;
  let logLikOne = 0;
  for (let j = 0; j < value.length; j++) logLikOne += hosts[j]! * logPoisson(value[j]!, mean);

  let share = EM_START_SHARE;
  let low = 0.5 * mean;
  let high = 3 * mean;
  let logLik = Number.NEGATIVE_INFINITY;
  let iterations = 0;
  const r = new Float64Array(value.length);
  for (; iterations < EM_MAX_ITERATIONS; iterations++) {
    // E step: each count's probability of the high class, and the likelihood of these parameters.
    let ll = 0;
    const lnHigh = Math.log(share);
    const lnLow = Math.log(1 - share);
    for (let j = 0; j < value.length; j++) {
      const a = lnHigh + logPoisson(value[j]!, high);
      const b = lnLow + logPoisson(value[j]!, low);
      const lse = logSumExp(a, b);
      r[j] = Math.exp(a - lse);
      ll += hosts[j]! * lse;
    }
    if (iterations > 0 && ll - logLik < EM_TOLERANCE) {
      logLik = Math.max(ll, logLik);
      break;
    }
    logLik = ll;
    // M step.
    let wHigh = 0;
    let cHigh = 0;
    let cLow = 0;
    for (let j = 0; j < value.length; j++) {
      wHigh += hosts[j]! * r[j]!;
      cHigh += hosts[j]! * r[j]! * value[j]!;
      cLow += hosts[j]! * (1 - r[j]!) * value[j]!;
    }
    share = wHigh / n;
    if (wHigh > 0) high = cHigh / wHigh;
    if (n - wHigh > 0) low = cLow / (n - wHigh);
  }
  const aicOne = 2 - 2 * logLikOne;
  const aicTwo = 6 - 2 * logLik;
  // The classes are named by their means: the high one is the lemons.
  const [lo, hi, pi] = high >= low ? [low, high, share] : [high, low, 1 - share];
  return {
    share: pi,
    lowMean: lo,
    highMean: hi,
    factor: lo > 0 ? hi / lo : Number.POSITIVE_INFINITY,
    logLikOne,
    logLikTwo: logLik,
    aicOne,
    aicTwo,
    chosen: aicTwo < aicOne - 2 ? "two" : "one",
    iterations,
  };
}
