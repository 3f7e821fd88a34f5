/**
 * What the §4 closed forms of the whole-job policies share: when a Poisson form may apply at all
 * (Poisson arrivals, host-scope failures only, an unlimited spare pool), and E[e^(−λD)] over the
 * cause mix for a recovery of detection + a fixed restart.
 */
import { causeTable } from "../failures/causes.ts";
import { derived } from "../scenario/derived.ts";
import type { Scenario } from "../scenario/index.ts";

/** Why no §4 Poisson form applies, or null when one may. */
export function poissonHostOnlyBroken(s: Scenario): string | null {
  if (s.failures.arrivals === "weibull") return "Weibull arrivals: the form assumes Poisson arrivals";
  if (s.failures.arrivals === "fixed") return "fixed arrivals: the form assumes Poisson arrivals";
  if (s.failures.arrivals === "log") return "a replay of a log: the form assumes Poisson arrivals";
  if (s.spares.pool === "limited") return "a limited spare pool: waits for spares are not in the form";
  const causes = causeTable(s);
  if (causes.jobShare > 0) return "job-scope causes: the form covers host-scope failures only";
  if (causes.rackShare > 0) return "rack-scope causes: the form covers host-scope failures only";
  return null;
}

/** E[e^(−λ(detect + restart))] over the cause mix: the share of time a renewal recovery leaves. */
export function survival(s: Scenario, restartSeconds: number): number {
  const { lambdaPerSecond: lambda } = derived(s);
  const causes = causeTable(s);
  let out = 0;
  for (let c = 0; c < causes.count; c++)
    out += causes.probability[c]! * Math.exp(-lambda * (causes.syncDetectSeconds[c]! + restartSeconds));
  return out;
}

/** The renewal form with checkpoints: E[e^(−λD)] · λC / (e^(λ(C+W)) − 1); C = 0 gives E[e^(−λD)]. */
export function renewal(s: Scenario, restartSeconds: number, C: number, W: number): number {
  const { lambdaPerSecond: lambda } = derived(s);
  const e = survival(s, restartSeconds);
  return lambda > 0 && C > 0 ? (e * lambda * C) / Math.expm1(lambda * (C + W)) : e;
}
