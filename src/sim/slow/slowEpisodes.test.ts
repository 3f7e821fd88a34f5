/**
 * docs/model.md §6 in the engine: slow episodes leave version 4 alone when there are none, split
 * wall time exactly for every policy, match the M/G/∞ closed form where it is exact, set each
 * policy's pace as §6 says on hand-placed episodes, and count against the run's cost bound.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { v3Scenario } from "../../testing/scenario.arbitrary.ts";
import { runOnTrace, runScenario } from "../engine.ts";
import { failureTraceOf } from "../failures/failureTrace.ts";
import { monteCarloCost } from "../monteCarlo/budget.ts";
import { monteCarlo } from "../monteCarlo/monteCarlo.ts";
import { parseScenario, type Scenario } from "../scenario/index.ts";
import { BADPUT_CATEGORIES, type PolicyKey, type PolicyMetrics } from "../types.ts";
import { drawSlowEpisodes, type SlowEpisodes, slowShare, withEvictions } from "./slowEpisodes.ts";

const ALL: PolicyKey[] = ["synchronous", "ftHsdp", "inMemory", "hotSpare"];

const slowScenario: fc.Arbitrary<Scenario> = fc
  .record({
    base: v3Scenario,
    perHostDay: fc.constantFrom(0.01, 0.2, 2),
    median: fc.constantFrom(0.5, 15, 120),
    sigma: fc.constantFrom(0, 1, 2),
    factor: fc.constantFrom(1, 1.5, 4),
    evict: fc.constantFrom(0, 5, 30),
  })
  .map((r) =>
    parseScenario({
      ...r.base,
      slow: {
        perHostDay: r.perHostDay,
        medianMinutes: r.median,
        sigma: r.sigma,
        factor: r.factor,
        evictAfterMinutes: r.evict,
      },
    }),
  );

function episodes(rows: [start: number, end: number, host: number][], factor: number): SlowEpisodes {
  return {
    count: rows.length,
    start: Float64Array.from(rows, (r) => r[0]),
    end: Float64Array.from(rows, (r) => r[1]),
    host: Int32Array.from(rows, (r) => r[2]),
    evicted: new Uint8Array(rows.length),
    factor,
  };
}

describe("slow episodes (§6)", () => {
  it("none (perHostDay 0) draw nothing: every policy's numbers are version 4's, bit for bit, whatever the other slow fields", () => {
    const base = parseScenario({ policies: ALL, training: { days: 3 } });
    const other = parseScenario({
      policies: ALL,
      training: { days: 3 },
      slow: { perHostDay: 0, medianMinutes: 60, sigma: 2, factor: 3, evictAfterMinutes: 10 },
    });
    expect(other.version).toBe(5);
    expect(drawSlowEpisodes(other, 1)).toBeNull();
    const a = runScenario(base);
    const b = runScenario(other);
    for (const k of ALL) expect(b[k]).toEqual(a[k]);
  });

  it("leave the failures where they were: the same seed draws the same failures with and without episodes", () => {
    const s = parseScenario({ training: { days: 2 } });
    const slow = parseScenario({ training: { days: 2 }, slow: { perHostDay: 0.05 } });
    const a = runScenario(s, { record: true }).trace!.failures;
    const b = runScenario(slow, { record: true }).trace!.failures;
    expect(b.time).toEqual(a.time);
    expect(runScenario(slow).synchronous!.slowEpisodes).toBeGreaterThan(0);
  });

  it("split wall time exactly: ETTR + every badput share = 1 (1e-9) for every policy, recorded or not", {
    timeout: 120_000,
  }, () => {
    fc.assert(
      fc.property(slowScenario, (s) => {
        const r = runScenario(s);
        const recorded = runScenario(s, { record: true });
        for (const key of s.policies) {
          const m = r[key] as PolicyMetrics;
          let total = m.ettr;
          for (const b of BADPUT_CATEGORIES) {
            expect(m.badput[b], `${key}.${b}`).toBeGreaterThanOrEqual(-1e-12);
            total += m.badput[b];
          }
          expect(Math.abs(total - 1), `${key} ${JSON.stringify(m.badput)} ${m.ettr}`).toBeLessThanOrEqual(
            1e-9,
          );
          expect(recorded[key]).toEqual(m);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("match the M/G/∞ closed form in the mean without failures (every policy), and say it is exact", () => {
    const s = parseScenario({
      policies: ALL,
      cluster: { gpus: 512, gpusPerHost: 8, replicas: 8 },
      training: { days: 60 },
      failures: { perHostDay: 0 },
      sync: { checkpointMinutes: 30, checkpointWriteSeconds: 20 },
      slow: { perHostDay: 0.4, medianMinutes: 20, sigma: 1, factor: 2 },
    });
    const mc = monteCarlo(s, 24);
    const p = slowShare(s);
    expect(p).toBeGreaterThan(0.3);
    for (const k of ALL) {
      const form = mc.closedForm.policies?.[k];
      const m = mc[k]!;
      if (form?.value == null) continue;
      expect(form.note).toMatch(/exact in the long run/);
      // 24 runs of 60 days: the mean's standard error is well under half a point.
      expect(Math.abs(m.ettr.mean - form.value), k).toBeLessThan(0.01);
    }
    // The synchronous form is the renewal form (1 with no failures) times 1 − p(1 − 1/f), less the writes.
    expect(mc.closedForm.policies?.ftHsdp?.value).toBeCloseTo(1 - p / 2, 12);
  });

  it("label the form approximate with failures, and give none with eviction", () => {
    const approx = parseScenario({ slow: { perHostDay: 0.01 } });
    expect(runScenario(approx).closedForm.policies?.synchronous?.note).toMatch(/approximate/);
    const evict = parseScenario({ slow: { perHostDay: 0.01, evictAfterMinutes: 5 } });
    expect(runScenario(evict).closedForm.policies?.ftHsdp?.value).toBeNull();
  });

  it("set each policy's pace: the whole job at any slow host's, FT-HSDP at its healthy replicas'", () => {
    const s = parseScenario({
      policies: ALL,
      cluster: { gpus: 64, gpusPerHost: 8, replicas: 4 },
      training: { days: 0.1 },
      failures: { perHostDay: 0 },
      detection: { failStopSeconds: 0 },
      ft: { replicaRestartSeconds: 1000, rejoinSeconds: 0 },
      inMemory: { checkpointMinutes: 0 },
      slow: { perHostDay: 1e-9, factor: 2 },
    });
    // Hosts 0–1 are replica 0. One episode on host 0 from 1,000 s to 2,000 s: everyone loses 500 s.
    const ep = episodes([[1000, 2000, 0]], 2);
    const alone = runOnTrace(s, withEvictions(s, failureTraceOf(s, []), ep));
    for (const k of ALL) {
      expect((alone[k] as PolicyMetrics).badput.slow * 8640, k).toBeCloseTo(500, 6);
      expect((alone[k] as PolicyMetrics).usefulSeconds, k).toBeCloseTo(8640 - 500, 6);
    }
    // Replica 0 fails at 1,000 s and is down until 2,000 s: FT-HSDP's healthy replicas are not
    // slow, so it loses only the down replica's quarter; the synchronous job restarts (540 s) and
    // is slow for the rest of the episode, 2,000 − 1,540 s at half pace.
    const struck = runOnTrace(s, withEvictions(s, failureTraceOf(s, [{ time: 1000, host: 1 }]), ep));
    expect(struck.ftHsdp!.badput.slow).toBe(0);
    expect(struck.ftHsdp!.usefulSeconds).toBeCloseTo(8640 - 1000 / 4, 6);
    expect(struck.synchronous!.badput.slow * 8640).toBeCloseTo(230, 6);
  });

  it("evict a host still slow evictAfterMinutes into its episode: a failure found at once, ending it", () => {
    const s = parseScenario({
      policies: ALL,
      training: { days: 1 },
      failures: { perHostDay: 0 },
      slow: { perHostDay: 0.02, medianMinutes: 15, sigma: 1, evictAfterMinutes: 15 },
    });
    const ep = drawSlowEpisodes(s, s.seed)!;
    let evicted = 0;
    for (let e = 0; e < ep.count; e++) {
      if (!ep.evicted[e]) continue;
      evicted++;
      expect(ep.end[e]! - ep.start[e]!).toBeCloseTo(900, 9);
    }
    // About half the episodes outlast their median.
    expect(evicted / ep.count).toBeGreaterThan(0.35);
    expect(evicted / ep.count).toBeLessThan(0.65);
    const r = runScenario(s, { record: true });
    const inHorizon = Array.from(ep.end).filter((t, e) => ep.evicted[e] && t < 86_400).length;
    expect(r.synchronous!.evictions).toBe(inHorizon);
    expect(r.synchronous!.failures).toBe(inHorizon);
    expect(r.ftHsdp!.evictions).toBe(inHorizon);
    const log = r.trace!.failures;
    expect(Array.from(log.evicted).every((x) => x === 1)).toBe(true);
    expect(Array.from(log.detectSeconds).every((x) => x === 0)).toBe(true);
    // An eviction is a replica failure for FT-HSDP (reconfigure, restart, rejoin): it degrades.
    expect(r.ftHsdp!.degradedSeconds).toBeGreaterThan(0);
  });

  it("count against the run's cost like failures, and a refusal names the expected number and the bound", () => {
    const s = parseScenario({ failures: { perHostDay: 0 }, slow: { perHostDay: 0.1 } });
    expect(monteCarloCost(s, 10)).toBeCloseTo(10 * 12_288 * 0.1 * 30, 6);
    const refuse = () => parseScenario({ slow: { perHostDay: 5 } });
    expect(refuse).toThrow(/slow\.perHostDay: 1,843,200 expected slow episodes/);
    expect(refuse).toThrow(/at most 1,000,000 in all/);
  });
});
