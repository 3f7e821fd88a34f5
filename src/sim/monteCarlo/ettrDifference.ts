/**
 * The difference of two Monte Carlos' ETTR, as a pinned baseline's card shows it: paired
 * by seed over the seeds both ran, or unpaired when they share none. The same function gives the
 * comparison's badput differences, one category's per-run shares at a time: nothing in
 * it is particular to ETTR, hence its neutral name, pairedDifference; ettrDifference is the same
 * function under the name its first callers use. Apart from mcStream.ts, which is in the page's
 * first-load script: only the Cluster view's cards and comparison need this.
 */
import { meanAndHalf } from "./mcStream.ts";

/** A Monte Carlo's per-run values of one metric (ETTR, a badput share) with the seed of its run 0 (run i is seed (seed + i) >>> 0). */
export interface SeededSamples {
  samples: Float64Array;
  seed: number;
}

/**
 * The difference a − b of two Monte Carlos' means of one metric with its 95 % half-width. Paired by seed over the
 * seeds both ran (a Monte Carlo's run i is seed (s.seed + i) >>> 0; two scenarios with the same
 * seed and cluster draw the same failures): its n, first seed, and each side's mean over those
 * runs, which differ from the means of all their runs when the two ran different seeds or counts.
 * Two Monte Carlos that share no seed are compared unpaired: the difference of their means, with
 * the error of two independent samples. Null when either has no run.
 */
export type PairedDifference =
  | { kind: "paired"; n: number; firstSeed: number; mean: number; half: number; aMean: number; bMean: number }
  | { kind: "unpaired"; mean: number; half: number };
/** The difference of two Monte Carlos' ETTR (a PairedDifference of their ETTR samples). */
export type EttrDifference = PairedDifference;

/** Runs [from, from + n) of x, as a view. */
const runsOf = (x: Float64Array, from: number, n: number) => x.subarray(from, from + n);

export function pairedDifference(a: SeededSamples, b: SeededSamples): PairedDifference | null {
  const na = a.samples.length;
  const nb = b.samples.length;
  if (na === 0 || nb === 0) return null;
  // Seed x is run (x − seed) mod 2³² of each: the overlap starts at run 0 of one of the two.
  const bAhead = (a.seed - b.seed) >>> 0; // a's run 0 is b's run bAhead
  const aAhead = (b.seed - a.seed) >>> 0; // b's run 0 is a's run aAhead
  let ia = -1;
  let ib = -1;
  if (bAhead < nb) [ia, ib] = [0, bAhead];
  else if (aAhead < na) [ia, ib] = [aAhead, 0];
  if (ia >= 0) {
    const n = Math.min(na - ia, nb - ib);
    const pa = runsOf(a.samples, ia, n);
    const pb = runsOf(b.samples, ib, n);
    const d = new Float64Array(n);
    for (let i = 0; i < n; i++) d[i] = pa[i]! - pb[i]!;
    return {
      kind: "paired",
      n,
      firstSeed: (a.seed + ia) >>> 0,
      ...meanAndHalf(d),
      aMean: meanAndHalf(pa).mean,
      bMean: meanAndHalf(pb).mean,
    };
  }
  const ma = meanAndHalf(a.samples);
  const mb = meanAndHalf(b.samples);
  // Independent samples: the half-widths (each 1.96·sd/√n) add in quadrature.
  return { kind: "unpaired", mean: ma.mean - mb.mean, half: Math.hypot(ma.half, mb.half) };
}

/** The difference of two Monte Carlos' ETTR: pairedDifference of their ETTR samples (the cards' name). */
export const ettrDifference: (a: SeededSamples, b: SeededSamples) => EttrDifference | null = pairedDifference;
