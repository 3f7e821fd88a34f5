import { describe, expect, it } from "vitest";
import {
  buildLaneIndex,
  decimateCurve,
  LaneRunCursor,
  laneIndexByKey,
  laneRunSteps,
  laneRuns,
  Runs,
  singleLane,
  singleLaneSteps,
} from "./lod.ts";

const f64 = (xs: number[]) => Float64Array.from(xs);

function runsOf(out: Runs) {
  return Array.from({ length: out.n }, (_, i) => [out.x0[i], out.x1[i], out.kind[i]]);
}

describe("lane index", () => {
  it("groups rows by lane and keeps each lane in start order", () => {
    const start = f64([0, 1, 2, 3, 4]);
    const end = f64([5, 2, 3, 10, 4.5]);
    const lanes = [1, 0, 1, 0, 1];
    const idx = buildLaneIndex(5, 2, (i) => lanes[i] as number, start, end);
    expect(Array.from(idx.rows.subarray(idx.offsets[0], idx.offsets[1]))).toEqual([1, 3]);
    expect(Array.from(idx.rows.subarray(idx.offsets[1], idx.offsets[2]))).toEqual([0, 2, 4]);
    expect(Array.from(idx.maxDuration)).toEqual([7, 5]);
  });

  it("reads lanes from keys grouped by replica, leaving out negative keys (job scope)", () => {
    const start = f64([0, 1, 2, 3, 4, 5]);
    const end = f64([5, 2, 3, 10, 4.5, 5]);
    const replica = Int32Array.from([3, 0, 2, -1, 5, 1]);
    const byKey = laneIndexByKey(replica, 2, 3, start, end);
    const byCallback = buildLaneIndex(6, 3, (i) => Math.floor((replica[i] as number) / 2), start, end);
    expect(byKey).toEqual(byCallback);
    expect(Array.from(byKey.rows)).toEqual([1, 5, 0, 2, 4]);
  });

  it("indexes one lane in order, the same as grouping every row into lane 0", () => {
    const start = f64([0, 1, 2, 3]);
    const end = f64([5, 2, 9, 3.5]);
    expect(singleLane(start, end)).toEqual(buildLaneIndex(4, 1, () => 0, start, end));
    expect(singleLane(start, start)).toEqual(buildLaneIndex(4, 1, () => 0, start, start));
  });
});

describe("laneRuns", () => {
  const view = { t0: 0, t1: 100, left: 10, width: 100 }; // 1 px per second, from x = 10

  it("draws wide intervals as their own rectangles, clipped to the view", () => {
    const idx = singleLane(f64([-20, 30, 90]), f64([5, 40, 200]));
    const out = new Runs();
    laneRuns(idx, 0, f64([-20, 30, 90]), f64([5, 40, 200]), () => 1, view, out);
    expect(runsOf(out)).toEqual([
      [10, 15, 1],
      [40, 50, 1],
      [100, 110, 1],
    ]);
  });

  it("finds a long interval that started well before the window", () => {
    const start = f64([-1000, 50]);
    const end = f64([20, 51.5]);
    const out = new Runs();
    laneRuns(singleLane(start, end), 0, start, end, () => 1, view, out);
    expect(out.n).toBe(2);
    expect(out.x0[0]).toBe(10);
  });

  it("merges sub-pixel intervals in one pixel column, keeping the most important kind", () => {
    const start = f64([20.1, 20.3, 20.6, 70.2]);
    const end = f64([20.2, 20.4, 20.7, 70.3]);
    const kinds = [1, 3, 2, 2];
    const out = new Runs();
    laneRuns(singleLane(start, end), 0, start, end, (r) => kinds[r] as number, view, out);
    expect(runsOf(out)).toEqual([
      [30, 31, 3],
      [80, 81, 2],
    ]);
    expect(out.cover[0]).toBeCloseTo(0.3, 5);
    expect(out.cover[1]).toBeCloseTo(0.1, 5);
  });

  it("bounds the output by the pixel width however many intervals there are", () => {
    const n = 100_000;
    const start = Float64Array.from({ length: n }, (_, i) => i * 0.001);
    const end = start.map((s) => s + 0.0005);
    const out = new Runs();
    laneRuns(singleLane(start, end), 0, start, end, () => 1, view, out);
    expect(out.n).toBeLessThanOrEqual(101);
    expect(out.n).toBeGreaterThan(90);
  });

  it("skips rows whose kind is 0 and rows outside the window", () => {
    const start = f64([-50, 10, 150]);
    const end = f64([-40, 20, 160]);
    const out = new Runs();
    laneRuns(singleLane(start, end), 0, start, end, (r) => (r === 1 ? 0 : 1), view, out);
    expect(out.n).toBe(0);
  });
});

describe("decimateCurve", () => {
  it("keeps a short curve as it is", () => {
    expect(decimateCurve([0, 1, 2], [0, 1, 0], 100)).toEqual({ t: [0, 1, 2], y: [0, 1, 0] });
  });

  it("thins a long curve to a few points per column but keeps its drops and its ends", () => {
    const n = 100_000;
    const t = Float64Array.from({ length: n }, (_, i) => i);
    const y = Float64Array.from({ length: n }, (_, i) => (i === 54_321 ? -5 : i / 2));
    const d = decimateCurve(t, y, 200);
    expect(d.t.length).toBeLessThanOrEqual(800);
    expect(Math.min(...d.y)).toBe(-5);
    expect(d.t[0]).toBe(0);
    expect(d.t.at(-1)).toBe(n - 1);
    for (let i = 1; i < d.t.length; i++) expect(d.t[i]).toBeGreaterThan(d.t[i - 1] as number);
  });
});

describe("a lane drawn a part at a time (a million-row lane over several tasks)", () => {
  // Dense sub-pixel intervals with mixed kinds, a few wide ones, and some outside the window:
  // cuts fall inside merged pixel columns, which must carry over from one part to the next.
  const n = 5_000;
  const start = Float64Array.from({ length: n }, (_, i) => i * 0.05 - 20 + (i % 7 === 0 ? 0.01 : 0));
  const end = start.map((s, i) => s + (i % 97 === 0 ? 3 : 0.02));
  const kind = (r: number) => (r % 11 === 0 ? 0 : 1 + (r % 3));
  const view = { t0: 0, t1: 200, left: 10, width: 333 };
  const all = (out: Runs) => [runsOf(out), Array.from(out.cover.subarray(0, out.n))];

  it("gives exactly laneRuns' runs however the rows are cut", () => {
    const idx = singleLane(start, end);
    const whole = new Runs();
    laneRuns(idx, 0, start, end, kind, view, whole);
    for (const rows of [1, 7, 64, 999, n]) {
      const out = new Runs();
      let drawn = 0;
      const steps = laneRunSteps(
        () => new LaneRunCursor(idx, 0, start, end, kind, view, out),
        out,
        rows,
        () => {
          drawn++;
          return out.n;
        },
      );
      expect(steps.length).toBeGreaterThan(rows < 1000 ? 1 : 0);
      const marks = steps.map((s) => s());
      expect(drawn).toBe(1);
      expect(marks.at(-1)).toBe(whole.n);
      expect(all(out)).toEqual(all(whole));
    }
  });

  it("indexes one lane in steps exactly as in one pass", () => {
    let idx: unknown = null;
    const steps = singleLaneSteps(start, end, (i) => {
      idx = i;
    });
    for (const s of steps) s();
    expect(idx).toEqual(singleLane(start, end));
  });
});
