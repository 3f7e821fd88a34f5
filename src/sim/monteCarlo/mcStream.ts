/**
 * A Monte Carlo run to a stated precision, in chunks that any number of workers may compute in
 * any order: the page's streaming band. Three rules make its result a function of the
 * scenario and the settings alone, never of the pool size or of which worker answered first:
 *
 * - the chunks are fixed by the scenario (chunkAt): chunk k always covers the same seeds;
 * - chunks are added to the accumulator in seed order (a chunk that arrives early waits), so the
 *   summary of the first n runs is exactly monteCarlo(s, n);
 * - the stop is decided only at chunk ends, in order: the first chunk end with at least
 *   minRuns runs where every selected policy's 95 % half-width is within the precision, or the cap.
 *
 * A stream may start from another's runs of the same scenario (new settings): it keeps
 * them (at most the new cap) and goes on from there, so a looser precision keeps the runs a tighter
 * one computed and a tighter one continues from them; the summary of its n runs is still exactly
 * monteCarlo(s, n), only the count may be more than a fresh stream would stop at.
 *
 * The interval is the normal one, mean ± 1.96·sd/√n (sd the sample standard deviation), which is
 * what AIReSim's stop rule uses; a difference between two Monte Carlos is paired by seed over the
 * seeds both ran (the policies and a baseline of the same seed share their failure draws when the
 * cluster is the same, so pairing removes most of the noise the two have in common).
 */

import type { PolicyKey } from "../policies/policyKeys.ts";
import { replayIsOneRun } from "../scenario/derived.ts";
import type { Scenario } from "../scenario/index.ts";
import { BADPUT_CATEGORIES, type BadputCategory, type ClosedForms, type MonteCarloResult } from "../types.ts";
import { RunAccumulator, runsPerSlice, type SummarizedRun } from "./mcSummary.ts";

/** z for a two-sided 95 % normal interval. */
export const Z95 = 1.96;

export interface McSettings {
  /**
   * Stop when every policy's 95 % half-width of the mean ETTR is at most this (a fraction: 0.005 =
   * ±0.5 point). Its range, default and link key: src/link/displaySettings.ts's mcPrecision.
   */
  precision: number;
  /** Never more runs than this (displaySettings.ts's mcCap). */
  cap: number;
}

/**
 * Runs before the precision may stop a Monte Carlo: the sample's standard deviation (and its
 * p5/p95, nearest-rank) from fewer is too rough to trust the interval it gives.
 */
export const MIN_RUNS = 100;

/**
 * Chunk sizes double from one run (1, 2, 4, 8, …) up to about 25,000 failures or 25 runs: the
 * first band is on screen after a single run (tens of milliseconds after an edit, even when the
 * machine is busy), it has an interval after the second chunk, and the later chunks are larger
 * (fewer messages) but still short, so a newer edit never waits long for a worker to be free.
 */
export const CHUNK_FAILURES = 25_000;
const CHUNK_MAX_RUNS = 25;

export interface Chunk {
  start: number;
  count: number;
}

/** Chunk k of the scenario's Monte Carlo, cut at the cap (count 0: past the cap). */
export function chunkAt(s: Scenario, cap: number, k: number): Chunk {
  const full = runsPerSlice(s, CHUNK_FAILURES, CHUNK_MAX_RUNS);
  // Chunks 0..ramp−1 are 1, 2, …, 2^(ramp−1) runs (each less than `full`); then `full` each.
  const ramp = Math.ceil(Math.log2(full));
  const start = k <= ramp ? 2 ** k - 1 : 2 ** ramp - 1 + (k - ramp) * full;
  const size = k < ramp ? 2 ** k : full;
  const from = Math.min(cap, start);
  return { start: from, count: Math.min(size, cap - from) };
}

/**
 * Where the chunk that begins at run `pos` ends, on chunkAt's grid (uncut): chunks handed out from
 * run 0 are chunkAt's; a stream that goes on from kept runs joins the grid where they end.
 */
export function gridEndAfter(s: Scenario, pos: number): number {
  const full = runsPerSlice(s, CHUNK_FAILURES, CHUNK_MAX_RUNS);
  const ramp = Math.ceil(Math.log2(full));
  const rampEnd = 2 ** ramp - 1;
  if (pos >= rampEnd) return rampEnd + (Math.floor((pos - rampEnd) / full) + 1) * full;
  let end = 1;
  while (end <= pos) end = 2 * end + 1;
  return end;
}

/** What the band shows of one policy's ETTR over the first n runs. */
export interface EttrEstimate {
  n: number;
  mean: number;
  /** 95 % half-width, 1.96·sd/√n (0 for one run: nothing to go on; the count says so). */
  half: number;
  p5: number;
  p95: number;
  /** ETTR of runs 0..n−1, in seed order (for paired differences). Read only. */
  samples: Float64Array;
}

/** Mean and 95 % half-width of a sample (half 0 below 2 values). */
export function meanAndHalf(x: Float64Array): { mean: number; half: number } {
  const n = x.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[i]!;
  const mean = sum / n;
  if (n < 2) return { mean, half: 0 };
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (x[i]! - mean) ** 2;
  return { mean, half: (Z95 * Math.sqrt(ss / (n - 1))) / Math.sqrt(n) };
}

function nearestRankOf(sorted: Float64Array, p: number): number {
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]!;
}

export function ettrEstimate(samples: Float64Array): EttrEstimate {
  const { mean, half } = meanAndHalf(samples);
  const sorted = samples.slice().sort();
  return {
    n: samples.length,
    mean,
    half,
    p5: nearestRankOf(sorted, 5),
    p95: nearestRankOf(sorted, 95),
    samples,
  };
}

export type McStop = "precision" | "cap";

/**
 * Per selected policy, each badput category's share of wall time in runs 0..n−1, in seed order
 * (for paired differences: the comparison's badput). Read only.
 */
export type BadputSamples = Partial<Record<PolicyKey, Record<BadputCategory, Float64Array>>>;

export interface McSnapshot {
  /** Runs merged so far (a prefix: seeds 0..n−1). */
  n: number;
  /** Per selected policy, in display order. */
  ettr: Partial<Record<PolicyKey, EttrEstimate>>;
  /** Why it stopped, once it has; null while it runs. */
  stop: McStop | null;
  /** Runs kept from the stream it went on from (0 for a fresh one): they may pass where this one would stop. */
  kept: number;
}

/**
 * Takes chunk results in any order and merges them in seed order, deciding the stop at each
 * chunk end. The caller hands out chunks (next()) to whichever worker is free and feeds back
 * what comes (put()); once `stop` is set, chunks still out are ignored.
 */
export class McStream {
  private readonly acc: RunAccumulator;
  private readonly keys: PolicyKey[];
  /** Chunks that arrived before the ones they follow, by index. */
  private readonly early = new Map<number, SummarizedRun[]>();
  /** The size of each chunk handed out and not yet merged, by index. */
  private readonly out = new Map<number, number>();
  /** The next chunk index to merge, and the next one to hand out; the run it starts at. */
  private merged = 0;
  private issued = 0;
  private nextRun = 0;
  /** Runs kept from the stream this one goes on from, and the chunks they came in. */
  readonly kept: number;
  private readonly keptChunks: number;
  private stopped: McStop | null = null;

  readonly settings: McSettings;

  /**
   * `from`: a stream of the same scenario whose merged runs this one keeps (at most its cap) and
   * goes on from; it may stop at once (a looser precision the kept runs already meet).
   */
  constructor(
    readonly scenario: Scenario,
    settings: McSettings,
    from?: McStream,
  ) {
    // §5: a replay whose every seed gives the same run is one run, not a band.
    this.settings = replayIsOneRun(scenario) ? { ...settings, cap: 1 } : settings;
    this.acc = new RunAccumulator(scenario, this.settings.cap);
    this.keys = [...scenario.policies];
    this.kept = from ? Math.min(from.runs, this.settings.cap) : 0;
    this.keptChunks = from && this.kept > 0 ? Math.max(1, from.merged) : 0;
    if (from && this.kept > 0) {
      this.acc.keepFrom(from.acc, this.kept);
      this.nextRun = this.kept;
      this.stopped = this.decide();
    }
  }

  get stop(): McStop | null {
    return this.stopped;
  }

  get runs(): number {
    return this.acc.added;
  }

  /** Chunks handed out so far (next() calls that gave one), the kept runs' among them. */
  get handedOut(): number {
    return this.keptChunks + this.issued;
  }

  /** The next chunk to compute, or null when none is left (stopped, or all handed out). */
  next(): { index: number; chunk: Chunk } | null {
    if (this.stopped) return null;
    const start = this.nextRun;
    const count = Math.min(gridEndAfter(this.scenario, start), this.settings.cap) - start;
    if (count <= 0) return null;
    this.nextRun += count;
    this.out.set(this.issued, count);
    return { index: this.issued++, chunk: { start, count } };
  }

  /** A chunk is back; returns true when the merged prefix grew (a new snapshot is worth showing). */
  put(index: number, runs: SummarizedRun[]): boolean {
    if (this.stopped || index < this.merged) return false;
    const expected = this.out.get(index);
    if (expected === undefined) throw new RangeError(`chunk ${index} was not handed out`);
    if (runs.length !== expected)
      throw new RangeError(`chunk ${index} has ${runs.length} runs, not ${expected}`);
    this.early.set(index, runs);
    let grew = false;
    for (let r = this.early.get(this.merged); r !== undefined; r = this.early.get(this.merged)) {
      this.early.delete(this.merged);
      this.out.delete(this.merged);
      for (const run of r) this.acc.add(run);
      this.merged++;
      grew = true;
      this.stopped = this.decide();
      if (this.stopped) {
        this.early.clear();
        break;
      }
    }
    return grew;
  }

  private decide(): McStop | null {
    const n = this.acc.added;
    const atCap = n >= this.settings.cap ? "cap" : null;
    if (n < Math.min(MIN_RUNS, this.settings.cap)) return atCap;
    for (const key of this.keys) {
      if (meanAndHalf(this.acc.column(key, "ettr")).half > this.settings.precision) return atCap;
    }
    // Reached at the cap too: the precision is what the person asked for, so it is what is said.
    return "precision";
  }

  snapshot(): McSnapshot {
    const ettr: McSnapshot["ettr"] = {};
    for (const key of this.keys) ettr[key] = ettrEstimate(this.acc.column(key, "ettr"));
    return { n: this.acc.added, ettr, stop: this.stopped, kept: this.kept };
  }

  /**
   * Every selected policy's badput shares of the runs merged so far (badputSamples()'s type says
   * what). Views into the accumulator, not copies: later merges write past them, and a stream that
   * goes on from this one copies the runs it keeps into its own. Whoever keeps them keeps the
   * accumulator's badput columns alive: cap × BADPUT_CATEGORIES.length × policies doubles at most
   * (the cap is mcn=, at most 20,000 by displaySettings.ts, and MAX_POLICIES 5: 11 categories ×
   * 5 × 20,000 × 8 bytes is 8.8 MB a stream), which the stream held anyway.
   */
  badputSamples(): BadputSamples {
    const out: BadputSamples = {};
    for (const key of this.keys) {
      const byCategory = {} as Record<BadputCategory, Float64Array>;
      for (const c of BADPUT_CATEGORIES) byCategory[c] = this.acc.badputColumn(key, c);
      out[key] = byCategory;
    }
    return out;
  }

  /**
   * The full summary of the runs merged so far (every metric; costlier than snapshot()), with the
   * scenario's closed forms (policyForms.ts's closedFormsOf(this.scenario)): the caller brings
   * them, as this file (in the page's first-load script) imports no policy's code.
   */
  result(closedForm: ClosedForms): MonteCarloResult {
    return this.acc.finishWith(closedForm);
  }
}
