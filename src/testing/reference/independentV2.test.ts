/**
 * The engine against the independent reading of docs/model.md §3 (./independent.ts), run by run:
 * on generated collision-prone version-2 scenarios (failures drawn by the reference's dice and by
 * the engine's), on the hand-placed situations of ./handPlaced.ts (one per §3 rule), and in Monte
 * Carlo means over eight version-2 scenarios with independent dice on each side.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runOnTrace } from "../../sim/engine.ts";
import { generateFailureTrace } from "../../sim/failures/failureTrace.ts";
import { monteCarlo } from "../../sim/monteCarlo/monteCarlo.ts";
import { PRESETS } from "../../sim/presets.ts";
import { parseScenario, type Scenario, type ScenarioInput } from "../../sim/scenario/index.ts";
import { disagreements, V2_METRICS } from "./agreement.ts";
import { collidingV2Scenario } from "./collisions.arbitrary.ts";
import { type Failure, type Knobs, referenceFailures } from "./failures.ts";
import { HAND_SCENARIO, SITUATIONS } from "./handPlaced.ts";
import { referenceFtHsdpV2, referenceSynchronousV2 } from "./independent.ts";
import { knobsOf } from "./knobs.ts";
import { fromEngineTrace, toEngineTrace } from "./traces.ts";

const SLOW = { timeout: 120_000 };

function compare(s: Scenario, failures: readonly Failure[]): { synchronous: string[]; ftHsdp: string[] } {
  const k = knobsOf(s);
  const engine = runOnTrace(s, toEngineTrace(s, k, failures));
  const horizon = s.training.days * 86_400;
  return {
    synchronous: disagreements(
      engine.synchronous!,
      referenceSynchronousV2(s, k, failures),
      horizon,
      V2_METRICS,
    ),
    ftHsdp: disagreements(engine.ftHsdp!, referenceFtHsdpV2(s, k, failures), horizon, V2_METRICS),
  };
}

const AGREE = { synchronous: [], ftHsdp: [] };

/** The hand-placed situations' small cluster with the §3 settings the reference was given. */
function scenarioOf(k: Knobs): Scenario {
  const b = HAND_SCENARIO;
  return parseScenario({
    ...b,
    cluster: { ...b.cluster, hostsPerRack: k.hostsPerRack, placement: k.placement },
    failures: { ...b.failures, arrivals: k.arrivals, weibullShape: k.weibullShape, causes: [...k.causes] },
    ft: {
      ...b.ft,
      hangTimeoutSeconds: k.hangTimeoutSeconds,
      checkpointMinutes: k.ftCheckpointMinutes,
      checkpointWriteSeconds: k.ftCheckpointWriteSeconds,
    },
    spares: { pool: k.pool, hosts: k.spareHosts, repairHours: k.repairHours },
  });
}

describe("engine vs an independent reading of docs/model.md §3", () => {
  it("agrees run by run on 600 generated v2 scenarios, failures drawn by the reference", SLOW, () => {
    fc.assert(
      fc.property(collidingV2Scenario, (s) => {
        expect(compare(s, referenceFailures(s, knobsOf(s), s.seed))).toEqual(AGREE);
      }),
      { numRuns: 600 },
    );
  });

  it("agrees run by run on 400 generated v2 scenarios, failures drawn by the engine", SLOW, () => {
    fc.assert(
      fc.property(collidingV2Scenario, (s) => {
        const failures = fromEngineTrace(knobsOf(s), generateFailureTrace(s, s.seed));
        expect(compare(s, failures)).toEqual(AGREE);
      }),
      { numRuns: 400 },
    );
  });

  it("agrees on hand-placed pile-ups of every scope on generated v2 scenarios", SLOW, () => {
    const placed = collidingV2Scenario.chain((s) => {
      const k = knobsOf(s);
      const hosts = s.cluster.gpus / s.cluster.gpusPerHost;
      const horizon = s.training.days * 86_400;
      // Integer times on a coarse grid, so repairs, serves, phase ends and strikes coincide.
      const grid = Math.max(1, Math.floor(horizon / 40));
      const row = fc.record({
        slot: fc.integer({ min: 0, max: 39 }),
        scope: fc.constantFrom("host" as const, "rack" as const, "job" as const),
        target: fc.nat(),
        hang: fc.boolean(),
        newHost: fc.boolean(),
      });
      return fc.tuple(
        fc.constant(s),
        fc.array(row, { maxLength: 12 }).map((rows) =>
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
        ),
      );
    });
    fc.assert(
      fc.property(placed, ([s, failures]) => {
        expect(compare(s, failures)).toEqual(AGREE);
      }),
      { numRuns: 300 },
    );
  });

  it.each(
    PRESETS.filter((p) => parseScenario(p.scenario).version === 2).map((p) => [p.id, p.scenario] as const),
  )("agrees on the full-size §3 preset %s over several seeds", (_id, input) => {
    const s = parseScenario(input);
    for (let seed = 1; seed <= 2; seed++) {
      expect(compare(s, fromEngineTrace(knobsOf(s), generateFailureTrace(s, seed)))).toEqual(AGREE);
    }
  });

  it.each(Object.entries(SITUATIONS))("agrees on the hand-placed situation %s", (_id, situation) => {
    const s = scenarioOf(situation.knobs);
    expect(knobsOf(s)).toEqual(situation.knobs);
    expect(compare(s, situation.failures)).toEqual(AGREE);
  });
});

const LLAMA_LIKE = [
  { name: "GPU / HBM", share: 58, scope: "host", hang: false, newHost: true },
  { name: "NCCL / network hang", share: 12, scope: "host", hang: true, newHost: false },
  { name: "ToR switch", share: 8, scope: "rack", hang: true, newHost: false },
  { name: "software bug", share: 12, scope: "job", hang: false, newHost: false },
  { name: "host maintenance", share: 10, scope: "host", hang: false, newHost: true },
] as const;

const BASE_MC = {
  cluster: { gpus: 4096, gpusPerHost: 8, replicas: 8 },
  training: { days: 5 },
  failures: { perHostDay: 0.01 },
  detection: { hangSeconds: 600 },
  sync: { checkpointMinutes: 30, checkpointWriteSeconds: 60 },
  ft: { catchUpSeconds: 60 },
} as const;

// Eight version-2 scenarios, each stressing one §3 feature (the last combines them all). The
// engine's Monte Carlo (its own dice) against the reference on failures from its own generator.
const MC_SCENARIOS: [string, ScenarioInput][] = [
  [
    "a Llama-3-like cause mix, racks of 4",
    {
      failures: { ...BASE_MC.failures, causes: [...LLAMA_LIKE] },
      cluster: { ...BASE_MC.cluster, hostsPerRack: 4 },
    },
  ],
  [
    "striped placement, rack failures only",
    {
      cluster: { ...BASE_MC.cluster, hostsPerRack: 8, placement: "striped" },
      failures: {
        perHostDay: 0.004,
        causes: [{ name: "rack", share: 1, scope: "rack", hang: false, newHost: true }],
      },
    },
  ],
  ["two spares, repairs take 48 h", { spares: { pool: "limited", hosts: 2, repairHours: 48 } }],
  [
    "bursty Weibull k = 0.5 with hangs",
    { failures: { ...BASE_MC.failures, arrivals: "weibull", weibullShape: 0.5, hangFraction: 0.3 } },
  ],
  [
    "regular Weibull k = 2.5, job failures, FT-HSDP checkpoints",
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
    },
  ],
  [
    "FTAR hang timeout 60 s vs the 600 s watchdog",
    {
      failures: {
        ...BASE_MC.failures,
        causes: [
          { name: "hang", share: 1, scope: "host", hang: true, newHost: false },
          { name: "crash", share: 1, scope: "host", hang: false, newHost: true },
        ],
      },
      ft: { ...BASE_MC.ft, hangTimeoutSeconds: 60 },
    },
  ],
  [
    "job failures with blocking catch-up and minReplicas 6 of 8, FT checkpoints every 10 min",
    {
      failures: {
        ...BASE_MC.failures,
        causes: [
          { name: "host", share: 9, scope: "host", hang: false, newHost: true },
          { name: "job hang", share: 1, scope: "job", hang: true, newHost: false },
        ],
      },
      ft: {
        catchUp: "blocking",
        catchUpSeconds: 90,
        minReplicas: 6,
        checkpointMinutes: 10,
        checkpointWriteSeconds: 20,
      },
    },
  ],
  [
    "every §3 feature at once",
    {
      cluster: { ...BASE_MC.cluster, hostsPerRack: 4, placement: "striped" },
      failures: { ...BASE_MC.failures, arrivals: "weibull", weibullShape: 0.7, causes: [...LLAMA_LIKE] },
      ft: { ...BASE_MC.ft, hangTimeoutSeconds: 60, checkpointMinutes: 20, checkpointWriteSeconds: 30 },
      spares: { pool: "limited", hosts: 3, repairHours: 12 },
    },
  ],
];

describe("Monte Carlo means: engine vs reference with independent dice, on eight v2 scenarios", () => {
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
    const k = knobsOf(s);
    const seeds = 200;
    const engine = monteCarlo(s, seeds);
    for (const policy of ["synchronous", "ftHsdp"] as const) {
      const run = policy === "synchronous" ? referenceSynchronousV2 : referenceFtHsdpV2;
      const samples = Array.from({ length: seeds }, (_, i) =>
        run(s, k, referenceFailures(s, k, 7919 * i + 1)),
      );
      const series: [string, number, number[]][] = MC_METRICS.map((m) => [
        m,
        engine[policy]![m].mean,
        samples.map((r) => r[m]),
      ]);
      k.causes.forEach((_c, j) => {
        series.push([
          `causes[${j}].count`,
          engine[policy]!.causes[j]!.count.mean,
          samples.map((r) => r.perCause[j]!.count),
        ]);
      });
      for (const [m, engineMean, xs] of series) {
        const mean = xs.reduce((a, b) => a + b, 0) / seeds;
        const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (seeds - 1);
        // Two independent means of `seeds` samples: the standard error of their difference.
        const se = Math.sqrt((2 * variance) / seeds);
        const z = se > 0 ? (engineMean - mean) / se : engineMean === mean ? 0 : Number.POSITIVE_INFINITY;
        expect(
          Math.abs(z),
          `${policy}.${m}: engine ${engineMean}, reference ${mean} ± ${se}`,
        ).toBeLessThanOrEqual(4);
      }
    }
  });
});
