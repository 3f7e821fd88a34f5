/**
 * What a recovery policy (a "strategy" on screen, docs/glossary.md) is: the interface every folder
 * under src/sim/policies/ implements and the plug-in list (pluginList.ts) lists. Apart from the
 * registry (index.ts) so that a policy's folder can name its own type without importing the list
 * that imports it.
 */
import type { FailureTrace } from "../failures/failureTrace.ts";
import type { Scenario } from "../scenario/index.ts";
import type {
  ClosedForms,
  ClosedFormValue,
  PolicyMetrics,
  PolicyRecording,
  SummarizedMetric,
} from "../types.ts";
import type { PolicyKey } from "./policyKeys.ts";

/** One policy's run: its metrics, and its recording when asked to record. */
export interface PolicyRun {
  metrics: PolicyMetrics;
  /** Present when asked to record: of a kind the views draw (types.ts's PolicyRecording). */
  recording?: PolicyRecording;
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
 */
export interface Policy {
  /**
   * The key of its metrics in every result (scenarios' `policies`, links, the CLI's JSON, test
   * ids): a public contract, a camelCase identifier of at most 32 characters.
   */
  readonly key: PolicyKey;
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
  run(s: Scenario, failures: FailureTrace, record: boolean): PolicyRun;
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
