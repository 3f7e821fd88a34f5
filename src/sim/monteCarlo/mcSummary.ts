/**
 * The Monte Carlo's summaries, apart from its runs (monteCarlo.ts): seeds, the per-run cut a worker
 * sends, and the accumulator that summarizes runs in seed order. It imports neither the engine nor
 * any policy, so the page's first-load script (which merges the streaming bands, mcStream.ts)
 * stays without them: the engine and the policies load with the Cluster view and the workers.
 *
 * Seed i is (s.seed + i) >>> 0 for i = 0..N−1, so one seed is exactly runScenario(s).
 *
 * Percentiles are nearest-rank on the sorted sample: the p-th percentile of N values is the
 * value of rank ceil(p/100 · N) (1-based), so p5 and p95 are always values that occurred.
 *
 * Stall per failure is summarized over the runs that had a failure: a run without one has no
 * stall per failure, and counting it as 0 would drag the mean towards 0 on short horizons while
 * every actual failure still stalls the job for minutes. When no run failed it reads 0.
 */

import type { PolicyKey } from "../policies/policyKeys.ts";
import { derived } from "../scenario/derived.ts";
import type { Scenario } from "../scenario/index.ts";
import {
  BADPUT_CATEGORIES,
  type BadputCategory,
  type ClosedForms,
  type MetricsSummary,
  type MonteCarloResult,
  type PolicyMetrics,
  type SummarizedMetric,
  type Summary,
} from "../types.ts";

export const SUMMARIZED_METRICS: readonly SummarizedMetric[] = [
  "ettr",
  "failures",
  "stallSeconds",
  "stallSecondsPerFailure",
  "lostWorkSeconds",
  "checkpoints",
  "degradedSeconds",
  "meanHealthyReplicas",
  "jobRestarts",
  "spareWaitSeconds",
  "longestSpareWaitSeconds",
  "poolEmptySeconds",
  "slowEpisodes",
  "evictions",
  "roundsCommitted",
  "roundsDiscarded",
  "meanParticipants",
];

/** The seed of run i of a Monte Carlo over s: run 0 is the scenario's own run. */
export function seedOf(s: Scenario, i: number): number {
  return (s.seed + i) >>> 0;
}

/** What the summary reads of one policy's run (a worker sends only this). */
export type SummarizedMetrics = Pick<
  PolicyMetrics,
  SummarizedMetric | "causeCount" | "causeStallSeconds" | "badput"
>;
/** What a Monte Carlo keeps of one run: the summarized metrics of every selected policy, by key. */
export type SummarizedRun = Partial<Record<PolicyKey, SummarizedMetrics>>;

/** Nearest-rank percentile of an ascending sample (see the file comment). */
export function nearestRank(sorted: Float64Array, p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export function summarize(values: Float64Array): Summary {
  let sum = 0;
  for (const v of values) sum += v;
  const sorted = values.slice().sort();
  return { mean: sum / values.length, p5: nearestRank(sorted, 5), p95: nearestRank(sorted, 95) };
}

/** One column of samples per policy and metric, in seed order; per cause, a count and a stall column. */
class Samples {
  private readonly columns: Record<SummarizedMetric, Float64Array>;
  private readonly causeCount: Float64Array[];
  private readonly causeStall: Float64Array[];
  private readonly badput: Float64Array[];

  constructor(
    capacity: number,
    private readonly causeNames: readonly string[],
  ) {
    this.columns = Object.fromEntries(
      SUMMARIZED_METRICS.map((m) => [m, new Float64Array(capacity)]),
    ) as Record<SummarizedMetric, Float64Array>;
    this.causeCount = causeNames.map(() => new Float64Array(capacity));
    this.causeStall = causeNames.map(() => new Float64Array(capacity));
    this.badput = BADPUT_CATEGORIES.map(() => new Float64Array(capacity));
  }

  /**
   * Run i from a packed row, rows[k..] (one policy's part of a row as runChunk in
   * cli/monteCarloChunk.ts writes it: the summarized metrics, each cause's count, each cause's
   * stall, each badput share); returns where the next policy's part begins. The CLI's main thread
   * adds every run of every thread this way: unpacked into objects first, that was a tenth of its
   * time with two threads (an object per policy, two arrays per run).
   */
  setPacked(i: number, rows: Float64Array, k: number): number {
    for (const name of SUMMARIZED_METRICS) this.columns[name][i] = rows[k++]!;
    for (let c = 0; c < this.causeNames.length; c++) this.causeCount[c]![i] = rows[k++]!;
    for (let c = 0; c < this.causeNames.length; c++) this.causeStall[c]![i] = rows[k++]!;
    for (let b = 0; b < BADPUT_CATEGORIES.length; b++) this.badput[b]![i] = rows[k++]!;
    return k;
  }

  /** Runs 0..n−1 of another table of the same scenario (a Monte Carlo that goes on from another's runs). */
  copyFrom(o: Samples, n: number): void {
    for (const name of SUMMARIZED_METRICS) this.columns[name].set(o.columns[name].subarray(0, n));
    const pairs = [
      [this.causeCount, o.causeCount],
      [this.causeStall, o.causeStall],
      [this.badput, o.badput],
    ] as const;
    for (const [to, from] of pairs) for (let k = 0; k < from.length; k++) to[k]!.set(from[k]!.subarray(0, n));
  }

  set(i: number, m: SummarizedMetrics): void {
    for (const name of SUMMARIZED_METRICS) this.columns[name][i] = m[name];
    for (let c = 0; c < this.causeNames.length; c++) {
      this.causeCount[c]![i] = m.causeCount[c]!;
      this.causeStall[c]![i] = m.causeStallSeconds[c]!;
    }
    for (let b = 0; b < BADPUT_CATEGORIES.length; b++) this.badput[b]![i] = m.badput[BADPUT_CATEGORIES[b]!];
  }

  /** Values 0..n−1 of one metric, in seed order (a view, not a copy). */
  column(name: SummarizedMetric, n: number): Float64Array {
    return this.columns[name].subarray(0, n);
  }

  /** Shares 0..n−1 of one badput category, in seed order (a view, not a copy). */
  badputColumn(category: BadputCategory, n: number): Float64Array {
    return this.badput[BADPUT_CATEGORIES.indexOf(category)]!.subarray(0, n);
  }

  summary(n: number): MetricsSummary {
    const out = Object.fromEntries(
      SUMMARIZED_METRICS.map((name) => [name, summarize(this.columns[name].subarray(0, n))]),
    ) as Record<SummarizedMetric, Summary>;
    const failed = this.columns.stallSecondsPerFailure
      .subarray(0, n)
      .filter((_, i) => this.columns.failures[i]! > 0);
    out.stallSecondsPerFailure = failed.length > 0 ? summarize(failed) : { mean: 0, p5: 0, p95: 0 };
    const causes = this.causeNames.map((name, c) => ({
      name,
      count: summarize(this.causeCount[c]!.subarray(0, n)),
      stallSeconds: summarize(this.causeStall[c]!.subarray(0, n)),
    }));
    const badput = {} as Record<BadputCategory, Summary>;
    BADPUT_CATEGORIES.forEach((k, b) => {
      badput[k] = summarize(this.badput[b]!.subarray(0, n));
    });
    return { ...out, causes, badput };
  }
}

/**
 * Runs per slice of a Monte Carlo that reports progress or yields between slices: as many as
 * draw about `failures` failures in all (a slice's cost follows its failures), at least 1 and at
 * most `maxRuns`. A fixed count of runs would leave minutes between two progress ticks on the
 * largest scenario the validator accepts (a million failures a run).
 */
export function runsPerSlice(s: Scenario, failures: number, maxRuns: number): number {
  const perRun = Math.max(1, derived(s).expectedFailures + derived(s).expectedSlowEpisodes);
  return Math.max(1, Math.min(maxRuns, Math.floor(failures / perRun)));
}

export class RunAccumulator {
  /** One sample table per selected policy, in display order (an array: add() walks it per run). */
  private readonly samples: Samples[];
  private readonly keys: PolicyKey[];
  private count = 0;

  /** seeds: how many runs will be added (at most). */
  constructor(
    readonly scenario: Scenario,
    private readonly seeds: number,
  ) {
    const names = scenario.failures.causes.map((c) => c.name);
    // The selection's keys (policies.ts's selectedPolicies(s) maps these very keys to their
    // policies): read from the scenario so that this file imports no policy's code.
    this.keys = [...scenario.policies];
    this.samples = this.keys.map(() => new Samples(seeds, names));
  }

  get added(): number {
    return this.count;
  }

  /**
   * The first n runs of another accumulator of the same scenario, as if add()ed here (this one
   * empty): a Monte Carlo whose settings changed keeps the runs it has (mcStream.ts).
   */
  keepFrom(o: RunAccumulator, n: number): void {
    if (o.scenario !== this.scenario) throw new RangeError("runs of another scenario");
    if (this.count !== 0 || n > o.count || n > this.seeds) throw new RangeError(`cannot keep ${n} runs`);
    for (let p = 0; p < this.samples.length; p++) this.samples[p]!.copyFrom(o.samples[p]!, n);
    this.count = n;
  }

  add(run: SummarizedRun): void {
    if (this.count >= this.seeds) throw new RangeError(`more than the ${this.seeds} runs announced`);
    for (let p = 0; p < this.keys.length; p++) {
      const m = run[this.keys[p]!];
      if (!m) throw new RangeError(`a run without the selected policy ${this.keys[p]}`);
      this.samples[p]!.set(this.count, m);
    }
    this.count++;
  }

  /**
   * add() of a run packed by runChunk (cli/monteCarloChunk.ts): every selected policy's part in
   * display order, from rows[offset]; returns the offset of the next run.
   */
  addPacked(rows: Float64Array, offset: number): number {
    if (this.count >= this.seeds) throw new RangeError(`more than the ${this.seeds} runs announced`);
    let k = offset;
    for (let p = 0; p < this.samples.length; p++) k = this.samples[p]!.setPacked(this.count, rows, k);
    this.count++;
    return k;
  }

  /**
   * One policy's values of one metric for the runs added so far, in seed order: a view that later
   * add()s never change (they write past it), so a streaming band can keep it.
   */
  column(key: PolicyKey, name: SummarizedMetric): Float64Array {
    const p = this.keys.indexOf(key);
    if (p < 0) throw new RangeError(`policy ${key} is not selected`);
    return this.samples[p]!.column(name, this.count);
  }

  /**
   * One policy's share of wall time lost to one badput category for the runs added so far, in
   * seed order: a view as column() gives, that later add()s never change.
   */
  badputColumn(key: PolicyKey, category: BadputCategory): Float64Array {
    const p = this.keys.indexOf(key);
    if (p < 0) throw new RangeError(`policy ${key} is not selected`);
    if (!BADPUT_CATEGORIES.includes(category)) throw new RangeError(`no badput category ${category}`);
    return this.samples[p]!.badputColumn(category, this.count);
  }

  /**
   * The summary of the runs added so far (at least one), keys in the order of the contract, with
   * the scenario's closed forms (policyForms.ts's closedFormsOf(scenario), which the caller brings:
   * they need every selected policy's code).
   */
  finishWith(closedForm: ClosedForms): MonteCarloResult {
    if (this.count === 0) throw new RangeError("no runs to summarize");
    const out = { scenario: this.scenario, seeds: this.count } as MonteCarloResult;
    this.keys.forEach((key, i) => {
      out[key] = this.samples[i]!.summary(this.count);
    });
    out.closedForm = closedForm;
    return out;
  }
}
