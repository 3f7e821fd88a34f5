/**
 * Properties of the cluster engine over random scenarios (fast-check), and a check of both
 * policies against a brute-force reference written the slow, obvious way: per-replica phase
 * intervals cut at the next failure, evaluated on every elementary interval between
 * breakpoints; checkpoints walked one by one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { legacyTrace } from "../testing/legacyTrace.ts";
import { runOnTrace, runScenario } from "./engine.ts";
import { type FailureTrace, generateFailureTrace } from "./failures/failureTrace.ts";
import { derived, parseScenario, type Scenario } from "./scenario/index.ts";
import type { RunResult } from "./types.ts";

/** Small, valid scenarios (at most a few hundred failures), integer times so events often tie. */
const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    replicas: fc.integer({ min: 1, max: 8 }),
    hostsPerReplica: fc.integer({ min: 1, max: 4 }),
    gpusPerHost: fc.constantFrom(1, 4, 8),
    minReplicasShare: fc.double({ min: 0, max: 1, noNaN: true }),
    days: fc.constantFrom(0.05, 0.25, 1, 2),
    perHostDay: fc.constantFrom(0, 0.5, 2, 5, 10),
    arrivals: fc.constantFrom("poisson", "fixed"),
    hangFraction: fc.constantFrom(0, 0.3, 1),
    failStopSeconds: fc.integer({ min: 0, max: 300 }),
    hangSeconds: fc.integer({ min: 0, max: 1200 }),
    restartSeconds: fc.integer({ min: 0, max: 1200 }),
    checkpointMinutes: fc.constantFrom(0, 1, 7, 30),
    checkpointWriteSeconds: fc.integer({ min: 0, max: 120 }),
    reconfigureSeconds: fc.integer({ min: 0, max: 60 }),
    replicaRestartSeconds: fc.integer({ min: 0, max: 900 }),
    catchUp: fc.constantFrom("nonBlocking", "blocking"),
    catchUpSeconds: fc.constantFrom(0, 30, 200),
    rejoinSeconds: fc.integer({ min: 0, max: 300 }),
    seed: fc.integer({ min: 0, max: 0xffff_ffff }),
  })
  .map((a) =>
    parseScenario({
      seed: a.seed,
      cluster: {
        gpus: a.replicas * a.hostsPerReplica * a.gpusPerHost,
        gpusPerHost: a.gpusPerHost,
        replicas: a.replicas,
      },
      training: { days: a.days },
      failures: { perHostDay: a.perHostDay, arrivals: a.arrivals, hangFraction: a.hangFraction },
      detection: { failStopSeconds: a.failStopSeconds, hangSeconds: a.hangSeconds },
      sync: {
        restartSeconds: a.restartSeconds,
        checkpointMinutes: a.checkpointMinutes,
        checkpointWriteSeconds: a.checkpointWriteSeconds,
      },
      ft: {
        reconfigureSeconds: a.reconfigureSeconds,
        replicaRestartSeconds: a.replicaRestartSeconds,
        catchUp: a.catchUp,
        catchUpSeconds: a.catchUpSeconds,
        rejoinSeconds: a.rejoinSeconds,
        minReplicas: 1 + Math.floor(a.minReplicasShare * (a.replicas - 1)),
      },
    }),
  );

const RUNS = { numRuns: 150 };

describe("every run", () => {
  it("has ETTR in [0, 1] for both policies, and its time budget adds up", () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { synchronous: sync, ftHsdp: ft } = runScenario(s);
        const H = derived(s).horizonSeconds;
        const eps = 1e-9 * H;
        for (const m of [sync, ft]) {
          expect(m!.ettr).toBeGreaterThanOrEqual(0);
          expect(m!.ettr).toBeLessThanOrEqual(1);
          expect(m!.usefulSeconds).toBeCloseTo(m!.ettr * H, 6);
        }
        // Sync: each second is useful, rolled back, recovering or writing a checkpoint.
        expect(
          Math.abs(
            sync!.usefulSeconds + sync!.lostWorkSeconds + sync!.stallSeconds + sync!.checkpointSeconds - H,
          ),
        ).toBeLessThan(eps);
        // FT: the time with k replicas down covers the horizon once.
        expect(Math.abs(ft!.secondsWithKDown.reduce((a, b) => a + b, 0) - H)).toBeLessThan(eps);
        expect(ft!.secondsWithKDown.length).toBe(s.cluster.replicas + 1);
        expect(ft!.stallSeconds + ft!.degradedSeconds).toBeLessThanOrEqual(H + eps);
      }),
      RUNS,
    );
  });

  it("is a pure function of scenario and seed, bit for bit, recorded or not", () => {
    fc.assert(
      fc.property(scenarioArb, fc.boolean(), (s, record) => {
        const a = runScenario(s, { record });
        const b = runScenario(structuredClone(s), { record });
        expect(b).toEqual(a);
        const fast = runScenario(s);
        expect(fast.synchronous).toEqual(a.synchronous);
        expect(fast.ftHsdp).toEqual(a.ftHsdp);
      }),
      { numRuns: 60 },
    );
  });
});

/** Time spent writing checkpoints in [0, H) with no failure: write j occupies [jC + (j−1)W, j(C+W)). */
function writeTimeWithoutFailures(C: number, W: number, H: number): number {
  let total = 0;
  for (let j = 1; j * C + (j - 1) * W < H; j++) total += Math.min(j * (C + W), H) - (j * C + (j - 1) * W);
  return total;
}

describe("with no failures", () => {
  it("FT-HSDP trains all the time; sync loses only its checkpoint writes", () => {
    fc.assert(
      fc.property(scenarioArb, (base) => {
        const s = { ...base, failures: { ...base.failures, perHostDay: 0 } };
        const r = runScenario(s);
        const H = derived(s).horizonSeconds;
        expect(r.ftHsdp!.ettr).toBe(1);
        expect(r.ftHsdp!.failures).toBe(0);
        const C = s.sync.checkpointMinutes * 60;
        const overhead = C > 0 ? writeTimeWithoutFailures(C, s.sync.checkpointWriteSeconds, H) / H : 0;
        expect(r.synchronous!.ettr).toBeCloseTo(1 - overhead, 12);
      }),
      RUNS,
    );
  });
});

describe("FT-HSDP never below synchronous on the same failure trace", () => {
  /*
   * The theorem: if every FT-HSDP replica recovery (detect + reconfigure + restart + catch-up +
   * rejoin) is no longer than every synchronous recovery (detect + restart), over both
   * detection delays in use, then a replica is down only while the synchronous job is
   * recovering: sync's recovery from failure i lasts at least until t_i + min D, and a
   * failure during it only extends it. So whenever sync trains, FT-HSDP trains at full rate;
   * when sync recovers it gains nothing; and sync alone pays for checkpoints and rollbacks.
   * (Without the condition it is false: e.g. a long FT rejoin against a short sync restart.)
   */
  it("when every replica recovery is no longer than every job recovery", () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 0, max: 600 }), (base, slack) => {
        const { failStopSeconds, hangSeconds } = base.detection;
        const ft = base.ft;
        const s: Scenario = {
          ...base,
          sync: {
            ...base.sync,
            restartSeconds:
              ft.reconfigureSeconds +
              ft.replicaRestartSeconds +
              ft.catchUpSeconds +
              ft.rejoinSeconds +
              Math.abs(hangSeconds - failStopSeconds) +
              slack,
          },
        };
        const r = runScenario(s);
        expect(r.ftHsdp!.usefulSeconds).toBeGreaterThanOrEqual(
          r.synchronous!.usefulSeconds - 1e-9 * r.ftHsdp!.wallSeconds,
        );
      }),
      RUNS,
    );
  });
});

function sortedByStart(start: Float64Array): boolean {
  for (let i = 1; i < start.length; i++) if (start[i]! < start[i - 1]!) return false;
  return true;
}

const sum = (a: Float64Array) => a.reduce((x, y) => x + y, 0);

describe("recorded traces", () => {
  it("are sorted, inside the horizon, and agree with the metrics", () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const r = runScenario(s, { record: true });
        const t = legacyTrace(r.trace!);
        const H = derived(s).horizonSeconds;
        const eps = 1e-9 * H;
        expect(t.failures.time.length).toBe(r.synchronous!.failures);
        expect(t.failures.time.length).toBe(r.ftHsdp!.failures);
        for (const iv of [t.ft, t.sync, t.ftStalls]) {
          expect(sortedByStart(iv.start)).toBe(true);
          expect(iv.start.every((start, i) => start >= 0 && iv.end[i]! > start && iv.end[i]! <= H)).toBe(
            true,
          );
        }
        expect(t.ftStalls.start.every((start, i) => i === 0 || start > t.ftStalls.end[i - 1]!)).toBe(true);
        const stallSpans = sum(t.ftStalls.end) - sum(t.ftStalls.start);
        expect(Math.abs(stallSpans - r.ftHsdp!.stallSeconds)).toBeLessThan(eps);
        expect(Math.abs(sum(t.failures.ftStallSeconds) - r.ftHsdp!.stallSeconds)).toBeLessThan(eps);
        expect(Math.abs(sum(t.failures.syncStallSeconds) - r.synchronous!.stallSeconds)).toBeLessThan(eps);
        expect(Math.abs(sum(t.failures.syncLostSeconds) - r.synchronous!.lostWorkSeconds)).toBeLessThan(eps);
        for (const [curve, m] of [
          [t.progress.synchronous, r.synchronous],
          [t.progress.ftHsdp, r.ftHsdp],
        ] as const) {
          expect(curve.t[0]).toBe(0);
          expect(curve.useful[0]).toBe(0);
          expect(curve.t.at(-1)).toBe(H);
          // The curve's last point and the metric sum the same pieces in another order
          // (synchronous: useful + k·C + pending vs useful + (k·C + pending)): equal to rounding.
          expect(Math.abs(curve.useful.at(-1)! - m!.usefulSeconds)).toBeLessThan(eps);
          // Time never runs back, and progress never outruns the wall clock.
          const steps = curve.t.every(
            (ti, i) =>
              i === 0 ||
              (ti >= curve.t[i - 1]! &&
                curve.useful[i]! - curve.useful[i - 1]! <= ti - curve.t[i - 1]! + eps),
          );
          expect(steps).toBe(true);
        }
        const ftUseful = t.progress.ftHsdp.useful;
        expect(ftUseful.every((u, i) => i === 0 || u >= ftUseful[i - 1]!)).toBe(true);
      }),
      RUNS,
    );
  });
});

// ---- The brute-force reference -------------------------------------------------------------

interface Piece {
  replica: number;
  phase: number;
  start: number;
  end: number;
}

function referenceFt(s: Scenario, tr: FailureTrace): number {
  const H = derived(s).horizonSeconds;
  const R = s.cluster.replicas;
  const { reconfigureSeconds, replicaRestartSeconds, catchUpSeconds, rejoinSeconds, minReplicas } = s.ft;
  const pieces: Piece[] = [];
  for (let i = 0; i < tr.count; i++) {
    const r = tr.replica[i]!;
    let cut = H;
    for (let j = i + 1; j < tr.count; j++) {
      if (tr.replica[j] === r) {
        cut = Math.min(H, tr.time[j]!);
        break;
      }
    }
    let at = tr.time[i]!;
    const lengths = [
      tr.detectSeconds[i]! + reconfigureSeconds,
      replicaRestartSeconds,
      catchUpSeconds,
      rejoinSeconds,
    ];
    lengths.forEach((len, k) => {
      const end = Math.min(at + len, cut);
      if (end > at) pieces.push({ replica: r, phase: k + 1, start: at, end });
      at = Math.max(at, Math.min(at + len, cut));
    });
  }
  const points = [...new Set([0, H, ...pieces.flatMap((p) => [p.start, p.end])])].sort((a, b) => a - b);
  let healthyTime = 0;
  for (let k = 1; k < points.length; k++) {
    const a = points[k - 1]!;
    const b = points[k]!;
    const mid = (a + b) / 2;
    const live = pieces.filter((p) => p.start <= mid && mid < p.end);
    const down = new Set(live.map((p) => p.replica)).size;
    const stalled = live.some(
      (p) => p.phase === 1 || p.phase === 4 || (p.phase === 3 && s.ft.catchUp === "blocking"),
    );
    if (!stalled && R - down >= minReplicas) healthyTime += (R - down) * (b - a);
  }
  return healthyTime / R;
}

function referenceSync(s: Scenario, tr: FailureTrace): number {
  const H = derived(s).horizonSeconds;
  const C = s.sync.checkpointMinutes * 60;
  const W = s.sync.checkpointWriteSeconds;
  // Recoveries: a failure during one restarts it.
  const recoveries: [number, number][] = [];
  for (let i = 0; i < tr.count; i++) {
    const t = tr.time[i]!;
    const end = t + tr.detectSeconds[i]! + s.sync.restartSeconds;
    const last = recoveries.at(-1);
    if (last && t < last[1]) last[1] = end;
    else recoveries.push([t, end]);
  }
  let useful = 0;
  let from = 0;
  for (const [start, end] of [...recoveries, [H, H] as [number, number]]) {
    const until = Math.min(start, H);
    // Walk the training segment [from, until) one checkpoint cycle at a time.
    let saved = 0;
    let clock = from;
    let pending = 0;
    for (;;) {
      if (C === 0) {
        pending = until - clock;
        break;
      }
      // A checkpoint completing at the very moment of the failure counts as completed.
      if (clock + C + W <= until) {
        saved += C;
        clock += C + W;
        continue;
      }
      pending = Math.min(until - clock, C);
      break;
    }
    const failed = start < H;
    useful += saved + (failed && C > 0 ? 0 : pending);
    if (!failed) break;
    from = end;
    if (from >= H) break;
  }
  return useful;
}

describe("against the brute-force reference", () => {
  it("both policies give the same useful time", () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const trace = generateFailureTrace(s, s.seed);
        const r: RunResult = runOnTrace(s, trace);
        const H = derived(s).horizonSeconds;
        expect(Math.abs(r.ftHsdp!.usefulSeconds - referenceFt(s, trace))).toBeLessThan(1e-9 * H);
        expect(Math.abs(r.synchronous!.usefulSeconds - referenceSync(s, trace))).toBeLessThan(1e-9 * H);
      }),
      { numRuns: 200 },
    );
  });
});
