/**
 * The engine's DiLoCo against the reference's own reading of docs/model.md §7
 * (./independentDiloco.ts):
 * - run by run on generated scenarios (racks, placement, causes with job scope, spares, hangs,
 *   checkpoints, minReplicas, slow hosts with and without eviction, every diloco field), on the
 *   engine's failures and episodes, every metric and badput share within 1e-9;
 * - in Monte Carlo means with independent dice on each side;
 * - ETTR + every badput share = 1 on both sides;
 * - the closed form beside the Monte Carlo where §7 calls it exact (no failures, no slow hosts),
 *   "—" with the reason otherwise.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runOnTrace } from "../../sim/engine.ts";
import { generateFailureTrace } from "../../sim/failures/failureTrace.ts";
import { monteCarlo } from "../../sim/monteCarlo/monteCarlo.ts";
import { parseScenario, type Scenario, type ScenarioInput } from "../../sim/scenario/index.ts";
import { drawSlowEpisodes, withEvictions } from "../../sim/slow/slowEpisodes.ts";
import { BADPUT_CATEGORIES, type MetricsSummary, type PolicyMetrics } from "../../sim/types.ts";
import { dilocoScenario } from "../scenario.arbitrary.ts";
import { disagreementsV3 } from "./agreement.ts";
import { referenceFailures } from "./failures.ts";
import { type DilocoReferenceMetrics, referenceDiloco } from "./independentDiloco.ts";
import { knobsOf } from "./knobs.ts";
import { referenceSlowRun, withReferenceEvictions } from "./slow.ts";
import { fromEngineEpisodes, fromEngineTrace } from "./traces.ts";

const LONG = { timeout: 240_000 };

const ROUND_METRICS = ["roundsCommitted", "roundsDiscarded", "meanParticipants"] as const;

function sumOf(ettr: number, share: (c: (typeof BADPUT_CATEGORIES)[number]) => number): number {
  let total = ettr;
  for (const c of BADPUT_CATEGORIES) total += share(c);
  return total;
}

/** The disagreements of one run: every shared metric, every badput share, the rounds, both sums. */
function compare(s: Scenario, e: PolicyMetrics, ref: DilocoReferenceMetrics, evictions: number): string[] {
  const H = s.training.days * 86_400;
  const d = disagreementsV3(e, ref, H).filter((x) => evictions === 0 || !x.startsWith("Σ causeStallSeconds"));
  for (const m of ROUND_METRICS)
    if (Math.abs(e[m] - ref[m]) > 1e-9 * Math.max(1, ref[m]))
      d.push(`${m}: engine ${e[m]} vs reference ${ref[m]}`);
  const engineSum = sumOf(e.ettr, (c) => e.badput[c]);
  const refSum = sumOf(ref.ettr, (c) => ref.badput[c] / H);
  if (Math.abs(engineSum - 1) > 1e-9) d.push(`engine ETTR + badput = ${engineSum}`);
  if (Math.abs(refSum - 1) > 1e-9) d.push(`reference ETTR + badput = ${refSum}`);
  return d;
}

describe("DiLoCo: engine vs an independent reading of docs/model.md §7, run by run", () => {
  it("agrees on 120 generated scenarios, on the engine's failures and slow episodes", LONG, () => {
    fc.assert(
      fc.property(dilocoScenario, (s) => {
        const ep = drawSlowEpisodes(s, s.seed);
        const plain = generateFailureTrace(s, s.seed);
        const trace = ep ? withEvictions(s, plain, ep) : plain;
        const k = knobsOf(s);
        const failures = fromEngineTrace(k, trace);
        const e = runOnTrace(s, trace).diloco!;
        const ref = referenceDiloco(s, k, failures, ep ? fromEngineEpisodes(ep) : null);
        const evictions = failures.filter((f) => f.evicted).length;
        expect(compare(s, e, ref, evictions), JSON.stringify(s)).toEqual([]);
      }),
      { numRuns: 120 },
    );
  });
});

const BASE: ScenarioInput = {
  policies: ["ftHsdp", "diloco"],
  cluster: { gpus: 512, gpusPerHost: 8, replicas: 8, hostsPerRack: 4, placement: "striped" },
  training: { days: 4, stepSeconds: 2 },
  failures: { perHostDay: 0.05 },
  ft: { catchUpSeconds: 60 },
  diloco: { syncEvery: 50, syncSeconds: 30, overlapSteps: 5, stepEquivalence: 0.9 },
};
const RACKY = [
  { name: "GPU", share: 6, scope: "host" as const, hang: false, newHost: true },
  { name: "ToR", share: 2, scope: "rack" as const, hang: true, newHost: true },
  { name: "bug", share: 1, scope: "job" as const, hang: false, newHost: false },
];

const VARIED: [string, ScenarioInput][] = [
  ["host failures only", {}],
  [
    "racks, hangs and a job-scope cause, FT checkpoints",
    {
      failures: { perHostDay: 0.05, causes: RACKY },
      ft: { catchUpSeconds: 60, hangTimeoutSeconds: 60, checkpointMinutes: 30, checkpointWriteSeconds: 20 },
    },
  ],
  [
    "a limited spare pool and minReplicas 6",
    {
      spares: { pool: "limited", hosts: 1, repairHours: 4 },
      ft: { catchUpSeconds: 60, minReplicas: 6 },
    },
  ],
  [
    "slow hosts, evicted after 10 min",
    { slow: { perHostDay: 0.5, medianMinutes: 20, factor: 2, evictAfterMinutes: 10 } },
  ],
];

const MEANS = ["ettr", "stallSeconds", "lostWorkSeconds", "roundsCommitted", "roundsDiscarded"] as const;

describe("DiLoCo: Monte Carlo means, engine vs reference with dice of its own", () => {
  it.each(VARIED)("%s", LONG, (_name, delta) => {
    const s = parseScenario({ ...BASE, ...delta });
    expect(s.version).toBe(6);
    const seeds = 60;
    const engine = monteCarlo(s, seeds).diloco as MetricsSummary;
    const k = knobsOf(s);
    const runs = Array.from({ length: seeds }, (_, i) => {
      const seed = 7919 * i + 3;
      const slow = referenceSlowRun(s, seed);
      return referenceDiloco(s, k, withReferenceEvictions(s, referenceFailures(s, k, seed), slow), slow);
    });
    const H = s.training.days * 86_400;
    const series: [string, number, number[]][] = MEANS.map((m) => [m, engine[m].mean, runs.map((r) => r[m])]);
    for (const c of BADPUT_CATEGORIES)
      series.push([`badput.${c}`, engine.badput[c].mean, runs.map((r) => r.badput[c] / H)]);
    for (const [m, engineMean, xs] of series) {
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1);
      const se = Math.sqrt((2 * variance) / seeds);
      const z = se > 0 ? (engineMean - mean) / se : Math.abs(engineMean - mean) < 1e-12 ? 0 : Infinity;
      expect(Math.abs(z), `${m}: engine ${engineMean}, reference ${mean} ± ${se}`).toBeLessThanOrEqual(4);
    }
  });
});

describe("DiLoCo's closed form beside the Monte Carlo", () => {
  const quiet = { ...BASE, training: { days: 10, stepSeconds: 2 }, failures: { perHostDay: 0 } };
  const cases: [string, ScenarioInput, number][] = [
    // q·H·s / (H·s + B), B = max(0, T − τ·s): 0.9 · 100 / (100 + 20) by hand.
    ["no overlap beyond 5 steps", quiet, (0.9 * 100) / (100 + 20)],
    // τ·s ≥ T: no blocking at all, ETTR = q.
    ["full overlap", { ...quiet, diloco: { ...BASE.diloco, overlapSteps: 20 } }, 0.9],
    // A 20 s write every m = ⌈600 / 100⌉ = 6 rounds: 0.9 · 6 · 100 / (6 · 120 + 20).
    [
      "a checkpoint every 10 min",
      { ...quiet, ft: { checkpointMinutes: 10, checkpointWriteSeconds: 20 } },
      (0.9 * 6 * 100) / (6 * 120 + 20),
    ],
  ];
  it.each(cases)("%s: the form is exact and the run agrees within one round", (_n, input, byHand) => {
    const s = parseScenario(input);
    const run = runOnTrace(s, generateFailureTrace(s, 1));
    const form = run.closedForm.policies?.diloco;
    expect(form?.value).toBeCloseTo(byHand, 12);
    expect(form?.note).toMatch(/exact in the long run/);
    // The horizon ends inside a round: the run and the long-run form differ by at most a round's share.
    const round =
      (s.diloco.syncEvery * s.training.stepSeconds + s.diloco.syncSeconds + 20) / (s.training.days * 86_400);
    expect(Math.abs(run.diloco!.ettr - byHand)).toBeLessThan(round);
  });
  it("says why there is none with failures or slow hosts", () => {
    const failing = runOnTrace(parseScenario(BASE), generateFailureTrace(parseScenario(BASE), 1));
    expect(failing.closedForm.policies?.diloco).toEqual({
      value: null,
      note: expect.stringMatching(/without failures/),
    });
    const slowS = parseScenario({ ...BASE, failures: { perHostDay: 0 }, slow: { perHostDay: 0.1 } });
    const slow = runOnTrace(slowS, generateFailureTrace(slowS, 1));
    expect(slow.closedForm.policies?.diloco?.value).toBeNull();
    expect(slow.closedForm.policies?.diloco?.note).toMatch(/slow hosts/);
  });
});
