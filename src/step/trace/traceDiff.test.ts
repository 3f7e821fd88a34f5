/**
 * The trace diff on pairs of trace sets with a change made on purpose, written by the project's
 * own trace maker (src/testing/ddpTrace.ts: DDP-shaped GPU traces from stated figures), so the
 * expected difference is known: a bucket cap raised (the same gradients in half as many
 * all-reduces) and a slowed rank (one rank's backward 1.5× slower, its peer waiting for it in the
 * all-reduces). And the project's real gloo traces (scripts/make-trace-fixtures.py), rank 1 slowed
 * on purpose, and against themselves: no difference at all.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { type DdpTraceSpec, ddpGpuTrace } from "../../testing/ddpTrace.ts";
import { diffJson, diffSentence, diffText, mainPart } from "./diffReport.ts";
import { alignStep, coarsen, subtract } from "./diffTimeline.ts";
import { measureRank, type RankFigures } from "./measure.ts";
import { readTraceText } from "./readTrace.ts";
import { ADDITIVE } from "./stepSplit.ts";
import { diffSets } from "./traceDiff.ts";

const MB = 1_048_576;

function spec(rank: number, over: Partial<DdpTraceSpec> = {}): DdpTraceSpec {
  return {
    rank,
    worldSize: 2,
    steps: 4,
    buckets: [1 * MB, 4 * MB, 8 * MB, 2 * MB],
    forwardUs: 3000,
    backwardUsPerByte: 0.0004,
    optimizerUs: 500,
    interceptUs: 40,
    usPerByte: 0.0002,
    tailUs: 50,
    ...over,
  };
}

const measured = (s: DdpTraceSpec): RankFigures =>
  measureRank(readTraceText(`rank${s.rank}.json`, ddpGpuTrace(s)), s.rank, { allSteps: false });

const set = (specs: DdpTraceSpec[]) => specs.map(measured);

describe("a bucket cap raised: the same gradients in two all-reduces instead of four", () => {
  const control = set([spec(0), spec(1)]);
  const test = set([spec(0, { buckets: [5 * MB, 10 * MB] }), spec(1, { buckets: [5 * MB, 10 * MB] })]);
  const d = diffSets(control, test);

  it("every step of every rank is matched, and each side's parts add up to its step", () => {
    expect(d.ranks.map((r) => r.rank)).toEqual([0, 1]);
    expect(d.pairs).toBe(6);
    for (const r of d.ranks)
      for (const s of r.steps)
        for (const side of [s.control, s.test, s.delta]) {
          const sum = ADDITIVE.reduce((t, p) => t + side[p], 0);
          expect(sum).toBeCloseTo(side.stepMs, 9);
          expect(side.exposedCommMs).toBeCloseTo(side.commMs - side.overlapMs, 9);
        }
  });

  it("computation is unchanged; the step grows by exactly the exposed communication's growth", () => {
    for (const [i, r] of d.ranks.entries()) {
      for (const s of r.steps) {
        expect(s.delta.computeMs).toBeCloseTo(0, 9);
        // The measurement's own exposed figure per step (measure.ts) says the same.
        const c = control[i]?.steps[s.index]?.exposedCommMs as number;
        const t = test[i]?.steps[s.index]?.exposedCommMs as number;
        expect(s.delta.exposedCommMs).toBeCloseTo(t - c, 9);
        expect(s.delta.exposedCommMs).toBeGreaterThan(0.5);
        // The window ends 50 µs after the optimizer (rounded up to a µs): idle moves by under 1 µs.
        expect(Math.abs(s.delta.idleMs)).toBeLessThan(1e-3);
      }
      expect(mainPart(r.delta)).toBe("exposedCommMs");
    }
    expect(mainPart(d.delta)).toBe("exposedCommMs");
    // The other way round, the step is shorter by the same, and the same part explains it. By hand
    // (µs): control's backward ends at 6291.46 after its start and its last all-reduce at 7629.74
    // (1338.28 exposed); test's last all-reduce, 40 + 0.0002 × 10 MiB = 2137.15 long, starts when
    // the backward ends (2137.15 exposed): 798.87 µs more.
    const back = diffSets(test, control);
    expect(back.delta.stepMs).toBeCloseTo(-d.delta.stepMs, 9);
    expect(diffSentence(back)).toMatch(
      /^Test steps take 0\.799 ms less than control .*; exposed communication explains most of it \(−0\.799 ms of −0\.799 ms\)/,
    );
    expect(diffSentence(d)).toMatch(
      /^Test steps take .* longer than control .*; exposed communication explains most of it/,
    );
  });

  it("HTA's buckets: fewer all-reduces and backward kernels, the same forward and optimizer", () => {
    const row = (label: string) => d.ops.find((o) => o.label.includes(label));
    const ar = row("all-reduce (communication)");
    // 3 kept steps × 2 ranks × 4 buckets → × 2 buckets.
    expect(ar?.control.count).toBe(24);
    expect(ar?.test.count).toBe(12);
    expect(ar?.bucket).toBe("decreased");
    expect(ar?.variants).toEqual(["ncclDevKernel_AllReduce_Sum_f32_RING_LL"]);
    expect(row("cutlass")?.bucket).toBe("decreased");
    expect(row("multi_tensor_apply_kernel")?.bucket).toBe("unchanged");
    expect(row("sm90_xmma_gemm")?.bucket).toBe("unchanged");
    const j = diffJson(d);
    expect(j.opsDiff.decreased).toContain("all-reduce (communication)");
    expect(j.opsDiff.added).toEqual([]);
  });

  it("the aligned timelines hold each side's step, from its own start", () => {
    const a = alignStep(control[0] as RankFigures, test[0] as RankFigures, 0);
    expect(a).not.toBeNull();
    if (a === null) return;
    expect(a.axisMs).toBe(Math.max(a.control.stepMs, a.test.stepMs));
    expect(a.test.stepMs - a.control.stepMs).toBeCloseTo(d.ranks[0]?.steps[0]?.delta.stepMs as number, 9);
    for (const s of [a.control, a.test]) {
      const exposed = s.exposed.reduce((t, x) => t + x.end - x.start, 0);
      expect(exposed).toBeCloseTo(s.split.exposedCommMs, 9);
      expect(Math.max(...s.comm.map((x) => x.end))).toBeLessThanOrEqual(s.stepMs);
    }
  });
});

describe("a slowed rank: rank 1's backward 1.5× slower, rank 0 waiting for it", () => {
  const fast = { forwardUs: 3000, backwardUsPerByte: 0.0004 };
  const slow = { forwardUs: 3000, backwardUsPerByte: 0.0006 };
  const control = set([spec(0), spec(1)]);
  const test = set([spec(0, { peer: slow }), spec(1, { ...slow, peer: fast })]);
  const d = diffSets(control, test);
  const bytes = spec(0).buckets.reduce((t, b) => t + b, 0);

  it("rank 1: its computation grows by the slower backward, and explains most of its change", () => {
    const r1 = d.ranks.find((r) => r.rank === 1);
    for (const s of r1?.steps ?? []) expect(s.delta.computeMs).toBeCloseTo((bytes * 0.0002) / 1e3, 9);
    expect(r1 && mainPart(r1.delta)).toBe("computeMs");
  });

  it("rank 0: the same computation, its step longer by the wait in exposed communication", () => {
    const r0 = d.ranks.find((r) => r.rank === 0);
    for (const s of r0?.steps ?? []) {
      expect(s.delta.computeMs).toBeCloseTo(0, 9);
      expect(s.delta.exposedCommMs).toBeGreaterThan(0);
      expect(s.delta.stepMs).toBeGreaterThan(0);
    }
    expect(r0 && mainPart(r0.delta)).toBe("exposedCommMs");
    // Both ranks end each all-reduce together, so their steps take equally long in test.
    const r1 = d.ranks.find((r) => r.rank === 1);
    expect(r0?.test.stepMs).toBeCloseTo(r1?.test.stepMs as number, 9);
  });

  it("the sentence names the part and the rank the numbers do", () => {
    const part = mainPart(d.delta);
    const name = part === "computeMs" ? "computation" : "exposed communication";
    expect(diffSentence(d)).toContain(`${name} explains most of it`);
    expect(diffSentence(d)).toContain(`most on rank ${part === "computeMs" ? 1 : 0}`);
    expect(diffText(d)).toContain("rank 1 (rank1.json → rank1.json)");
  });
});

const fixtures = join(import.meta.dirname, "fixtures");
/** The project's real gloo traces (scripts/make-trace-fixtures.py): `cpu-gloo`, `cpu-gloo-slow1`. */
const glooSet = (prefix: string) =>
  [0, 1].map((r) => {
    const name = `${prefix}-rank${r}.json.gz`;
    const text = new TextDecoder().decode(gunzipSync(readFileSync(join(fixtures, name))));
    return measureRank(readTraceText(name, text), r, { allSteps: false });
  });

describe("real gloo traces, rank 1 slowed on purpose (make-trace-fixtures.py --slow-rank 1)", () => {
  const d = diffSets(glooSet("cpu-gloo"), glooSet("cpu-gloo-slow1"));
  const rank = (k: number) => d.ranks.find((r) => r.rank === k) as NonNullable<(typeof d.ranks)[number]>;

  it("the slowed rank's change is computation; the other's is exposed communication, its wait", () => {
    expect(d.pairs).toBe(6);
    expect(mainPart(rank(1).delta)).toBe("computeMs");
    expect(mainPart(rank(0).delta)).toBe("exposedCommMs");
    expect(rank(0).delta.exposedCommMs).toBeGreaterThan(rank(0).delta.computeMs);
    expect(diffSentence(d)).toMatch(/^Test steps take .* longer than control/);
  });

  it("the extra matrix products are HTA's increased: 40 more aten::mm a step on rank 1", () => {
    const mm = d.ops.find((o) => o.label === "aten::mm");
    expect(mm?.bucket).toBe("increased");
    // The script's default --slow-mms is 40, over the 3 kept steps.
    expect((mm?.test.count ?? 0) - (mm?.control.count ?? 0)).toBe(40 * 3);
    expect(d.ops.find((o) => o.label === "all-reduce (communication)")?.bucket).toBe("unchanged");
  });
});

describe("the project's gloo traces against themselves", () => {
  const gloo = () => glooSet("cpu-gloo");
  const d = diffSets(gloo(), gloo());

  it("no part of any step moves and every op is unchanged", () => {
    expect(d.pairs).toBeGreaterThan(0);
    for (const r of d.ranks) for (const s of r.steps) for (const p of ADDITIVE) expect(s.delta[p]).toBe(0);
    expect(d.ops.length).toBeGreaterThan(0);
    expect(d.ops.every((o) => o.bucket === "unchanged" && o.diffUs === 0)).toBe(true);
    expect(d.ops.some((o) => o.label === "all-reduce (communication)")).toBe(true);
    expect(diffSentence(d)).toMatch(/^Test steps take as long as control ones .* and no part of it moved\.$/);
  });

  it("a rank in one set only is named, and the others still compare", () => {
    const [r0] = gloo();
    const one = diffSets(gloo(), [r0 as RankFigures]);
    expect(one.ranks.map((r) => r.rank)).toEqual([0]);
    expect(one.notes).toContain("rank 1 is only in control (cpu-gloo-rank1.json.gz)");
  });
});

describe("timeline helpers", () => {
  it("subtract cuts b out of a", () => {
    expect(
      subtract(
        [
          { start: 0, end: 10 },
          { start: 20, end: 30 },
        ],
        [
          { start: 2, end: 4 },
          { start: 8, end: 22 },
        ],
      ),
    ).toEqual([
      { start: 0, end: 2 },
      { start: 4, end: 8 },
      { start: 22, end: 30 },
    ]);
  });

  it("coarsen keeps at most max spans, closing the smallest gaps, covering the same extent", () => {
    const spans = Array.from({ length: 1000 }, (_, i) => ({
      start: i * 10,
      end: i * 10 + (i % 7 === 0 ? 1 : 9),
    }));
    const out = coarsen(spans, 50);
    expect(out.length).toBeLessThanOrEqual(50);
    expect(out[0]?.start).toBe(0);
    expect(out.at(-1)?.end).toBe(spans.at(-1)?.end);
    for (const s of spans) expect(out.some((o) => o.start <= s.start && s.end <= o.end)).toBe(true);
  });
});
