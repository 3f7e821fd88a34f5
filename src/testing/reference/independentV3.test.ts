/**
 * The engine against the independent reading of docs/model.md §4 (./independentV3.ts and the
 * FT-HSDP and synchronous loops of ./independent.ts), for all four policies: run by run on
 * generated version-3 scenarios (every §3 part, every §4 part, 1–4 policies in any order) with
 * failures drawn by the reference's dice and by the engine's, on hand-placed pile-ups, on the
 * hand-placed §4 situations, and in Monte Carlo means over seven v3 scenarios (120 seeds each) with independent
 * dice on each side. Every metric is compared, the badput shares among them, within 1e-9.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runOnTrace } from "../../sim/engine.ts";
import { generateFailureTrace } from "../../sim/failures/failureTrace.ts";
import { monteCarlo } from "../../sim/monteCarlo/monteCarlo.ts";
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import { parseScenario, type Scenario, type ScenarioInput } from "../../sim/scenario/index.ts";
import { BADPUT_CATEGORIES, type MetricsSummary, type PolicyMetrics } from "../../sim/types.ts";
import { v3Scenario } from "../scenario.arbitrary.ts";
import { disagreementsV3 } from "./agreement.ts";
import { type Failure, referenceFailures } from "./failures.ts";
import { V3_SITUATIONS, v3ScenarioOf } from "./handPlaced.ts";
import { knobsOf } from "./knobs.ts";
import { REFERENCE_POLICIES } from "./policies.ts";
import { fromEngineTrace, toEngineTrace } from "./traces.ts";

const SLOW = { timeout: 120_000 };

/** Each selected policy's disagreements (engine vs reference) on these failures; {} when they agree. */
function compare(s: Scenario, failures: readonly Failure[]): Record<string, string[]> {
  const k = knobsOf(s);
  const engine = runOnTrace(s, toEngineTrace(s, k, failures));
  const horizon = s.training.days * 86_400;
  const out: Record<string, string[]> = {};
  for (const p of s.policies) {
    const d = disagreementsV3(engine[p]! as PolicyMetrics, REFERENCE_POLICIES[p]!(s, k, failures), horizon);
    if (d.length > 0) out[p] = d;
  }
  return out;
}

describe("engine vs an independent reading of docs/model.md §4, run by run", () => {
  it("agrees on 620 generated v3 scenarios, failures drawn by the reference", SLOW, () => {
    fc.assert(
      fc.property(v3Scenario, (s) => {
        expect(compare(s, referenceFailures(s, knobsOf(s), s.seed))).toEqual({});
      }),
      { numRuns: 620 },
    );
  });

  it("agrees on 400 generated v3 scenarios, failures drawn by the engine", SLOW, () => {
    fc.assert(
      fc.property(v3Scenario, (s) => {
        expect(compare(s, fromEngineTrace(knobsOf(s), generateFailureTrace(s, s.seed)))).toEqual({});
      }),
      { numRuns: 400 },
    );
  });

  it("agrees on hand-placed pile-ups of every scope on generated v3 scenarios", SLOW, () => {
    // Integer times on a coarse grid, so failures land on phase ends, refills, repairs and writes.
    const placed = v3Scenario.chain((s) => {
      const k = knobsOf(s);
      const hosts = s.cluster.gpus / s.cluster.gpusPerHost;
      const horizon = s.training.days * 86_400;
      const grid = Math.max(1, Math.floor(horizon / 40));
      const row = fc.record({
        slot: fc.integer({ min: 0, max: 39 }),
        scope: fc.constantFrom("host" as const, "rack" as const, "job" as const),
        target: fc.nat(),
        hang: fc.boolean(),
        newHost: fc.boolean(),
      });
      const failures = fc.array(row, { maxLength: 14 }).map((rows) =>
        rows
          .map(
            (r): Failure => ({
              time: Math.min(horizon * 0.999, r.slot * grid),
              scope: r.scope,
              target:
                r.scope === "host"
                  ? r.target % hosts
                  : r.scope === "rack"
                    ? r.target % (hosts / k.hostsPerRack)
                    : -1,
              hang: r.hang,
              newHost: r.scope !== "job" && r.newHost,
              cause: -1,
            }),
          )
          .sort((a, b) => a.time - b.time),
      );
      return fc.tuple(fc.constant(s), failures);
    });
    fc.assert(
      fc.property(placed, ([s, failures]) => {
        expect(compare(s, failures)).toEqual({});
      }),
      { numRuns: 300 },
    );
  });

  it.each(Object.entries(V3_SITUATIONS))("agrees on the hand-placed §4 situation %s", (_id, situation) => {
    const s = v3ScenarioOf(situation);
    expect(knobsOf(s)).toEqual(situation.knobs);
    expect(compare(s, situation.failures)).toEqual({});
  });
});

const LLAMA_LIKE = [
  { name: "GPU / HBM", share: 58, scope: "host", hang: false, newHost: true },
  { name: "NCCL / network hang", share: 12, scope: "host", hang: true, newHost: false },
  { name: "ToR switch", share: 8, scope: "rack", hang: true, newHost: false },
  { name: "software bug", share: 12, scope: "job", hang: false, newHost: false },
  { name: "host maintenance", share: 10, scope: "host", hang: false, newHost: true },
] as const;

const ALL_FOUR: PolicyKey[] = ["synchronous", "ftHsdp", "inMemory", "hotSpare"];

const BASE_MC = {
  policies: ALL_FOUR,
  cluster: { gpus: 4096, gpusPerHost: 8, replicas: 8 },
  training: { days: 5 },
  failures: { perHostDay: 0.01 },
  detection: { hangSeconds: 600 },
  sync: { checkpointMinutes: 30, checkpointWriteSeconds: 60 },
  ft: { catchUpSeconds: 60 },
  inMemory: { checkpointMinutes: 5, writeSeconds: 5, restartSeconds: 180, persistEvery: 4 },
  hotSpare: { standbys: 2, migrateSeconds: 90, refillMinutes: 30 },
} as const;

// Seven v3 scenarios, all four policies in each; together they combine every §3 part (causes of
// every scope, racks, striped placement, Weibull, hang timeouts, FT checkpoints, limited spares)
// with every §4 part (in-memory cadence and persistence, standbys short and plenty, refills,
// step overhead, both restrike rules). The engine's Monte Carlo (its own dice) against the
// reference on failures from the reference's own generator.
const MC_SCENARIOS: [string, ScenarioInput][] = [
  [
    "a Llama-3-like cause mix, racks of 4: storage recoveries, full recoveries for rack failures",
    {
      failures: { ...BASE_MC.failures, causes: [...LLAMA_LIKE] },
      cluster: { ...BASE_MC.cluster, hostsPerRack: 4 },
      hotSpare: { standbys: 3, migrateSeconds: 120, refillMinutes: 60 },
    },
  ],
  [
    "striped racks of 8 with one standby and slow refills: migrations turn full",
    {
      cluster: { ...BASE_MC.cluster, hostsPerRack: 8, placement: "striped" },
      failures: {
        perHostDay: 0.02,
        causes: [
          { name: "rack", share: 1, scope: "rack", hang: false, newHost: true },
          { name: "host", share: 4, scope: "host", hang: false, newHost: true },
        ],
      },
      hotSpare: { standbys: 1, migrateSeconds: 300, refillMinutes: 240 },
    },
  ],
  [
    "two spares, repairs take 48 h, restrike quiet",
    {
      spares: { pool: "limited", hosts: 2, repairHours: 48 },
      ft: { ...BASE_MC.ft, restrike: "quiet" },
    },
  ],
  [
    "bursty Weibull k = 0.5 with hangs, a 10 % FTAR overhead",
    {
      failures: { ...BASE_MC.failures, arrivals: "weibull", weibullShape: 0.5, hangFraction: 0.3 },
      ft: { ...BASE_MC.ft, stepOverheadPercent: 10 },
    },
  ],
  [
    "regular Weibull k = 2.5, job failures, FT checkpoints, in-memory every step, every 2nd durable",
    {
      failures: {
        ...BASE_MC.failures,
        arrivals: "weibull",
        weibullShape: 2.5,
        causes: [
          { name: "host", share: 85, scope: "host", hang: false, newHost: true },
          { name: "job", share: 15, scope: "job", hang: false, newHost: false },
        ],
      },
      ft: { ...BASE_MC.ft, checkpointMinutes: 30, checkpointWriteSeconds: 60 },
      inMemory: { checkpointMinutes: 0, writeSeconds: 0, restartSeconds: 120, persistEvery: 2 },
    },
  ],
  [
    "fixed arrivals every 15 min, hangs with a 60 s FTAR timeout, blocking catch-up, quiet restrike",
    {
      failures: { perHostDay: 86_400 / (900 * 512), arrivals: "fixed", hangFraction: 0.5 },
      ft: {
        catchUp: "blocking",
        catchUpSeconds: 90,
        hangTimeoutSeconds: 60,
        restrike: "quiet",
        minReplicas: 6,
      },
      hotSpare: { standbys: 2, migrateSeconds: 60, refillMinutes: 0 },
    },
  ],
  [
    "every §3 and §4 part at once",
    {
      cluster: { ...BASE_MC.cluster, hostsPerRack: 4, placement: "striped" },
      failures: { ...BASE_MC.failures, arrivals: "weibull", weibullShape: 0.7, causes: [...LLAMA_LIKE] },
      ft: {
        ...BASE_MC.ft,
        hangTimeoutSeconds: 60,
        checkpointMinutes: 20,
        checkpointWriteSeconds: 30,
        stepOverheadPercent: 5,
        restrike: "quiet",
      },
      spares: { pool: "limited", hosts: 3, repairHours: 12 },
      hotSpare: { standbys: 4, migrateSeconds: 150, refillMinutes: 45 },
    },
  ],
];

describe("Monte Carlo means: engine vs reference with independent dice, on seven v3 scenarios", () => {
  const MC_METRICS = [
    "ettr",
    "failures",
    "stallSeconds",
    "lostWorkSeconds",
    "checkpoints",
    "jobRestarts",
    "spareWaitSeconds",
    "poolEmptySeconds",
  ] as const;
  it.each(MC_SCENARIOS)("%s", SLOW, (_name, delta) => {
    const s = parseScenario({ ...BASE_MC, ...delta });
    expect(s.policies).toEqual(ALL_FOUR);
    const k = knobsOf(s);
    const seeds = 120;
    const engine = monteCarlo(s, seeds);
    const failures = Array.from({ length: seeds }, (_, i) => referenceFailures(s, k, 7919 * i + 1));
    for (const policy of s.policies) {
      const samples = failures.map((f) => REFERENCE_POLICIES[policy]!(s, k, f));
      const summary = engine[policy] as MetricsSummary;
      const H = s.training.days * 86_400;
      const series: [string, number, number[]][] = MC_METRICS.map((m) => [
        m,
        summary[m].mean,
        samples.map((r) => r[m]),
      ]);
      for (const c of BADPUT_CATEGORIES)
        series.push([`badput.${c}`, summary.badput[c].mean, samples.map((r) => r.badput[c] / H)]);
      for (const [m, engineMean, xs] of series) {
        const mean = xs.reduce((a, b) => a + b, 0) / seeds;
        const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (seeds - 1);
        // Two independent means of `seeds` samples: the standard error of their difference.
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
});
