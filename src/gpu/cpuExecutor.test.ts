import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALGORITHMS, buildSchedule } from "./collectives.ts";
import { runScheduleCpu } from "./cpuExecutor.ts";
import { fillRandom, verify } from "./reference.ts";

function runOnCpu(
  algorithm: (typeof ALGORITHMS)[number],
  ranks: number[],
  devices: number,
  count: number,
  avg: boolean,
) {
  const s = buildSchedule(algorithm, ranks, count, avg ? "avg" : "sum");
  const ins = Array.from({ length: devices }, (_, r) => {
    const a = new Float32Array(count);
    fillRandom(a, 1000 + r * 7 + count);
    return a;
  });
  const outs = Array.from({ length: devices }, () => new Float32Array(count).fill(Number.NaN));
  runScheduleCpu(s, { in: ins, out: outs });
  return { s, ins, outs };
}

describe("CPU fallback", () => {
  for (const algorithm of ALGORITHMS) {
    it(`${algorithm} matches the float64 reference for any n and size`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 2, max: 16 }), fc.integer({ min: 1, max: 20_000 }), (n, count) => {
          const ranks = [...Array(n).keys()];
          const { s, ins, outs } = runOnCpu(algorithm, ranks, n, count, false);
          const v = verify(s, ins, outs);
          expect(v.firstBad).toBeNull();
          expect(v.ok).toBe(true);
        }),
        { numRuns: 25 },
      );
    });
  }

  it("averages over the survivors of a re-formed ring, leaving the dead device untouched", () => {
    const { s, ins, outs } = runOnCpu("ring", [0, 2, 3, 5], 6, 5000, true);
    expect(verify(s, ins, outs).ok).toBe(true);
    expect(outs[1]?.every(Number.isNaN)).toBe(true);
    const i = 1234;
    const mean = [0, 2, 3, 5].reduce((a, r) => a + (ins[r]?.[i] ?? 0), 0) / 4;
    expect(outs[3]?.[i]).toBeCloseTo(mean, 6);
  });
});
