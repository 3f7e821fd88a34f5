import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Link, linkPreset, type ParallelismConfig } from "./collectiveCost.ts";
import { makeParam, type Param } from "./modelList.ts";
import { presetParams } from "./presets.ts";
import { NO_SLOW_RANK, type SlowRank, slowLinkWhich } from "./slowRank.ts";
import { slowRankSentence } from "./slowRankText.ts";
import { runStep, type StepConfig, type StepTimeline } from "./stepTimeline.ts";

/**
 * A model worked by hand: three float32 parameters of 300, 200 and 100 elements, each its own
 * bucket (caps of a byte), ready in reverse: bucket 0 = p2 (400 B), 1 = p1 (800 B), 2 = p0
 * (1,200 B). Backward 60 ms over 600 elements is 0.1 ms each: p2 10→20, p1 20→40, p0 40→70
 * after a 10 ms forward. Two ranks on one link with α = 0 and B = 10⁵ B/s: a ring all-reduce of
 * S bytes over 2 ranks is 2(n−1)/n · S/B = S/B, so the buckets take 4, 8 and 12 ms.
 */
const params: Param[] = [
  makeParam({ name: "p0", shape: [300], dtype: "float32" }),
  makeParam({ name: "p1", shape: [200], dtype: "float32" }),
  makeParam({ name: "p2", shape: [100], dtype: "float32" }),
];
const link: Link = { id: "eth-100", label: "test", alpha: 0, bandwidth: 1e5, source: "test" };
const ddp: ParallelismConfig = {
  mode: "ddp",
  gpusPerReplica: 2,
  replicas: 1,
  missingReplica: false,
  algorithm: "ring",
  intraLink: link,
  interLink: link,
};
const tiny: StepConfig = {
  capMb: 1e-6,
  firstBucketMb: 1e-6,
  compute: { forwardMs: 10, backwardMs: 60, optimizerMs: 5 },
  parallel: ddp,
};
const withSlow = (slowRank: SlowRank, c: StepConfig = tiny): StepConfig => ({ ...c, slowRank });

/** Each reduction as [start, end] and its wait as [start, end] or null, to 1e-9 ms. */
function reductions(t: StepTimeline) {
  const r = (x: number) => Math.round(x * 1e9) / 1e9;
  return t.comm.map((c) => [[r(c.start), r(c.end)], c.wait ? [r(c.wait.start), r(c.wait.end)] : null]);
}

describe("a slow rank, worked by hand on three buckets", () => {
  it("at speed: reductions 20–24, 40–48, 70–82, optimizer to 87", () => {
    const r = runStep(params, tiny);
    expect(r.buckets.map((b) => b.params)).toEqual([[2], [1], [0]]);
    expect(reductions(r.overlapped)).toEqual([
      [[20, 24], null],
      [[40, 48], null],
      [[70, 82], null],
    ]);
    expect(r.metrics.stepMs).toBeCloseTo(87, 9);
    expect(r.slowRank).toBeUndefined();
    // "none" is the step as before, whatever its factor.
    expect(runStep(params, withSlow({ kind: "none", factor: 7 }))).toEqual(r);
  });

  it("backward 1.5×: each bucket waits until the slow rank has it (25, 55, 100)", () => {
    // The slow rank has at forward + 1.5·x what this GPU has at forward + x: 10 + 1.5·10 = 25,
    // 10 + 1.5·30 = 55, 10 + 1.5·60 = 100. This GPU had them at 20, 40, 70 with its stream free.
    const r = runStep(params, withSlow({ kind: "compute", factor: 1.5 }));
    expect(reductions(r.overlapped)).toEqual([
      [
        [25, 29],
        [20, 25],
      ],
      [
        [55, 63],
        [40, 55],
      ],
      [
        [100, 112],
        [70, 100],
      ],
    ]);
    expect(r.overlapped.optimizer.end).toBeCloseTo(117, 9);
    expect(r.metrics.stepMs).toBeCloseTo(117, 9);
    // Exposed: from this GPU's end of backward (70) to the last reduction's end (112).
    expect(r.metrics.exposedCommMs).toBeCloseTo(42, 9);
    expect(r.slowRank?.kind).toBe("compute");
    expect(r.slowRank?.rank).toBe(1);
    expect(r.slowRank?.waitMs).toBeCloseTo(5 + 15 + 30, 9);
    expect(r.slowRank?.evenStepMs).toBeCloseTo(87, 9);
    expect(r.slowRank?.exposedWaitMs).toBeCloseTo(117 - 87, 9);
  });

  it("backward 1.5× without overlap: every reduction waits for the slow rank's backward (100)", () => {
    const r = runStep(params, withSlow({ kind: "compute", factor: 1.5 }));
    expect(reductions(r.baseline)).toEqual([
      [
        [100, 104],
        [70, 100],
      ],
      [[104, 112], null],
      [[112, 124], null],
    ]);
    expect(r.baselineMetrics.stepMs).toBeCloseTo(129, 9);
  });

  it("a link at half speed: every ring takes twice as long, the tail is the wait", () => {
    // B/2: 8, 16, 24 ms. 20–28, 40–56, 70–94; optimizer 94–99.
    const r = runStep(params, withSlow({ kind: "link", factor: 2 }));
    expect(reductions(r.overlapped)).toEqual([
      [
        [20, 28],
        [24, 28],
      ],
      [
        [40, 56],
        [48, 56],
      ],
      [
        [70, 94],
        [82, 94],
      ],
    ]);
    expect(r.metrics.stepMs).toBeCloseTo(99, 9);
    expect(r.slowRank?.waitMs).toBeCloseTo(4 + 8 + 12, 9);
    // Only the last bucket's wait is exposed: 99 − 87.
    expect(r.slowRank?.exposedWaitMs).toBeCloseTo(12, 9);
    // busbw reads the slow ring: 400 B in 8 ms over 2 ranks is 50,000 B/s.
    expect(r.overlapped.comm[0]?.busbw).toBeCloseTo(5e4, 3);
  });

  it("a link at quarter speed: the queue behind a slow ring is not counted twice", () => {
    // 16, 32, 48 ms: 20–36, 40–72, then bucket 2 (ready at 70) waits for the stream to 72: 72–120.
    const r = runStep(params, withSlow({ kind: "link", factor: 4 }));
    expect(reductions(r.overlapped)).toEqual([
      [
        [20, 36],
        [24, 36],
      ],
      [
        [40, 72],
        [48, 72],
      ],
      [
        [72, 120],
        [84, 120],
      ],
    ]);
    expect(r.metrics.stepMs).toBeCloseTo(125, 9);
    expect(r.slowRank?.waitMs).toBeCloseTo(12 + 24 + 36, 9);
    expect(r.slowRank?.exposedWaitMs).toBeCloseTo(125 - 87, 9);
  });

  it("HSDP: a slow link slows the all-reduce across replicas, not the reduce-scatter inside", () => {
    // 2 replicas of 2 GPUs: reduce-scatter of S over 2 ranks is S/(2B), the all-reduce of the
    // S/2 shard over 2 replicas S/(2B): 2 + 2, 4 + 4, 6 + 6 ms; the slow link doubles the second,
    // so bucket 0 takes 2 + 4 ms from 20, and its last 2 ms are the wait.
    const hsdp = { ...tiny, parallel: { ...ddp, mode: "hsdp" as const, replicas: 2 } };
    expect(slowLinkWhich(hsdp.parallel)).toBe("interLink");
    const r = runStep(params, withSlow({ kind: "link", factor: 2 }, hsdp));
    const phases = r.overlapped.comm[0]?.phases.map((p) => Math.round((p.end - p.start) * 1e9) / 1e9);
    expect(phases).toEqual([2, 4]);
    expect(reductions(r.overlapped)[0]).toEqual([
      [20, 26],
      [24, 26],
    ]);
    expect(r.slowRank?.rank).toBe(3);
  });

  it("needs a second rank: alone, a slow rank changes nothing", () => {
    const one = { ...tiny, parallel: { ...ddp, gpusPerReplica: 1 } };
    const r = runStep(params, withSlow({ kind: "compute", factor: 3 }, one));
    expect(r).toEqual(runStep(params, one));
    expect(r.slowRank).toBeUndefined();
  });
});

describe("the slow rank's sentence, from the figures", () => {
  const say = (c: StepConfig) => slowRankSentence(c, runStep(params, c));

  it("says what the hand-worked steps add", () => {
    expect(say(tiny)).toBeNull();
    expect(say(withSlow({ kind: "compute", factor: 1.5 }))).toBe(
      "One rank (rank 1 of 2) at 1.5× backward makes every all-reduce wait for its gradients: 50.00 ms of waiting, +30.00 ms a step (87.00 ms → 117.00 ms).",
    );
    expect(say(withSlow({ kind: "link", factor: 2 }))).toBe(
      "One rank's test link inside the node at 1/2 of its bandwidth (rank 1 of 2) makes every all-reduce run at its pace: 24.00 ms of waiting, +12.00 ms a step (87.00 ms → 99.00 ms).",
    );
  });

  it("says why a slow rank changes nothing, when it does not", () => {
    const one = { ...tiny, parallel: { ...ddp, gpusPerReplica: 1 } };
    expect(say(withSlow({ kind: "compute", factor: 2 }, one))).toMatch(
      /with 1 GPU taking part there is none/,
    );
    // HSDP with one replica: no ring across replicas for a slow link to slow.
    const hsdp1 = { ...tiny, parallel: { ...ddp, mode: "hsdp" as const, replicas: 1 } };
    expect(say(withSlow({ kind: "link", factor: 2 }, hsdp1))).toMatch(/holds no all-reduce back here/);
  });
});

describe("a slow rank on any model", () => {
  const arb = fc.record({
    preset: fc.constantFrom("resnet50", "vit_b_16", "bert_large_like"),
    capMb: fc.double({ min: 0.5, max: 200, noNaN: true }),
    kind: fc.constantFrom<"compute" | "link">("compute", "link"),
    factor: fc.double({ min: 1, max: 100, noNaN: true }),
    mode: fc.constantFrom<"ddp" | "hsdp">("ddp", "hsdp"),
    replicas: fc.integer({ min: 1, max: 16 }),
  });
  const models = new Map<string, Param[]>();
  const realLinks = { intraLink: linkPreset("nvlink-h100"), interLink: linkPreset("roce-400") };

  it("never shortens the step; the waits are where the stream was held back", () => {
    fc.assert(
      fc.property(arb, (c) => {
        const ps = models.get(c.preset) ?? presetParams(c.preset);
        models.set(c.preset, ps);
        const config: StepConfig = {
          ...tiny,
          capMb: c.capMb,
          firstBucketMb: 1,
          compute: { forwardMs: 30, backwardMs: 60, optimizerMs: 2 },
          parallel: { ...ddp, mode: c.mode, gpusPerReplica: 8, replicas: c.replicas, ...realLinks },
        };
        const even = runStep(ps, config);
        const r = runStep(ps, withSlow({ kind: c.kind, factor: c.factor }, config));
        const s = r.slowRank;
        expect(s).toBeDefined();
        if (!s) return;
        const eps = 1e-12 * r.metrics.stepMs;
        expect(s.evenStepMs).toBe(even.metrics.stepMs);
        expect(s.exposedWaitMs).toBeGreaterThanOrEqual(-eps);
        // Every millisecond the slow rank adds to the step is one the stream spent waiting for it.
        expect(s.exposedWaitMs).toBeLessThanOrEqual(s.waitMs + eps);
        for (const cs of r.overlapped.comm) {
          if (!cs.wait) continue;
          expect(cs.wait.end).toBeGreaterThan(cs.wait.start);
          // A compute wait ends where the reduction starts; a link wait is its slowed tail.
          expect(c.kind === "compute" ? cs.wait.end : cs.end).toBe(
            c.kind === "compute" ? cs.start : cs.wait.end,
          );
        }
        expect(r.metrics.exposedCommMs).toBeGreaterThanOrEqual(even.metrics.exposedCommMs - eps);
      }),
      { numRuns: 150 },
    );
  });

  it("at factor 1 is the step at speed, within rounding", () => {
    const ps = presetParams("resnet50");
    const even = runStep(ps, { ...tiny, capMb: 25, parallel: { ...ddp, replicas: 4 } });
    for (const kind of ["compute", "link"] as const) {
      const r = runStep(
        ps,
        withSlow({ kind, factor: 1 }, { ...tiny, capMb: 25, parallel: { ...ddp, replicas: 4 } }),
      );
      expect(r.metrics.stepMs).toBeCloseTo(even.metrics.stepMs, 9);
      expect(r.slowRank?.waitMs).toBeCloseTo(0, 9);
    }
  });

  it("defaults to none", () => {
    expect(NO_SLOW_RANK.kind).toBe("none");
  });
});
