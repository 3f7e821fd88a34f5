/**
 * Properties of the cluster engine over version-2 scenarios (docs/model.md §3): cause lists with
 * host, rack and job scopes, hangs and newHost; racks and placement; Weibull arrivals; FTAR hang
 * timeouts; FT-HSDP checkpoints; limited spare pools. properties.test.ts holds the version-1
 * ones (and the brute-force reference); these ask what must hold whatever §3 adds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rowAt, rowCount, runChunk } from "../cli/monteCarloChunk.ts";
import { legacyTrace } from "../testing/legacyTrace.ts";
import { v2Scenario } from "../testing/scenario.arbitrary.ts";
import { runScenario } from "./engine.ts";
import { MonteCarloAccumulator, monteCarlo, seedOf } from "./monteCarlo/monteCarlo.ts";
import { POLICIES } from "./policies/index.ts";
import { derived } from "./scenario/index.ts";
import { ScopeCode } from "./types.ts";

const RUNS = { numRuns: 150 };
function sum(a: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < a.length; i++) total += a[i]!;
  return total;
}

/** Every number of a value as its IEEE-754 bits, at every depth: toEqual on it is "bit for bit" (−0 ≠ 0, NaN = NaN). */
function bits(v: unknown): unknown {
  if (typeof v === "number") {
    const b = new DataView(new ArrayBuffer(8));
    b.setFloat64(0, v);
    return b.getBigUint64(0).toString(16);
  }
  if (ArrayBuffer.isView(v)) return { [v.constructor.name]: Array.from(v as Float64Array, bits) };
  if (Array.isArray(v)) return v.map(bits);
  if (v !== null && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, bits(x)]));
  return v;
}

describe("every version-2 run", () => {
  it("has ETTR in [0, 1] and finite metrics for every policy", () => {
    fc.assert(
      fc.property(v2Scenario, (s) => {
        const r = runScenario(s);
        const H = derived(s).horizonSeconds;
        for (const { key } of POLICIES) {
          const m = r[key];
          expect(m!.ettr).toBeGreaterThanOrEqual(0);
          expect(m!.ettr).toBeLessThanOrEqual(1);
          expect(m!.wallSeconds).toBe(H);
          for (const [name, v] of Object.entries(m!)) {
            const values = typeof v === "number" ? [v] : Array.from(v as Float64Array);
            for (const x of values) expect(Number.isFinite(x), `${key}.${name}`).toBe(true);
          }
        }
      }),
      RUNS,
    );
  });

  it("counts each failure under one cause, and splits each policy's stall over the causes", () => {
    fc.assert(
      fc.property(v2Scenario, (s) => {
        const r = runScenario(s);
        const H = derived(s).horizonSeconds;
        const causes = s.failures.causes.length;
        for (const { key } of POLICIES) {
          const m = r[key];
          expect(m!.causeCount.length).toBe(causes);
          expect(m!.causeStallSeconds.length).toBe(causes);
          if (causes === 0) continue;
          expect(sum(m!.causeCount)).toBe(m!.failures);
          expect(Math.abs(sum(m!.causeStallSeconds) - m!.stallSeconds)).toBeLessThanOrEqual(1e-9 * H);
          expect(m!.causeStallSeconds.every((x) => x >= 0)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it("has a time budget that adds up (§1, §3)", () => {
    fc.assert(
      fc.property(v2Scenario, (s) => {
        const { synchronous: sync, ftHsdp: ft } = runScenario(s);
        const H = derived(s).horizonSeconds;
        const eps = 1e-9 * Math.max(1, H);
        // Sync: each second is useful, rolled back, recovering (waiting for spares included) or writing.
        expect(
          Math.abs(
            sync!.usefulSeconds + sync!.lostWorkSeconds + sync!.stallSeconds + sync!.checkpointSeconds - H,
          ),
        ).toBeLessThanOrEqual(eps);
        // Every synchronous failure is a job restart; its spare waits are wall time within the stall.
        expect(sync!.jobRestarts).toBe(sync!.failures);
        expect(sync!.spareWaitSeconds).toBeLessThanOrEqual(sync!.stallSeconds + eps);
        // FT-HSDP: the time with k replicas down covers the horizon once; stalls and degraded
        // training are disjoint; useful work never exceeds the time not stalled.
        expect(ft!.secondsWithKDown.length).toBe(s.cluster.replicas + 1);
        expect(Math.abs(sum(ft!.secondsWithKDown) - H)).toBeLessThanOrEqual(eps);
        expect(ft!.stallSeconds + ft!.degradedSeconds).toBeLessThanOrEqual(H + eps);
        expect(ft!.usefulSeconds + ft!.stallSeconds).toBeLessThanOrEqual(H + eps);
        for (const m of [sync, ft]) {
          expect(Math.abs(m!.usefulSeconds - m!.ettr * H)).toBeLessThanOrEqual(eps);
          expect(m!.longestSpareWaitSeconds).toBeLessThanOrEqual(m!.spareWaitSeconds + eps);
          expect(m!.poolEmptySeconds).toBeLessThanOrEqual(H + eps);
          expect(m!.meanHealthyReplicas).toBeLessThanOrEqual(s.cluster.replicas + eps);
          if (s.spares.pool === "unlimited") {
            // §3: with an unlimited pool nothing ever waits and the pool is never empty.
            expect(m!.spareWaitSeconds).toBe(0);
            expect(m!.poolEmptySeconds).toBe(0);
          }
        }
        // FT-HSDP rolls back only at job restarts, which only job-scope causes start.
        const jobCauses = s.failures.causes.some((c) => c.scope === "job");
        if (!jobCauses) {
          expect(ft!.jobRestarts).toBe(0);
          expect(ft!.lostWorkSeconds).toBe(0);
        }
        if (s.ft.checkpointMinutes === 0) expect(ft!.lostWorkSeconds).toBe(0);
      }),
      RUNS,
    );
  });

  it("logs each failure once, with per-failure stalls and losses that add up to the metrics", () => {
    fc.assert(
      fc.property(v2Scenario, (s) => {
        const r = runScenario(s, { record: true });
        const log = legacyTrace(r.trace!).failures;
        const H = derived(s).horizonSeconds;
        const eps = 1e-9 * Math.max(1, H);
        expect(log.time.length).toBe(r.synchronous!.failures);
        expect(log.time.length).toBe(r.ftHsdp!.failures);
        expect(Math.abs(sum(log.syncStallSeconds) - r.synchronous!.stallSeconds)).toBeLessThanOrEqual(eps);
        expect(Math.abs(sum(log.syncLostSeconds) - r.synchronous!.lostWorkSeconds)).toBeLessThanOrEqual(eps);
        expect(Math.abs(sum(log.ftStallSeconds) - r.ftHsdp!.stallSeconds)).toBeLessThanOrEqual(eps);
        expect(Math.abs(sum(log.ftLostSeconds) - r.ftHsdp!.lostWorkSeconds)).toBeLessThanOrEqual(eps);
        for (let i = 0; i < log.time.length; i++) {
          const job = log.scope[i] === ScopeCode.job;
          expect(log.hostCount[i]).toBe(
            job ? 0 : log.scope[i] === ScopeCode.rack ? s.cluster.hostsPerRack : 1,
          );
          if (job) expect(log.replicaCount[i]).toBe(s.cluster.replicas);
          // FTAR's timeout only shortens FT-HSDP's detection.
          expect(log.ftDetectSeconds[i]).toBeLessThanOrEqual(log.detectSeconds[i]!);
        }
      }),
      RUNS,
    );
  });

  it("is a pure function of scenario and seed, bit for bit, recorded or not", () => {
    fc.assert(
      fc.property(v2Scenario, fc.boolean(), (s, record) => {
        const a = runScenario(s, { record });
        const b = runScenario(structuredClone(s), { record });
        expect(bits(b)).toEqual(bits(a));
        const other = record ? runScenario(s) : runScenario(s, { record: true });
        for (const { key } of POLICIES) expect(bits(other[key])).toEqual(bits(a[key]));
      }),
      { numRuns: 80 },
    );
  });
});

describe("the Monte Carlo", () => {
  /** Chunk boundaries over n runs: sorted distinct cut points in (0, n). */
  const chunked = fc.integer({ min: 1, max: 10 }).chain((n) =>
    fc.record({
      n: fc.constant(n),
      cuts: fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, n - 1) }), { maxLength: n - 1 }),
      order: fc.func(fc.integer()),
    }),
  );

  it("is the same, bit for bit, however its runs are computed: in any order, in any chunking", () => {
    fc.assert(
      fc.property(v2Scenario, chunked, (s, { n, cuts, order }) => {
        const reference = bits(monteCarlo(s, n));
        // Runs computed in a shuffled order, added in seed order.
        const shuffled = Array.from({ length: n }, (_, i) => i).sort((a, b) => order(a) - order(b) || a - b);
        const runs = new Map(shuffled.map((i) => [i, runScenario(s, { seed: seedOf(s, i) })]));
        const direct = new MonteCarloAccumulator(s, n);
        for (let i = 0; i < n; i++) direct.add(runs.get(i)!);
        expect(bits(direct.finish())).toEqual(reference);
        // The CLI's packed chunks (as its threads share them out), computed last chunk first.
        const bounds = [0, ...[...cuts].filter((c) => c < n).sort((a, b) => a - b), n];
        const chunks = bounds.slice(1).map((end, k) => ({ start: bounds[k]!, count: end - bounds[k]! }));
        const rows = chunks
          .map((_, k) => chunks.length - 1 - k)
          .map((k) => ({ k, rows: runChunk(s, chunks[k]!) }));
        rows.sort((a, b) => a.k - b.k);
        const packed = new MonteCarloAccumulator(s, n);
        for (const { rows: r } of rows) for (let j = 0; j < rowCount(r, s); j++) packed.add(rowAt(r, j, s));
        expect(bits(packed.finish())).toEqual(reference);
      }),
      { numRuns: 60 },
    );
  });
});
