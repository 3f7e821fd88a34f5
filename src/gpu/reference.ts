/**
 * The yardstick every run is judged by: what each device's output should hold, summed in float64
 * from the inputs, and whether the float32 result is within a stated bound of it.
 *
 * Tolerance: summing k float32 values in any order and association is off from the exact sum by at
 * most (k − 1)·u·Σ|xᵢ| with u = 2⁻²⁴ (Higham, Accuracy and Stability, §4.2); a final ×1/n adds
 * one more rounding. We allow (k + 1)·2⁻²³·Σ|xᵢ|·scale, twice that bound plus slack, per element.
 */
import type { Schedule } from "./schedule.ts";

export const UNIT_ROUNDOFF_BOUND = 2 ** -23;

export interface Verdict {
  ok: boolean;
  /** Elements compared (over all devices). */
  checked: number;
  maxAbsError: number;
  /** The largest error the tolerance would have allowed at the worst element. */
  toleranceAtWorst: number;
  /** The first element out of bounds, if any (NaN from the poison counts as out of bounds). */
  firstBad: { rank: number; index: number; got: number; want: number } | null;
}

/** Inputs and outputs indexed by device id. */
export type DeviceArrays = ReadonlyArray<Float32Array | undefined>;

function arrayOf(arrays: DeviceArrays, rank: number, what: string): Float32Array {
  const a = arrays[rank];
  if (!a) throw new RangeError(`no ${what} for device ${rank}`);
  return a;
}

export function verify(schedule: Schedule, inputs: DeviceArrays, outputs: DeviceArrays): Verdict {
  let checked = 0;
  let maxAbsError = 0;
  let toleranceAtWorst = 0;
  let worstRatio = -1;
  let firstBad: Verdict["firstBad"] = null;
  for (const e of schedule.expected) {
    const out = arrayOf(outputs, e.rank, "output");
    const ins = e.contributors.map((c) => arrayOf(inputs, c, "input"));
    const k = ins.length;
    const end = e.range.offset + e.range.length;
    for (let i = e.range.offset; i < end; i++) {
      let sum = 0;
      let abs = 0;
      for (const a of ins) {
        const x = a[i] as number;
        sum += x;
        abs += Math.abs(x);
      }
      const want = sum * e.scale;
      const tol = (k + 1) * UNIT_ROUNDOFF_BOUND * abs * Math.abs(e.scale) + Number.MIN_VALUE;
      const got = out[i] as number;
      const err = Math.abs(got - want);
      checked++;
      if (!(err <= tol)) {
        if (!firstBad) firstBad = { rank: e.rank, index: i, got, want };
        if (!(err <= maxAbsError)) maxAbsError = Number.isNaN(err) ? Number.POSITIVE_INFINITY : err;
        toleranceAtWorst = tol;
        worstRatio = Number.POSITIVE_INFINITY;
        continue;
      }
      if (err > maxAbsError) maxAbsError = err;
      const ratio = err / tol;
      if (ratio > worstRatio) {
        worstRatio = ratio;
        toleranceAtWorst = tol;
      }
    }
  }
  return { ok: firstBad === null, checked, maxAbsError, toleranceAtWorst, firstBad };
}

/** Fresh inputs: uniform in [−1, 1), from a xorshift32 stream seeded per call. */
export function fillRandom(a: Float32Array, seed: number): void {
  let x = seed >>> 0 || 0x9e3779b9;
  for (let i = 0; i < a.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    a[i] = (x >>> 0) * 4.656612873077393e-10 - 1;
  }
}

export function freshSeed(): number {
  return (Math.random() * 2 ** 32) >>> 0;
}
