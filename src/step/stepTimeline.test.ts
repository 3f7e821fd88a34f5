import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Algorithm, linkPreset, type ParallelismConfig } from "./collectiveCost.ts";
import { intersectLength } from "./intervals.ts";
import { makeParam, type Param } from "./modelList.ts";
import { presetParams } from "./presets.ts";
import { runStep, type StepConfig } from "./stepTimeline.ts";
import { logSpacedCaps, sweepBucketCap } from "./sweep.ts";

const parallel: ParallelismConfig = {
  mode: "ddp",
  gpusPerReplica: 8,
  replicas: 4,
  missingReplica: false,
  algorithm: "ring",
  intraLink: linkPreset("nvlink-h100"),
  interLink: linkPreset("roce-400"),
};

const config: StepConfig = {
  capMb: 25,
  firstBucketMb: 1,
  compute: { forwardMs: 30, backwardMs: 60, optimizerMs: 2 },
  parallel,
};

const arbModel = fc.array(
  fc.record({
    numel: fc.integer({ min: 0, max: 20_000_000 }),
    dtype: fc.constantFrom("float32", "bfloat16", "float16"),
  }),
  { minLength: 1, maxLength: 60 },
);

const arbConfig = fc.record({
  capMb: fc.double({ min: 0.1, max: 600, noNaN: true }),
  firstBucketMb: fc.double({ min: 0.1, max: 8, noNaN: true }),
  forwardMs: fc.double({ min: 0, max: 500, noNaN: true }),
  backwardMs: fc.double({ min: 0, max: 1000, noNaN: true }),
  optimizerMs: fc.double({ min: 0, max: 50, noNaN: true }),
  mode: fc.constantFrom<"ddp" | "hsdp">("ddp", "hsdp"),
  replicas: fc.integer({ min: 1, max: 32 }),
  gpusPerReplica: fc.integer({ min: 1, max: 16 }),
  missingReplica: fc.boolean(),
  algorithm: fc.constantFrom<Algorithm>("ring", "halvingDoubling"),
  inter: fc.constantFrom("roce-400", "eth-100", "nvlink-h100"),
});

function toParams(model: { numel: number; dtype: string }[]): Param[] {
  return model.map((m, i) => makeParam({ name: `p${i}`, shape: [m.numel], dtype: m.dtype }));
}

function toConfig(c: typeof arbConfig extends fc.Arbitrary<infer T> ? T : never): StepConfig {
  return {
    capMb: c.capMb,
    firstBucketMb: c.firstBucketMb,
    compute: { forwardMs: c.forwardMs, backwardMs: c.backwardMs, optimizerMs: c.optimizerMs },
    parallel: {
      ...parallel,
      mode: c.mode,
      replicas: c.replicas,
      gpusPerReplica: c.gpusPerReplica,
      missingReplica: c.missingReplica,
      algorithm: c.algorithm,
      interLink: linkPreset(c.inter),
    },
  };
}

describe("runStep", () => {
  it("no-overlap baseline = compute + communication", () => {
    const r = runStep(presetParams("resnet50"), config);
    expect(r.baselineMetrics.stepMs).toBeCloseTo(92 + r.baselineMetrics.commMs, 9);
    expect(r.baselineMetrics.commMs).toBeCloseTo(r.metrics.commMs, 9);
    expect(r.baselineMetrics.overlapRatio).toBe(0);
    expect(r.metrics.stepMs).toBeLessThan(r.baselineMetrics.stepMs);
  });

  it("starts each bucket at max(ready_i, end_{i−1}) in bucket order", () => {
    const { overlapped } = runStep(presetParams("vit_b_16"), config);
    let previousEnd = 0;
    for (const c of overlapped.comm) {
      expect(c.start).toBeCloseTo(Math.max(c.ready, previousEnd), 9);
      previousEnd = c.end;
    }
    expect(overlapped.optimizer.start).toBeCloseTo(Math.max(90, previousEnd), 9);
  });

  it("makes each bucket ready when its last gradient is, with backward shared by element count", () => {
    const ps = toParams([
      { numel: 300, dtype: "float32" },
      { numel: 100, dtype: "float32" },
    ]);
    const r = runStep(ps, { ...config, compute: { forwardMs: 10, backwardMs: 40, optimizerMs: 1 } });
    // Reverse order: p1 (100 el) takes 10 ms, then p0 (300 el) 30 ms.
    expect(r.overlapped.backward.map((b) => [b.param, b.start, b.end])).toEqual([
      [1, 10, 20],
      [0, 20, 50],
    ]);
    expect(r.overlapped.comm[0]?.ready).toBe(50);
  });

  it("keeps overlap ratio in [0, 1] and exposed comm within total comm, for any model", () => {
    fc.assert(
      fc.property(arbModel, arbConfig, (model, c) => {
        const r = runStep(toParams(model), toConfig(c));
        for (const m of [r.metrics, r.baselineMetrics]) {
          expect(m.overlapRatio).toBeGreaterThanOrEqual(0);
          expect(m.overlapRatio).toBeLessThanOrEqual(1 + 1e-12);
          expect(m.exposedCommMs).toBeLessThanOrEqual(m.commMs + 1e-9);
          expect(m.stepMs).toBeGreaterThanOrEqual(m.computeMs - 1e-9);
        }
        expect(r.metrics.stepMs).toBeLessThanOrEqual(r.baselineMetrics.stepMs + 1e-9);
      }),
      { numRuns: 200 },
    );
  });

  it("shortens the HSDP step when a replica is missing (fewer cross-replica members)", () => {
    const ps = presetParams("llama3-8b");
    const hsdp = { ...config, parallel: { ...parallel, mode: "hsdp" as const } };
    const full = runStep(ps, hsdp).metrics;
    const missing = runStep(ps, { ...hsdp, parallel: { ...hsdp.parallel, missingReplica: true } }).metrics;
    expect(missing.commMs).toBeLessThan(full.commMs);
  });
});

describe("intersectLength", () => {
  it("measures overlap of sorted disjoint spans", () => {
    expect(
      intersectLength(
        [
          { start: 0, end: 10 },
          { start: 20, end: 30 },
        ],
        [
          { start: 5, end: 25 },
          { start: 28, end: 40 },
        ],
      ),
    ).toBe(5 + 5 + 2);
  });
});

describe("sweepBucketCap", () => {
  it("covers 0.5–512 MiB with 40 log-spaced caps and marks the fastest", () => {
    const caps = logSpacedCaps();
    expect(caps).toHaveLength(40);
    expect(caps[0]).toBeCloseTo(0.5, 12);
    expect(caps.at(-1)).toBeCloseTo(512, 9);
    expect((caps[1] as number) / (caps[0] as number)).toBeCloseTo(
      (caps[39] as number) / (caps[38] as number),
      9,
    );
    const s = sweepBucketCap(presetParams("resnet50"), config);
    const fastest = Math.min(...s.points.map((p) => p.stepMs));
    expect(s.points[s.best]?.stepMs).toBe(fastest);
    // Bigger caps never make more buckets.
    expect(s.points[0]?.bucketCount).toBeGreaterThan(s.points.at(-1)?.bucketCount ?? 0);
  });
});
