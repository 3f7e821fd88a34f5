/**
 * The engine against an independent reading of docs/model.md §1 (./independent.ts), run by run on
 * the same failure trace, over scenarios chosen to make failures collide: hangs, checkpoint writes,
 * failures during writes and recoveries, blocking catch-up, minReplicas > 1, R = 1, tiny
 * horizons, fixed arrivals, several failures in one replica and across replicas.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runOnTrace } from "../../sim/engine.ts";
import { type FailureTrace, failureTraceOf, generateFailureTrace } from "../../sim/failures/failureTrace.ts";
import { monteCarlo } from "../../sim/monteCarlo/monteCarlo.ts";
import { PRESETS } from "../../sim/presets.ts";
import { parseScenario, type Scenario } from "../../sim/scenario/index.ts";
import { disagreements, V1_METRICS } from "./agreement.ts";
import { collidingV1Scenario } from "./collisions.arbitrary.ts";
import { referenceFailures, v1Knobs } from "./failures.ts";
import {
  referenceFtHsdp,
  referenceFtHsdpV2,
  referenceSynchronous,
  referenceSynchronousV2,
} from "./independent.ts";

function compare(s: Scenario, trace: FailureTrace): { synchronous: string[]; ftHsdp: string[] } {
  const engine = runOnTrace(s, trace);
  const horizon = s.training.days * 86_400;
  return {
    synchronous: disagreements(engine.synchronous!, referenceSynchronous(s, trace), horizon, V1_METRICS),
    ftHsdp: disagreements(engine.ftHsdp!, referenceFtHsdp(s, trace), horizon, V1_METRICS),
  };
}

// The reference walks instant by instant (clear, not fast): on a shared, loaded machine a property
// run of a few seconds of CPU can exceed vitest's 5 s default, which measures load, not correctness.
const SLOW = { timeout: 60_000 };

describe("engine vs an independent reading of docs/model.md §1", () => {
  it("agrees run by run on generated failure traces", SLOW, () => {
    fc.assert(
      fc.property(collidingV1Scenario, (s) => {
        expect(compare(s, generateFailureTrace(s, s.seed))).toEqual({ synchronous: [], ftHsdp: [] });
      }),
      { numRuns: 400 },
    );
  });

  it("agrees on hand-placed failures that pile up in one replica and across replicas", SLOW, () => {
    const placed = collidingV1Scenario.chain((s) => {
      const hosts = s.cluster.gpus / s.cluster.gpusPerHost;
      const horizon = s.training.days * 86_400;
      const row = fc.record({
        time: fc.double({ min: 0, max: horizon, maxExcluded: true, noNaN: true }),
        host: fc.integer({ min: 0, max: hosts - 1 }),
        hang: fc.boolean(),
      });
      return fc.tuple(fc.constant(s), fc.array(row, { maxLength: 12 }));
    });
    fc.assert(
      fc.property(placed, ([s, rows]) => {
        expect(compare(s, failureTraceOf(s, rows))).toEqual({ synchronous: [], ftHsdp: [] });
      }),
      { numRuns: 400 },
    );
  });

  // Version-1 presets only: §3's presets are compared with the §3 reading (independentV2.test.ts).
  it.each(
    PRESETS.filter((p) => parseScenario(p.scenario).version === 1).map((p) => [p.id, p.scenario] as const),
  )("agrees on the full-size preset %s over several seeds", (_id, input) => {
    const s = parseScenario(input);
    for (let seed = 1; seed <= 3; seed++) {
      expect(compare(s, generateFailureTrace(s, seed))).toEqual({ synchronous: [], ftHsdp: [] });
    }
  });

  // The engine's Monte Carlo (its own dice) against the reference on independently drawn failures:
  // the means must agree within Monte Carlo error, which also checks arrivals, hosts and hangs.
  it.each([
    [
      "Poisson, hangs, checkpoints, blocking catch-up, minReplicas 6 of 8",
      {
        cluster: { gpus: 16_384, gpusPerHost: 8, replicas: 8 },
        training: { days: 7 },
        failures: { perHostDay: 0.01, hangFraction: 0.2 },
        detection: { hangSeconds: 300 },
        sync: { checkpointMinutes: 30, checkpointWriteSeconds: 60 },
        ft: { catchUp: "blocking", catchUpSeconds: 90, minReplicas: 6, reconfigureSeconds: 10 },
      },
    ],
    [
      "one replica, half hangs, failures often inside recoveries",
      {
        cluster: { gpus: 4096, gpusPerHost: 8, replicas: 1 },
        training: { days: 3 },
        failures: { perHostDay: 0.05, hangFraction: 0.5 },
        sync: { checkpointMinutes: 20, checkpointWriteSeconds: 120 },
        ft: { catchUpSeconds: 60 },
      },
    ],
  ] as const)("Monte Carlo means agree with independent dice: %s", (_name, input) => {
    const s = parseScenario(input);
    const seeds = 200;
    const engine = monteCarlo(s, seeds);
    for (const policy of ["synchronous", "ftHsdp"] as const) {
      const run = policy === "synchronous" ? referenceSynchronousV2 : referenceFtHsdpV2;
      const k = v1Knobs(s);
      const samples = Array.from({ length: seeds }, (_, i) =>
        run(s, k, referenceFailures(s, k, 7919 * i + 1)),
      );
      for (const m of ["ettr", "failures", "stallSeconds", "lostWorkSeconds"] as const) {
        const xs = samples.map((r) => r[m]);
        const mean = xs.reduce((a, b) => a + b, 0) / seeds;
        const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (seeds - 1);
        // Two independent means of `seeds` samples each: 4.5 standard errors of their difference.
        const tolerance = 4.5 * Math.sqrt((2 * variance) / seeds) + 1e-12;
        expect(Math.abs(engine[policy]![m].mean - mean), `${policy}.${m}`).toBeLessThanOrEqual(tolerance);
      }
    }
  });
});
