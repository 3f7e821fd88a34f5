import { describe, expect, it } from "vitest";
import { parseModelList } from "./modelList.ts";
import { DEFAULT_STEP_CONFIG } from "./presetCatalog.ts";
import { reduceTimeline } from "./stepLod.ts";
import { runStep } from "./stepTimeline.ts";

/** n parameters whose dtypes alternate, so every gradient lands in another bucket than the last. */
function alternating(n: number) {
  return JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      name: `p${i}`,
      shape: [64, 64],
      dtype: i % 2 ? "torch.float32" : "torch.bfloat16",
    })),
  );
}

describe("step Gantt level of detail", () => {
  const params = parseModelList(alternating(20_000));
  const result = runStep(params, { ...DEFAULT_STEP_CONFIG, capMb: 0.5 });

  it("reduces tens of thousands of gradients and buckets to a bounded number of marks", () => {
    expect(result.overlapped.backward.length).toBe(20_000);
    const r = reduceTimeline(result.overlapped, 1000);
    expect(r.backward.length).toBeLessThanOrEqual(1001);
    expect(r.comm.length).toBeLessThanOrEqual(1001);
  });

  it("keeps the rows' extent and order, and names each mark by a bucket it covers", () => {
    const t = result.overlapped;
    const r = reduceTimeline(t, 1000);
    expect(r.backward[0]?.start).toBe(t.backward[0]?.start);
    expect(r.backward.at(-1)?.end).toBe(t.backward.at(-1)?.end);
    expect(r.comm.at(-1)?.end).toBe(t.comm.at(-1)?.end);
    for (let i = 1; i < r.backward.length; i++)
      expect(r.backward[i]?.start).toBeGreaterThanOrEqual(r.backward[i - 1]?.end as number);
    const buckets = new Set(t.backward.map((s) => s.bucket));
    for (const s of r.backward) expect(buckets.has(s.bucket)).toBe(true);
  });

  it("keeps the slow rank's waits, all of them, on the merged marks", () => {
    for (const kind of ["compute", "link"] as const) {
      const slow = runStep(params, { ...DEFAULT_STEP_CONFIG, capMb: 0.5, slowRank: { kind, factor: 2 } });
      const r = reduceTimeline(slow.overlapped, 1000);
      expect(r.comm.length).toBeLessThanOrEqual(1001);
      const waited = (cs: readonly { wait?: { start: number; end: number } }[]) =>
        cs.reduce((s, c) => s + (c.wait ? c.wait.end - c.wait.start : 0), 0);
      expect(slow.slowRank?.waitMs).toBeGreaterThan(0);
      expect(waited(r.comm)).toBeCloseTo(slow.slowRank?.waitMs ?? 0, 6);
      for (const c of r.comm) if (c.wait) expect(c.wait.end).toBeLessThanOrEqual(c.end);
    }
  });

  it("leaves a small timeline as it is", () => {
    const small = runStep(parseModelList(alternating(10)), DEFAULT_STEP_CONFIG);
    expect(reduceTimeline(small.overlapped)).toEqual(small.overlapped);
  });
});
