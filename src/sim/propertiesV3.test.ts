/**
 * Properties of every version-3 run (docs/model.md §4) over generated scenarios that select any
 * 1–4 policies in any order, with every §3 and §4 part: where the time goes adds up exactly, each
 * selected policy (and only it) is in the result, in display order, and a recorded run gives the
 * numbers an unrecorded one gives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { v3Scenario } from "../testing/scenario.arbitrary.ts";
import { runScenario } from "./engine.ts";
import { monteCarlo } from "./monteCarlo/monteCarlo.ts";
import { BADPUT_CATEGORIES, type PolicyMetrics } from "./types.ts";

const policyKeys = (o: object) =>
  Object.keys(o).filter((k) => !["scenario", "closedForm", "trace", "seeds"].includes(k));

describe("every version-3 run", () => {
  it("splits wall time exactly: ETTR + the badput shares = 1 (1e-9), each share ≥ 0, for every policy", {
    timeout: 60_000,
  }, () => {
    fc.assert(
      fc.property(v3Scenario, (s) => {
        const r = runScenario(s);
        expect(policyKeys(r)).toEqual(s.policies);
        for (const key of s.policies) {
          const m = r[key] as PolicyMetrics;
          let total = m.ettr;
          for (const b of BADPUT_CATEGORIES) {
            expect(m.badput[b], `${key}.${b}`).toBeGreaterThanOrEqual(-1e-12);
            total += m.badput[b];
          }
          expect(
            Math.abs(total - 1),
            `${key}: ${JSON.stringify(m.badput)} ettr ${m.ettr}`,
          ).toBeLessThanOrEqual(1e-9);
          expect(m.ettr).toBeGreaterThanOrEqual(0);
          expect(m.ettr).toBeLessThanOrEqual(1 + 1e-12);
          expect(m.badput.rolledBack * m.wallSeconds).toBeCloseTo(m.lostWorkSeconds, 6);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a recorded run has the metrics of an unrecorded one, and a recording per selected policy", {
    timeout: 60_000,
  }, () => {
    fc.assert(
      fc.property(v3Scenario, (s) => {
        const plain = runScenario(s);
        const recorded = runScenario(s, { record: true });
        expect(recorded.trace?.policies).toEqual(s.policies);
        expect(Object.keys(recorded.trace?.recordings ?? {})).toEqual(s.policies);
        for (const key of s.policies) expect(recorded[key]).toEqual(plain[key]);
      }),
      { numRuns: 150 },
    );
  });

  it("a Monte Carlo summarizes the selected policies, in display order, badput included", {
    timeout: 60_000,
  }, () => {
    fc.assert(
      fc.property(v3Scenario, (s) => {
        const mc = monteCarlo(s, 3);
        expect(policyKeys(mc)).toEqual(s.policies);
        expect(Object.keys(mc.closedForm.policies ?? {})).toEqual(s.policies);
        for (const key of s.policies) expect(Object.keys(mc[key]!.badput)).toEqual([...BADPUT_CATEGORIES]);
      }),
      { numRuns: 40 },
    );
  });
});
