/**
 * The engine against the reference's own reading of docs/model.md §5 (lemon slots and lognormal
 * repairs, ./failures.ts and ./spares.ts): Monte Carlo means with independent dice on each side
 * (the engine's xoroshiro streams against the reference's mulberry32, a shuffle against
 * rejection sampling, Box–Muller against the polar method), all four policies, every metric
 * within 4 standard errors; and the lemons' share of failures against the spec's arithmetic.
 */
import { describe, expect, it } from "vitest";
import { generateFailureTrace } from "../../sim/failures/failureTrace.ts";
import { lemonSlots } from "../../sim/failures/lemons.ts";
import { monteCarlo } from "../../sim/monteCarlo/monteCarlo.ts";
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import { parseScenario, type ScenarioInput } from "../../sim/scenario/index.ts";
import { BADPUT_CATEGORIES, type MetricsSummary } from "../../sim/types.ts";
import { referenceFailures } from "./failures.ts";
import { knobsOf } from "./knobs.ts";
import { REFERENCE_POLICIES } from "./policies.ts";

const SLOW = { timeout: 180_000 };
const ALL_FOUR: PolicyKey[] = ["synchronous", "ftHsdp", "inMemory", "hotSpare"];

const BASE: ScenarioInput = {
  policies: ALL_FOUR,
  cluster: { gpus: 512, gpusPerHost: 8, replicas: 8, hostsPerRack: 4, placement: "striped" },
  training: { days: 6 },
  failures: { perHostDay: 0.05 },
  sync: { checkpointMinutes: 30, checkpointWriteSeconds: 60 },
  ft: { catchUpSeconds: 60 },
  inMemory: { checkpointMinutes: 5, writeSeconds: 5, restartSeconds: 180, persistEvery: 4 },
  hotSpare: { standbys: 2, migrateSeconds: 90, refillMinutes: 30 },
  spares: { pool: "limited", hosts: 1, repairHours: 8 },
};
const RACKY = [
  { name: "GPU", share: 6, scope: "host" as const, hang: false, newHost: true },
  { name: "ToR", share: 2, scope: "rack" as const, hang: true, newHost: true },
  { name: "bug", share: 1, scope: "job" as const, hang: false, newHost: false },
];

const SCENARIOS: [string, ScenarioInput][] = [
  [
    "lemons: 10 % of slots fail 20× as often",
    { failures: { perHostDay: 0.05, badHosts: { share: 0.1, factor: 20 } } },
  ],
  [
    "lemons with racks and a job-scope cause, Weibull arrivals",
    {
      failures: {
        perHostDay: 0.05,
        arrivals: "weibull",
        weibullShape: 0.7,
        causes: RACKY,
        badHosts: { share: 0.25, factor: 6 },
      },
    },
  ],
  [
    "lognormal repairs, σ = 1.5, a pool of 1",
    { spares: { pool: "limited", hosts: 1, repairHours: 8, repairLaw: "lognormal", repairSigma: 1.5 } },
  ],
  [
    "lemons and lognormal repairs with racks",
    {
      failures: { perHostDay: 0.05, causes: RACKY, badHosts: { share: 0.2, factor: 10 } },
      spares: { pool: "limited", hosts: 2, repairHours: 12, repairLaw: "lognormal", repairSigma: 1 },
    },
  ],
];

const METRICS = [
  "ettr",
  "failures",
  "stallSeconds",
  "lostWorkSeconds",
  "jobRestarts",
  "spareWaitSeconds",
  "poolEmptySeconds",
] as const;

describe("Monte Carlo means: engine vs reference on §5 scenarios, independent dice", () => {
  it.each(SCENARIOS)("%s", SLOW, (_name, delta) => {
    const s = parseScenario({ ...BASE, ...delta });
    expect(s.version).toBe(4);
    const k = knobsOf(s);
    const seeds = 160;
    const engine = monteCarlo(s, seeds);
    const failures = Array.from({ length: seeds }, (_, i) => referenceFailures(s, k, 7919 * i + 3));
    const H = s.training.days * 86_400;
    for (const policy of s.policies) {
      const samples = failures.map((f) => REFERENCE_POLICIES[policy]!(s, k, f));
      const summary = engine[policy] as MetricsSummary;
      const series: [string, number, number[]][] = METRICS.map((m) => [
        m,
        summary[m].mean,
        samples.map((r) => r[m]),
      ]);
      for (const c of BADPUT_CATEGORIES)
        series.push([`badput.${c}`, summary.badput[c].mean, samples.map((r) => r.badput[c] / H)]);
      for (const [m, engineMean, xs] of series) {
        const mean = xs.reduce((a, b) => a + b, 0) / seeds;
        const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (seeds - 1);
        const se = Math.sqrt((2 * variance) / seeds);
        const z =
          se > 0
            ? (engineMean - mean) / se
            : Math.abs(engineMean - mean) < 1e-12
              ? 0
              : Number.POSITIVE_INFINITY;
        expect(
          Math.abs(z),
          `${policy}.${m}: engine ${engineMean}, reference ${mean} ± ${se}`,
        ).toBeLessThanOrEqual(4);
      }
    }
  });

  it("lemon slots take the share of host failures the rates say: s·f / (1 − s + s·f)", () => {
    const s = parseScenario({ ...BASE, failures: { perHostDay: 0.5, badHosts: { share: 0.1, factor: 20 } } });
    const hosts = 64;
    let onBad = 0;
    let all = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const bad = lemonSlots(hosts, 0.1, seed);
      expect(bad.reduce((a, b) => a + b, 0)).toBe(6); // round(0.1 × 64)
      const t = generateFailureTrace(s, seed);
      for (let i = 0; i < t.count; i++) {
        all++;
        onBad += bad[t.host[i]!]!;
      }
    }
    // 6 lemon slots of 64 at 20×: 120 / (58 + 120) of the failures.
    const expected = (6 * 20) / (58 + 6 * 20);
    const se = Math.sqrt((expected * (1 - expected)) / all);
    expect(Math.abs(onBad / all - expected)).toBeLessThan(4 * se);
  });
});
