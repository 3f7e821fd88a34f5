/**
 * Each claim's model value and verdict: the claim's scenario run over seeds seed … seed + runs − 1
 * (the runs the Cluster view makes from the row's link), the metric measured on every run, its
 * mean with a 95 % interval, and whether that interval meets the published one.
 */
import { runScenario } from "../engine.ts";
import { meanAndHalf } from "../monteCarlo/mcStream.ts";
import { seedOf } from "../monteCarlo/mcSummary.ts";
import { parseScenario, type Scenario } from "../scenario/index.ts";
import type { PolicyMetrics, RunResult } from "../types.ts";
import { CLAIMS } from "./claims.ts";
import type { Claim, ClaimMetric, ClaimRow, ModelValue } from "./claimTypes.ts";
import { verdictOf } from "./verdict.ts";

export { verdictOf };

function metricsOf(run: RunResult, key: string): PolicyMetrics {
  const m = (run as unknown as Readonly<Record<string, PolicyMetrics | undefined>>)[key];
  if (!m) throw new RangeError(`the claim reads policy ${key}, which its scenario does not run`);
  return m;
}

/** The metric's per-run value, or for a ratio of means (mtbf, slowdown) the quantity averaged. */
function perRun(metric: ClaimMetric, s: Scenario, run: RunResult): number {
  switch (metric.kind) {
    case "ettr":
      return 100 * metricsOf(run, metric.policy).ettr;
    case "stallMinutes":
      return metricsOf(run, metric.policy).stallSecondsPerFailure / 60;
    case "mtbf":
      return metricsOf(run, s.policies[0]!).failures;
    case "causeShare": {
      const i = s.failures.causes.findIndex((c) => c.name === metric.cause);
      if (i < 0) throw new RangeError(`the claim's scenario has no cause "${metric.cause}"`);
      const m = metricsOf(run, s.policies[0]!);
      return m.failures === 0 ? 0 : (100 * m.causeCount[i]!) / m.failures;
    }
    case "slowdown":
      return metricsOf(run, metric.policy).ettr;
  }
}

/**
 * The model's value from the per-run values. A mean time between failures is the horizon over
 * the mean count, and a slowdown 1 / mean ETTR: ratios of means, whose half-widths follow from
 * the mean's by the delta method (f(x) = c / x: |f′| = c / x²).
 */
function modelValue(metric: ClaimMetric, s: Scenario, x: Float64Array): ModelValue {
  const { mean, half } = meanAndHalf(x);
  const runs = x.length;
  if (metric.kind === "mtbf") {
    const horizon = s.training.days * (metric.unit === "hours" ? 24 : 1440);
    return { mean: horizon / mean, half: (horizon * half) / (mean * mean), runs };
  }
  if (metric.kind === "slowdown") return { mean: 1 / mean, half: half / (mean * mean), runs };
  return { mean, half, runs };
}

/** The completed scenario a claim runs (refused by name if the table holds a bad one). */
export function claimScenario(claim: Claim): Scenario {
  return parseScenario(claim.scenario);
}

export function claimRow(claim: Claim): ClaimRow {
  const s = claimScenario(claim);
  const x = new Float64Array(claim.runs);
  for (let i = 0; i < claim.runs; i++) x[i] = perRun(claim.metric, s, runScenario(s, { seed: seedOf(s, i) }));
  const model = modelValue(claim.metric, s, x);
  return { claim, model, verdict: verdictOf(claim.published, model) };
}

/** Every row, in the table's order. */
export function claimRows(claims: readonly Claim[] = CLAIMS): ClaimRow[] {
  return claims.map(claimRow);
}
