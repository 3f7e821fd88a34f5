import { describe, expect, it } from "vitest";
import { buildSchedule } from "./collectives.ts";
import { fillRandom, verify } from "./reference.ts";

function inputs(n: number, count: number, seed = 1): Float32Array[] {
  return Array.from({ length: n }, (_, r) => {
    const a = new Float32Array(count);
    fillRandom(a, seed + r);
    return a;
  });
}

describe("float64 reference", () => {
  const s = buildSchedule("ring", [0, 1, 2], 300);
  const ins = inputs(3, 300);
  const exact = ins.map(() => {
    const o = new Float32Array(300);
    for (let i = 0; i < 300; i++) o[i] = (ins[0]?.[i] ?? 0) + (ins[1]?.[i] ?? 0) + (ins[2]?.[i] ?? 0);
    return o;
  });

  it("accepts the float32 sum", () => {
    const v = verify(s, ins, exact);
    expect(v.ok).toBe(true);
    expect(v.checked).toBe(900);
    expect(v.firstBad).toBeNull();
  });

  it("rejects poison left in any output element", () => {
    const outs = exact.map((o) => o.slice());
    (outs[2] as Float32Array)[299] = Number.NaN;
    const v = verify(s, ins, outs);
    expect(v.ok).toBe(false);
    expect(v.firstBad).toMatchObject({ rank: 2, index: 299 });
  });

  it("rejects a sum that missed one contribution, even a small one", () => {
    const outs = exact.map((o) => o.slice());
    const o = outs[1] as Float32Array;
    o[7] = (o[7] as number) - (ins[2]?.[7] as number);
    expect(verify(s, ins, outs).ok).toBe(false);
  });

  it("rejects an error just above the stated bound and accepts one just below", () => {
    const one = buildSchedule("ring", [0, 1], 64);
    const a = new Float32Array(64).fill(1);
    const b = new Float32Array(64).fill(1);
    // Σ|x| = 2, k = 2: bound = 3 · 2⁻²³ · 2 ≈ 7.2e-7 around a sum of 2 (float32 ulp at 2 is 2.4e-7).
    const near = new Float32Array(64).fill(2 + 2 ** -22);
    const far = new Float32Array(64).fill(2 + 2 ** -20);
    expect(verify(one, [a, b], [near, near]).ok).toBe(true);
    expect(verify(one, [a, b], [far, far]).ok).toBe(false);
  });

  it("draws fresh values in [−1, 1) per seed", () => {
    const [a, b] = inputs(2, 10_000, 42);
    expect(a).not.toEqual(b);
    expect(Math.min(...(a as Float32Array))).toBeGreaterThanOrEqual(-1);
    expect(Math.max(...(a as Float32Array))).toBeLessThan(1);
  });
});
