/**
 * The policies the cluster model compares, as one ordered registry. The engine, the Monte Carlo,
 * the CLI (JSON and table), the CSV export and the UI's results and metrics panels iterate over
 * POLICIES instead of naming the policies, so the order here is the order of every column, card
 * and JSON key.
 *
 * A policy's key is a public contract: it names the policy's metrics in the CLI's JSON, the CSV's
 * columns (through csvPrefix) and the views' test ids; `synchronous` and `ftHsdp` never change.
 */
import type { FailureTrace } from "./failureTrace.ts";
import { type FtRecording, runFtHsdp } from "./ftHsdp.ts";
import type { Scenario } from "./scenario.ts";
import { runSynchronous, type SyncRecording } from "./synchronous.ts";
import type { PolicyKey, PolicyMetrics, ProgressCurve, SparePoolHistory, SummarizedMetric } from "./types.ts";

/** What every policy's recording holds, whatever else it draws: the timeline reads these generically. */
export interface CommonRecording {
  progress: ProgressCurve;
  /** Whole-job stop attributed to each failure (the failure log's stall column). */
  stallPerFailure: Float64Array;
  /** Training rolled back at each failure. */
  lostPerFailure: Float64Array;
  /** The policy's own spare pool over time; absent with an unlimited pool. */
  spares?: SparePoolHistory;
}

/**
 * Each policy's recording type, by key: the keys of this map are the policies' keys. The
 * recordings stay typed per policy because the timeline draws them with policy-specific tracks
 * (sync states; FT-HSDP replica phases, stalls and job track).
 */
export interface PolicyRecordings {
  synchronous: SyncRecording;
  ftHsdp: FtRecording;
}

export type { PolicyKey };

/** Compiles only while PolicyRecordings' keys are exactly types.ts's PolicyKey (a policy added to one but not the other). */
export type RecordingsCoverPolicyKeys = [keyof PolicyRecordings] extends [PolicyKey]
  ? [PolicyKey] extends [keyof PolicyRecordings]
    ? true
    : never
  : never;
const recordingsCoverPolicyKeys: RecordingsCoverPolicyKeys = true;
void recordingsCoverPolicyKeys;

export interface PolicyRun<K extends PolicyKey = PolicyKey> {
  metrics: PolicyMetrics;
  /** Present when asked to record. */
  recording?: PolicyRecordings[K];
}

/**
 * A recovery policy: how a job meets a failure trace.
 *
 * `run` must be a pure function of (scenario, failures, record): it reads the shared failure
 * trace (never writes it), draws no random numbers of its own, and returns the same metrics
 * whether it records or not. It is called once per run for every policy, in the Monte Carlo's
 * hot loop: it is a plain function, not a closure made per run, and it should allocate nothing
 * per failure.
 *
 * A new policy is its own file with a `run` (e.g. src/sim/myPolicy.ts) plus, here, an entry in
 * POLICIES and its recording type in PolicyRecordings (a CommonRecording is enough). The Monte
 * Carlo, the CLI's JSON and table, the CSV export and the results and metrics panels then show it
 * with no other edit, and the engine files its progress curve and spare pool in the trace under
 * its key. What stays per policy, on purpose, because each is drawn or derived its own way: its
 * timeline lane (its intervals need a field in Trace, copied in engine.ts, and a track in
 * src/ui/explorer beside syncTrack.ts / ftTrack.ts), its line in the goodput and spare-pool charts
 * and its colours (explorer.css; Sweeps.tsx's TONE), its failure-log columns (FailureLog's
 * syncStallSeconds-style fields), the two-policy comparisons (the ETTR gain line, the story), and
 * its closed forms (closedForms.ts), which are its own mathematics.
 */
export interface Policy<K extends PolicyKey = PolicyKey> {
  /** The key of its metrics in every result (JSON, CSV prefix's source, test ids): a public contract. */
  readonly key: K;
  /** Its name in headings and table columns. */
  readonly label: string;
  /** One sentence: what the policy does when a failure strikes. */
  readonly blurb: string;
  /** The prefix of its columns in the CSV export (`sync_ettr_mean`): a public contract. */
  readonly csvPrefix: string;
  /** The metric that sets it apart, shown on its results card beside the common ones. */
  readonly cardMetric: SummarizedMetric;
  run(s: Scenario, failures: FailureTrace, record: boolean): PolicyRun<K>;
}

export const synchronousPolicy: Policy<"synchronous"> = {
  key: "synchronous",
  label: "Synchronous",
  blurb: "Every failure stops the whole job until it restarts from the last checkpoint.",
  csvPrefix: "sync",
  cardMetric: "checkpoints",
  run: runSynchronous,
};

export const ftHsdpPolicy: Policy<"ftHsdp"> = {
  key: "ftHsdp",
  label: "FT-HSDP",
  blurb: "A failure takes one replica offline; the rest keep training through FTAR.",
  csvPrefix: "ft_hsdp",
  cardMetric: "degradedSeconds",
  run: runFtHsdp,
};

/** Every policy, in the order of every column, card and JSON key. */
export const POLICIES: readonly Policy[] = [synchronousPolicy, ftHsdpPolicy];

/**
 * An object with one value per policy, keys in registry order (so JSON output keeps its order).
 * For building results once per run or summary, not per failure.
 */
export function byPolicy<T>(f: (p: Policy) => T): Record<PolicyKey, T> {
  const out = {} as Record<PolicyKey, T>;
  for (const p of POLICIES) out[p.key] = f(p);
  return out;
}
