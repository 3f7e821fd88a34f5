/**
 * The engine against an independent reading of SIMULATION.md §1 (./independent.ts), run by run on
 * the same failure trace, over scenarios chosen to make failures collide: hangs, checkpoint writes,
 * failures during writes and recoveries, blocking catch-up, minReplicas > 1, R = 1, tiny
 * horizons, fixed arrivals, several failures in one replica and across replicas.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runOnTrace } from "../engine.ts";
import { type FailureTrace, failureTraceOf, generateFailureTrace } from "../failureTrace.ts";
import { monteCarlo } from "../monteCarlo.ts";
import { PRESETS } from "../presets.ts";
import { parseScenario, type Scenario } from "../scenario.ts";
import type { PolicyMetrics } from "../types.ts";
import { referenceFailures, v1Knobs } from "./failures.ts";
import {
  type ReferenceMetrics,
  referenceFtHsdp,
  referenceFtHsdpV2,
  referenceSynchronous,
  referenceSynchronousV2,
} from "./independent.ts";

/** Small clusters whose MTBF is comparable to the recovery times, so failures overlap often. */
const collidingScenario: fc.Arbitrary<Scenario> = fc
  .record({
    replicas: fc.integer({ min: 1, max: 6 }),
    hostsPerReplica: fc.constantFrom(1, 3, 64, 400),
    mtbfSeconds: fc.constantFrom(20, 120, 600, 1800, 7200),
    days: fc.constantFrom(0.002, 0.02, 0.2, 1),
    arrivals: fc.constantFrom("poisson" as const, "fixed" as const),
    hangFraction: fc.constantFrom(0, 0.3, 1),
    failStop: fc.integer({ min: 0, max: 120 }),
    hang: fc.integer({ min: 0, max: 900 }),
    restart: fc.integer({ min: 0, max: 900 }),
    checkpointMinutes: fc.constantFrom(0, 0.5, 3, 30),
    write: fc.constantFrom(0, 5, 60, 300),
    reconfigure: fc.integer({ min: 0, max: 60 }),
    replicaRestart: fc.integer({ min: 0, max: 900 }),
    catchUp: fc.constantFrom("nonBlocking" as const, "blocking" as const),
    catchUpSeconds: fc.integer({ min: 0, max: 300 }),
    rejoin: fc.integer({ min: 0, max: 300 }),
    minReplicasFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    seed: fc.integer({ min: 0, max: 0xffff_ffff }),
  })
  .map((r) => {
    const hosts = r.replicas * r.hostsPerReplica;
    return parseScenario({
      seed: r.seed,
      cluster: { gpus: hosts * 8, gpusPerHost: 8, replicas: r.replicas },
      training: { days: r.days },
      failures: {
        // The validator caps r_f at 10 per host-day: small clusters get a longer MTBF.
        perHostDay: Math.min(10, 86_400 / (r.mtbfSeconds * hosts)),
        arrivals: r.arrivals,
        hangFraction: r.hangFraction,
      },
      detection: { failStopSeconds: r.failStop, hangSeconds: r.hang },
      sync: {
        restartSeconds: r.restart,
        checkpointMinutes: r.checkpointMinutes,
        checkpointWriteSeconds: r.write,
      },
      ft: {
        reconfigureSeconds: r.reconfigure,
        replicaRestartSeconds: r.replicaRestart,
        catchUp: r.catchUp,
        catchUpSeconds: r.catchUpSeconds,
        rejoinSeconds: r.rejoin,
        minReplicas: 1 + Math.floor(r.minReplicasFraction * (r.replicas - 1)),
      },
    });
  });

const COMPARED = [
  "ettr",
  "failures",
  "stallSeconds",
  "lostWorkSeconds",
  "checkpoints",
  "degradedSeconds",
] as const;

function close(a: number, b: number, scale: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, scale, Math.abs(a), Math.abs(b));
}

/** The names of the metrics on which engine and reference differ (empty when they agree). */
function disagreements(engine: PolicyMetrics, ref: ReferenceMetrics, horizon: number): string[] {
  const out: string[] = [];
  for (const m of COMPARED) {
    if (!close(engine[m], ref[m], m === "ettr" ? 1 : horizon))
      out.push(`${m}: engine ${engine[m]} vs reference ${ref[m]}`);
  }
  ref.secondsWithKDown.forEach((v, k) => {
    if (!close(engine.secondsWithKDown[k] ?? 0, v, horizon))
      out.push(`secondsWithKDown[${k}]: engine ${engine.secondsWithKDown[k]} vs reference ${v}`);
  });
  return out;
}

function compare(s: Scenario, trace: FailureTrace): { synchronous: string[]; ftHsdp: string[] } {
  const engine = runOnTrace(s, trace);
  const horizon = s.training.days * 86_400;
  return {
    synchronous: disagreements(engine.synchronous, referenceSynchronous(s, trace), horizon),
    ftHsdp: disagreements(engine.ftHsdp, referenceFtHsdp(s, trace), horizon),
  };
}

// The reference walks instant by instant (clear, not fast): on a shared, loaded machine a property
// run of a few seconds of CPU can exceed vitest's 5 s default, which measures load, not correctness.
const SLOW = { timeout: 60_000 };

describe("engine vs an independent reading of SIMULATION.md §1", () => {
  it("agrees run by run on generated failure traces", SLOW, () => {
    fc.assert(
      fc.property(collidingScenario, (s) => {
        expect(compare(s, generateFailureTrace(s, s.seed))).toEqual({ synchronous: [], ftHsdp: [] });
      }),
      { numRuns: 400 },
    );
  });

  it("agrees on hand-placed failures that pile up in one replica and across replicas", SLOW, () => {
    const placed = collidingScenario.chain((s) => {
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
        expect(Math.abs(engine[policy][m].mean - mean), `${policy}.${m}`).toBeLessThanOrEqual(tolerance);
      }
    }
  });
});
