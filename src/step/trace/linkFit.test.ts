/**
 * The fit and the model beside the measurement, on a DDP-shaped trace built from stated figures
 * (src/testing/ddpTrace.ts): every all-reduce takes exactly 40 µs + 0.0002 µs per byte over 2 ranks.
 * So the line is t = 0.04 ms + 2·10⁻⁷ ms/byte, and the ring model 2(n−1)α + 2(n−1)/n · S/B
 * with n = 2 gives α = 0.04 ms / 2 = 20 µs and B = 1 / (2·10⁻¹⁰ s/byte) = 5 GB/s.
 */
import { describe, expect, it } from "vitest";
import { ddpGpuTrace, exampleSpec } from "../../testing/ddpTrace.ts";
import { DEFAULT_STEP_CONFIG } from "../presetCatalog.ts";
import { fitLink, fittedLink } from "./linkFit.ts";
import { measureRank } from "./measure.ts";
import { modelBeside } from "./modelBeside.ts";
import { measureSet } from "./ranks.ts";
import { readTraceText } from "./readTrace.ts";

const rank0 = () => measureRank(readTraceText("rank0", ddpGpuTrace(exampleSpec(0))), 0, { allSteps: false });

describe("α–β fit to the measured all-reduces", () => {
  it("recovers the line the trace was built from, with zero residuals", () => {
    const r = fitLink([rank0()], 2);
    if (!r.ok) throw new Error(r.why);
    // 3 kept steps × 4 buckets.
    expect(r.fit.calls).toBe(12);
    expect(r.fit.interceptMs).toBeCloseTo(0.04, 9);
    expect(r.fit.msPerByte).toBeCloseTo(2e-7, 15);
    expect(r.fit.alpha).toBeCloseTo(20e-6, 12);
    expect(r.fit.bandwidth / 5e9).toBeCloseTo(1, 9);
    expect(r.fit.r2).toBeCloseTo(1, 9);
    expect(r.fit.rmsMs).toBeLessThan(1e-9);
  });

  it("says why it cannot fit: no sizes, one size", () => {
    const f = rank0();
    const noSizes = { ...f, activities: f.activities.map((a) => ({ ...a, bytes: null })) };
    expect(fitLink([noSizes], 2)).toMatchObject({
      ok: false,
      why: expect.stringMatching(/carries its size/),
    });
    const oneSize = {
      ...f,
      activities: f.activities.map((a) => ({ ...a, bytes: a.bytes === null ? null : 1024 })),
    };
    expect(fitLink([oneSize], 2)).toMatchObject({ ok: false, why: expect.stringMatching(/two sizes/) });
  });
});

describe("the model beside the measurement", () => {
  it("with the fitted link, the model built on the trace's own rules reproduces its buckets and overlap", () => {
    const f = rank0();
    const fit = fitLink([f], 2);
    if (!fit.ok) throw new Error(fit.why);
    const link = fittedLink(fit.fit, DEFAULT_STEP_CONFIG.parallel.interLink);
    const r = modelBeside(f, 0, DEFAULT_STEP_CONFIG, link, 2);
    if (!r.ok) throw new Error(r.why);
    const b = r.beside;
    // Forward 3 ms, backward (1 + 4 + 8 + 2) MiB × 0.0004 µs/byte, optimizer 0.5 ms.
    expect(b.compute.forwardMs).toBeCloseTo(3, 9);
    expect(b.compute.backwardMs).toBeCloseTo((15 * 1_048_576 * 0.0004) / 1e3, 9);
    expect(b.compute.optimizerMs).toBeCloseTo(0.5, 9);
    // The trace's step starts its forward 100 µs in: the model's buckets are the same, 0.1 ms earlier.
    expect(b.predicted.buckets.map((x) => x.bytes)).toEqual([1_048_576, 4_194_304, 8_388_608, 2_097_152]);
    b.predicted.buckets.forEach((p, i) => {
      expect(p.start + 0.1).toBeCloseTo(b.measured.buckets[i]?.start as number, 6);
      expect(p.end + 0.1).toBeCloseTo(b.measured.buckets[i]?.end as number, 6);
    });
    // The measured overlap is rounded to two decimals, as HTA prints it.
    expect(Math.abs(b.overlapErrorPts as number)).toBeLessThanOrEqual(0.005);
    // The measured window holds 200 µs of lead and tail the model does not have.
    expect(b.stepErrorMs).toBeLessThan(0);
  });

  it("with a preset link the error is stated", () => {
    const f = rank0();
    const r = modelBeside(f, 0, DEFAULT_STEP_CONFIG, DEFAULT_STEP_CONFIG.parallel.interLink, 2);
    if (!r.ok) throw new Error(r.why);
    expect(r.beside.overlapErrorPts).not.toBeCloseTo(0, 1);
  });

  it("late start: rank 1 starts every all-reduce 30 µs late", () => {
    const set = measureSet(
      [0, 1].map((k) => readTraceText(`rank${k}`, ddpGpuTrace(exampleSpec(k)))),
      { allSteps: false },
    );
    // Gradients are ready at 419.4, 2097.2, 5452.6 and 6291.5 µs after the backward starts; the
    // all-reduces take 249.7, 878.9, 1717.8 and 459.4 µs. The first three start when their
    // gradient is ready (+30 µs on rank 1); the fourth waits for the third, which ends 30 µs
    // later on rank 1, then adds its own 30: late by 30, 30, 30, 60 µs.
    expect(set.lateStart[1]?.maxMs).toBeCloseTo(0.06, 9);
    expect(set.lateStart[1]?.meanMs).toBeCloseTo(0.0375, 9);
    expect(set.lateStart[1]?.calls).toBe(12);
    expect(set.lateStart[0]?.maxMs).toBe(0);
  });
});
