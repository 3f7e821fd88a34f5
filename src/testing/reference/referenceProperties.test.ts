/**
 * The reference against itself on generated collision-prone v2 scenarios: bookkeeping that must
 * add up, and §3 settings that must change nothing (a pool too big to run dry is an unlimited one;
 * an FTAR timeout no shorter than the watchdog is none). Catches slips in the reference that a
 * comparison with the engine would only show as "one of the two is wrong".
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Scenario } from "../../sim/scenario/index.ts";
import { collidingV2Scenario } from "./collisions.arbitrary.ts";
import { type Knobs, referenceFailures } from "./failures.ts";
import { type ReferenceMetrics, referenceFtHsdpV2, referenceSynchronousV2 } from "./independent.ts";
import { knobsOf } from "./knobs.ts";

const SLOW = { timeout: 60_000 };

function both(s: Scenario, k: Knobs) {
  const failures = referenceFailures(s, knobsOf(s), s.seed);
  return { sync: referenceSynchronousV2(s, k, failures), ft: referenceFtHsdpV2(s, k, failures) };
}

const near = (a: number, b: number, H: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, H);

/** Every figure but poolEmptySeconds, flattened; repairs split time into more pieces, so up to rounding. */
function figures(m: ReferenceMetrics): number[] {
  return [
    m.ettr,
    m.usefulSeconds,
    m.failures,
    m.stallSeconds,
    m.lostWorkSeconds,
    m.checkpoints,
    m.degradedSeconds,
    m.jobRestarts,
    m.spareWaitSeconds,
    m.longestSpareWaitSeconds,
    ...m.secondsWithKDown,
    ...m.perCause.flatMap((c) => [c.count, c.stallSeconds]),
  ];
}
function expectSame(a: ReferenceMetrics, b: ReferenceMetrics, H: number): void {
  const x = figures(a);
  const y = figures(b);
  expect(x.length).toBe(y.length);
  x.forEach((v, i) => {
    expect(near(v, y[i]!, H), `figure ${i}: ${v} vs ${y[i]}`).toBe(true);
  });
}

describe("the reference's own bookkeeping on v2 scenarios", () => {
  it("adds up: time shares, spare waits, per-cause counts and stalls", SLOW, () => {
    fc.assert(
      fc.property(collidingV2Scenario, (s) => {
        const H = s.training.days * 86_400;
        const R = s.cluster.replicas;
        const { sync, ft } = both(s, knobsOf(s));
        for (const m of [sync, ft]) {
          expect(m.usefulSeconds).toBeLessThanOrEqual(H - m.stallSeconds + 1e-6);
          expect(m.usefulSeconds).toBeGreaterThanOrEqual(-1e-6);
          expect(m.longestSpareWaitSeconds).toBeLessThanOrEqual(m.spareWaitSeconds + 1e-6);
          expect(m.poolEmptySeconds).toBeLessThanOrEqual(H + 1e-6);
          if (m.perCause.length > 0) {
            expect(m.perCause.reduce((a, c) => a + c.count, 0)).toBe(m.failures);
            expect(
              near(
                m.perCause.reduce((a, c) => a + c.stallSeconds, 0),
                m.stallSeconds,
                H,
              ),
            ).toBe(true);
          }
        }
        expect(sync.spareWaitSeconds).toBeLessThanOrEqual(sync.stallSeconds + 1e-6);
        expect(sync.jobRestarts).toBe(sync.failures);
        expect(
          near(
            ft.secondsWithKDown.reduce((a, b) => a + b, 0),
            H,
            H,
          ),
        ).toBe(true);
        expect(ft.spareWaitSeconds).toBeLessThanOrEqual(R * H + 1e-6);
        expect(ft.stallSeconds + ft.degradedSeconds).toBeLessThanOrEqual(H + 1e-6);
        if (s.ft.checkpointMinutes === 0) expect(ft.lostWorkSeconds).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it("a pool that cannot run dry is an unlimited one; a timeout ≥ the watchdog is none", SLOW, () => {
    fc.assert(
      fc.property(collidingV2Scenario, (s) => {
        const k = knobsOf(s);
        const unlimited = both(s, { ...k, pool: "unlimited", hangTimeoutSeconds: 0 });
        const deep = both(s, {
          ...k,
          pool: "limited",
          spareHosts: 1_000_000,
          hangTimeoutSeconds: s.detection.hangSeconds + 1,
        });
        const H = s.training.days * 86_400;
        expectSame(deep.sync, unlimited.sync, H);
        expectSame(deep.ft, unlimited.ft, H);
        expect(unlimited.ft.poolEmptySeconds).toBe(0);
      }),
      { numRuns: 200 },
    );
  });
});
