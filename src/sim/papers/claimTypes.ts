/**
 * A published claim and what the model gives for it (the Papers view, `npm run papers`). A claim
 * is the source's figure in its own terms, the scenario that encodes the assumptions the source
 * states, and the ones we had to add; the model's value and the verdict are computed (rows.ts).
 */
import type { PolicyKey } from "../policies/policyKeys.ts";
import type { ScenarioInput } from "../scenario/index.ts";

/** What is measured on the model's runs, in the unit the source states its figure in. */
export type ClaimMetric =
  /** A policy's ETTR, in percent. */
  | { kind: "ettr"; policy: PolicyKey }
  /** A policy's whole-job stall per failure, in minutes. */
  | { kind: "stallMinutes"; policy: PolicyKey }
  /** The job's mean time between failures: the horizon over the mean failure count. */
  | { kind: "mtbf"; unit: "hours" | "minutes" }
  /** One cause's share of the failures, in percent (the cause by its name in the scenario's list). */
  | { kind: "causeShare"; cause: string }
  /** How much longer the job takes than with no time lost: 1 / ETTR, a ratio. */
  | { kind: "slowdown"; policy: PolicyKey };

export interface ClaimSource {
  /** Authors or organisation, and the title, as cited. */
  title: string;
  year: number;
  /** Where in it: a section, a table, the abstract; an arXiv id where there is one. */
  where: string;
}

export interface Claim {
  id: string;
  /** The source's claim, in its own terms and definition. */
  claim: string;
  source: ClaimSource;
  /**
   * The published figure as the interval its stated precision allows ("44 %" is 43.5–44.5;
   * "above 90 %" is 90–100), in the metric's unit, with the figure as printed.
   */
  published: { low: number; high: number; text: string };
  metric: ClaimMetric;
  /** The scenario that encodes the source's stated assumptions (and ours, below). */
  scenario: ScenarioInput;
  /** Runs of the Monte Carlo (seeds seed … seed + runs − 1), as the page runs them from the row's link. */
  runs: number;
  /** The assumptions we had to add, said plainly. */
  assumptions: string;
  /**
   * Set when a scenario value was chosen from this very figure, so agreement is by construction:
   * what was fitted. The verdict then says "calibrated", not "reproduced".
   */
  calibrated?: string;
  /** The likeliest reason, shown only when the model's interval misses the published one. */
  whyOff: string;
}

/** The model's value: the mean over the runs and its 95 % half-width. */
export interface ModelValue {
  mean: number;
  half: number;
  runs: number;
}

export type Verdict =
  | { kind: "within" }
  /** The model's interval misses the published one by `by` (in the metric's unit), above or below it. */
  | { kind: "off"; by: number; side: "above" | "below" };

export interface ClaimRow {
  claim: Claim;
  model: ModelValue;
  verdict: Verdict;
}
