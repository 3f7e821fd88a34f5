/**
 * The closed forms' result types (docs/model.md §3, §4). Version 1's forms are the synchronous and
 * FT-HSDP policies' own arithmetic, so their fields are named by those keys (a public contract:
 * the CLI's JSON `closedForm`); a leaf module, so that types.ts and closedForms.ts share it.
 */
import type { PolicyKey } from "../policies/policyKeys.ts";

/** A closed form's value, or null with the reason it does not apply ("—" in the UI). */
export interface ClosedFormValue {
  value: number | null;
  /** What the value is (e.g. "exact renewal form"), or why there is none. */
  note: string;
}

export interface ClosedForms {
  /**
   * Version 1's fixed-arrival arithmetic, whatever the arrivals and checkpoints (kept bit for bit
   * for old readers of the CLI's JSON); `fixedArrivals` is the form with its assumptions.
   */
  fixed: { synchronous: number; ftHsdp: number };
  /** Version 1's E[e^(−λD)], whatever the arrivals; `poissonNoRollback` is the form with its assumptions. */
  poissonSyncNoRollback: number;
  /** Meta's first-order model clamped to [0, 1], as version 1 wrote it; `metaApproximation` says where it holds. */
  metaFirstOrder: number | null;
  /** §3: synchronous, Poisson, with checkpoints: E[e^(−λD)]·λC/(e^(λ(C+W))−1), exact for this model. */
  syncRenewal: ClosedFormValue;
  /** §3: FT-HSDP, Poisson, first order: e^(−λ·E[S])·(1 − λT/R)·C/(C+W). */
  ftFirstOrder: ClosedFormValue;
  /** Meta's first-order model with its validity (λ(C+W) ≪ 1), or why it does not apply. */
  metaApproximation: ClosedFormValue;
  /** §3: fixed arrivals every τ = 1/λ: sync (τ − D)/τ, or k·C/τ with checkpoints; FT-HSDP (τ − S − T/R)/τ. */
  fixedArrivals: { synchronous: ClosedFormValue; ftHsdp: ClosedFormValue };
  /** §1: synchronous, Poisson, no checkpoints (so no rollback): E[e^(−λD)]. */
  poissonNoRollback: ClosedFormValue;
  /**
   * §4: each selected policy's own form, by key (its module's closedForm), set by the engine and
   * the Monte Carlo (policyForms.ts); absent from closedForms()'s own result.
   */
  policies?: Partial<Record<PolicyKey, ClosedFormValue>>;
  /**
   * The CLI's JSON only: version 1's keys above that keep their old numbers for old readers (the
   * old-links rule), each with what it ignores and which key to read instead.
   */
  deprecated?: Readonly<Record<"fixed" | "poissonSyncNoRollback" | "metaFirstOrder", string>>;
}
