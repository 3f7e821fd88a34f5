/**
 * The policies the cluster model compares, as one ordered registry. The engine, the Monte Carlo,
 * the CLI (JSON and table), the CSV export and the UI's results and metrics panels iterate over
 * POLICIES instead of naming the policies, so the order here is the order of every column, card
 * and JSON key.
 *
 * A policy's key is a public contract: it names the policy's metrics in the CLI's JSON, the CSV's
 * columns (through csvPrefix) and the views' test ids; `synchronous` and `ftHsdp` never change.
 */
import { FT_FORM_MAX_LOAD } from "../closedForms/closedForms.ts";
import type { FailureTrace } from "../failures/failureTrace.ts";
import type { Scenario } from "../scenario/index.ts";
import type {
  ClosedForms,
  ClosedFormValue,
  CommonRecording,
  PolicyMetrics,
  PolicyRecording,
  SummarizedMetric,
} from "../types.ts";
import { type DilocoRecording, dilocoPolicy } from "./diloco/index.ts";
import { type FtRecording, ftHsdpClosedForm, runFtHsdp } from "./ftHsdp/ftHsdp.ts";
import { hotSpareClosedForm, runHotSpare } from "./hotSpare/hotSpare.ts";
import { inMemoryClosedForm, runInMemory } from "./inMemory/inMemory.ts";
import {
  type PolicyKey as AnyPolicyKey,
  DEFAULT_POLICIES,
  type DefaultPolicyKey,
  type PerPolicy,
  registerPolicyKey,
} from "./policyKeys.ts";
import { runSynchronous, type SyncRecording } from "./synchronous/synchronous.ts";

export type { CommonRecording };

/**
 * The page's name for the policies it shows today (the default two), kept so its views compile
 * and behave as before; everything else uses policyKeys.ts's PolicyKey (every policy).
 */
export type PolicyKey = DefaultPolicyKey;
type Key = AnyPolicyKey;

/**
 * Each policy's recording type, by key: the keys of this map are the policies' keys. The
 * recordings stay typed per policy because the timeline draws them with policy-specific tracks
 * (whole-job states; FT-HSDP replica phases, stalls and job track). The whole-job policies
 * (in-memory checkpoints, hot spares) record the synchronous job's shape.
 */
export interface PolicyRecordings {
  synchronous: SyncRecording;
  ftHsdp: FtRecording;
  inMemory: SyncRecording;
  hotSpare: SyncRecording;
  diloco: DilocoRecording;
}

/** Compiles only while PolicyRecordings' keys are exactly policyKeys.ts's PolicyKey (a policy added to one but not the other). */
export type RecordingsCoverPolicyKeys = [keyof PolicyRecordings] extends [Key]
  ? [Key] extends [keyof PolicyRecordings]
    ? true
    : never
  : never;
const recordingsCoverPolicyKeys: RecordingsCoverPolicyKeys = true;
void recordingsCoverPolicyKeys;

export interface PolicyRun<K extends Key = Key> {
  metrics: PolicyMetrics;
  /** Present when asked to record. */
  recording?: PolicyRecordings[K];
}

/**
 * A recovery policy: how a job meets a failure trace.
 *
 * `run` must be a pure function of (scenario, failures, record): it reads the shared failure
 * trace (never writes it), draws no random numbers of its own, and returns the same metrics
 * whether it records or not. It is called once per run for every selected policy, in the Monte
 * Carlo's hot loop: it is a plain function, not a closure made per run, and it should allocate
 * nothing per failure. Its metrics come from policyMetrics.ts's assembleMetrics, so every metric
 * (badput included) means the same under every policy.
 *
 * A new policy is its own file (its scenario group's specs and defaults, its run function) plus,
 * here, an entry in REGISTRY, its key in policyKeys.ts and its recording type in PolicyRecordings
 * (a CommonRecording is enough). The engine, the Monte Carlo, the CLI's JSON and table and the
 * CSV export then iterate it for every scenario that selects it, with no other edit.
 */
export interface Policy<K extends Key = Key> {
  /** The key of its metrics in every result (JSON, CSV prefix's source, test ids): a public contract. */
  readonly key: K;
  /** Its name in headings and table columns. */
  readonly label: string;
  /**
   * Its name where room is short: a timeline lane's gutter on a phone, a chart's end label, a
   * legend (at most ~10 characters).
   */
  readonly shortLabel: string;
  /**
   * Its colour in charts and lanes: a CSS custom property of the theme (so light and dark differ),
   * and the colour to use where the property is not set.
   */
  readonly colour: { readonly cssVar: string; readonly fallback: string };
  /** One sentence: what the policy does when a failure strikes. */
  readonly blurb: string;
  /** The prefix of its columns in the CSV export (`sync_ettr_mean`): a public contract. */
  readonly csvPrefix: string;
  /** The metric that sets it apart, shown on its results card beside the common ones. */
  readonly cardMetric: SummarizedMetric;
  run(s: Scenario, failures: FailureTrace, record: boolean): PolicyRun<K>;
  /**
   * Its closed form (docs/model.md §3, §4), or null with the reason none applies. `base` is
   * closedForms(s): the forms shared with the page's cross-checks, which a policy may build on.
   */
  closedForm(s: Scenario, base: ClosedForms): ClosedFormValue;
  /**
   * Its own closed form as the results' formula text shows it, and what that form assumes
   * beyond the row's common assumptions ("" for nothing more).
   */
  readonly formText: { readonly formula: string; readonly assumes: string };
}

export const synchronousPolicy: Policy<"synchronous"> = {
  key: "synchronous",
  label: "Synchronous",
  shortLabel: "Sync",
  formText: { formula: "E[e^(−λD)]·λC/(e^(λ(C+W))−1)", assumes: "" },
  colour: { cssVar: "--sync", fallback: "#d1495b" },
  blurb: "Every failure stops the whole job until it restarts from the last checkpoint.",
  csvPrefix: "sync",
  cardMetric: "checkpoints",
  run: runSynchronous,
  closedForm: (_s, base) => base.syncRenewal,
};

export const ftHsdpPolicy: Policy<"ftHsdp"> = {
  key: "ftHsdp",
  label: "FT-HSDP",
  shortLabel: "FT-HSDP",
  formText: {
    formula: "e^(−λ·E[S])·(1 − λT/R)·C/(C+W)/(1 + o/100)",
    assumes: `one replica per failure, no job-scope causes, λ(S+T) ≤ ${FT_FORM_MAX_LOAD}, at most R − minReplicas replicas down at once`,
  },
  colour: { cssVar: "--ft", fallback: "#2f9e6e" },
  blurb: "A failure takes one replica offline; the rest keep training through FTAR.",
  csvPrefix: "ft_hsdp",
  cardMetric: "degradedSeconds",
  run: runFtHsdp,
  closedForm: ftHsdpClosedForm,
};

export const inMemoryPolicy: Policy<"inMemory"> = {
  key: "inMemory",
  label: "In-memory checkpoints",
  shortLabel: "In-memory",
  colour: { cssVar: "--inmem", fallback: "#3a6fd8" },
  blurb:
    "Every failure stops the whole job; it restarts from a copy in a peer's CPU memory, or from storage after a job-wide failure.",
  csvPrefix: "in_memory",
  cardMetric: "lostWorkSeconds",
  run: runInMemory,
  closedForm: inMemoryClosedForm,
  formText: { formula: "the renewal form with its own D, C, W", assumes: "host-scope failures only" },
};

export const hotSparePolicy: Policy<"hotSpare"> = {
  key: "hotSpare",
  label: "Hot spares",
  shortLabel: "Hot spares",
  colour: { cssVar: "--hotspare", fallback: "#b7791f" },
  blurb:
    "Warm standby hosts take over broken ones by live migration, with nothing rolled back; when too few are ready, the job restarts from its checkpoint.",
  csvPrefix: "hot_spare",
  cardMetric: "jobRestarts",
  run: runHotSpare,
  closedForm: hotSpareClosedForm,
  formText: {
    formula: "E[e^(−λD)], D = detect + migrate",
    assumes: "host-scope failures only, standbys never short and no checkpoints",
  },
};

/** Every policy a scenario may select, by key. */
export const REGISTRY: { readonly [K in Key]: Policy<K> } = {
  synchronous: synchronousPolicy,
  ftHsdp: ftHsdpPolicy,
  inMemory: inMemoryPolicy,
  hotSpare: hotSparePolicy,
  diloco: dilocoPolicy,
};

/**
 * The policies every scenario ran before version 3 (its default selection), in display order.
 * The page's results, metrics and sweeps still iterate this list; everything in src/sim, the CLI
 * and the CSV iterates the scenario's own selection (selectedPolicies).
 */
export const POLICIES: readonly Policy<DefaultPolicyKey>[] = DEFAULT_POLICIES.map((k) => REGISTRY[k]);

/** The policy with this key; an unknown key is refused by name. */
export function policyOf(key: string): Policy {
  const p = (REGISTRY as Readonly<Record<string, Policy>>)[key];
  if (!p) throw new Error(`no policy "${key}" is registered`);
  return p;
}

/** The policies a scenario selects, in its display order (docs/model.md §4 "Which strategies run"). */
export function selectedPolicies(s: Pick<Scenario, "policies">): readonly Policy[] {
  return s.policies.map(policyOf);
}

/**
 * A policy brought by a plug-in (or a test): any key not yet taken, any recording of a kind the
 * views draw (types.ts's PolicyRecording).
 */
export type PluginPolicy = Omit<Policy, "key" | "run"> & {
  readonly key: string;
  run(
    s: Scenario,
    failures: FailureTrace,
    record: boolean,
  ): { metrics: PolicyMetrics; recording?: PolicyRecording };
};

/**
 * Adds a policy to the registry: scenarios may then select it by key, and the engine, the Monte
 * Carlo, the CLI, the CSV, the Perfetto export and the page's views iterate it like the built-in
 * ones. The defaults and the built-in keys do not change. A key already taken is refused by name.
 * Returns a function that removes the policy again. Registration is per JavaScript realm: a
 * plug-in the page uses must also be registered in its workers.
 */
export function registerPolicy(p: PluginPolicy): () => void {
  const unregisterKey = registerPolicyKey(p.key);
  const reg = REGISTRY as unknown as Record<string, PluginPolicy>;
  reg[p.key] = p;
  return () => {
    delete reg[p.key];
    unregisterKey();
  };
}

/**
 * An object with one value per policy of `policies` (the default selection unless given), keys
 * in that order (so JSON output keeps its order). For building results once per run or summary,
 * not per failure.
 */
export function byPolicy<T>(
  f: (p: Policy) => T,
  policies: readonly Policy[] = POLICIES as readonly Policy[],
): PerPolicy<T> {
  const out = {} as PerPolicy<T>;
  for (const p of policies) out[p.key] = f(p);
  return out;
}
