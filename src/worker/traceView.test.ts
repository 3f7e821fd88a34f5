/**
 * A million-event trace gives the panel what it can draw: the view's rows and marks are bounded
 * (the panel stopped with "Maximum call stack size exceeded" spreading a quarter of a million
 * all-reduces into Math.max), the step's parts add up to its window, and a trace whose
 * all-reduces carry no size takes the model's bucket sizes when asked.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_STEP_CONFIG } from "../step/presetCatalog.ts";
import { besideEnd, MAX_BESIDE_MARKS } from "../step/trace/besideMarks.ts";
import { RankTraceBuilder } from "../step/trace/traceModel.ts";
import { ddpStepEvents, exampleSpec } from "../testing/ddpTrace.ts";
import { MAX_STEP_ROWS, traceView } from "./traceView.ts";

const link = DEFAULT_STEP_CONFIG.parallel.interLink;

function built(
  events: Iterable<Record<string, unknown>>,
  info = { rank: 0, world_size: 8, backend: "nccl" },
) {
  const b = new RankTraceBuilder("rank0.json");
  for (const e of events) b.event(e);
  return b.finish({ distributedInfo: info });
}

describe("the panel's view of the open traces", () => {
  it("a million-event step: the Gantt gets at most ~1,000 marks a row, the table 200 steps", {
    timeout: 60_000,
  }, () => {
    // One step of 250,000 buckets: a launch and a kernel for each backward and each all-reduce.
    const spec = {
      ...exampleSpec(0),
      buckets: Array.from({ length: 250_000 }, (_, i) => 4096 * (1 + (i % 7))),
    };
    const big = built(ddpStepEvents(spec, 0));
    expect(big.events).toBeGreaterThan(1_000_000);
    const view = traceView([big], true, 0, link);
    if (!view.beside?.ok) throw new Error(view.beside?.ok === false ? view.beside.why : "no beside");
    const b = view.beside.beside;
    for (const side of [b.measured, b.predicted]) {
      expect(side.buckets.length).toBeLessThanOrEqual(MAX_BESIDE_MARKS + 1);
      expect(side.compute.length).toBeLessThanOrEqual(MAX_BESIDE_MARKS + 1);
    }
    // Merged marks keep every byte the step all-reduced.
    const bytes = (s: { bytes: number }[]) => s.reduce((t, x) => t + x.bytes, 0);
    expect(bytes(b.measured.buckets)).toBe(spec.buckets.reduce((t, x) => t + x, 0));
    expect(view.stepComm).toBe(250_000);
    expect(view.timeline?.side.buckets.length).toBeLessThanOrEqual(MAX_BESIDE_MARKS + 1);
    expect(besideEnd(b)).toBeGreaterThanOrEqual(b.measured.stepMs);
  });

  it("many steps: the table and the step menu list the first 200 and say how many there are", () => {
    const spec = { ...exampleSpec(0), buckets: [4096, 8192] };
    const steps = 450;
    const many = built(
      (function* () {
        for (let k = 0; k < steps; k++) yield* ddpStepEvents(spec, k);
      })(),
    );
    const view = traceView([many], false, 0, link);
    expect(view.ranks[0]?.steps).toHaveLength(MAX_STEP_ROWS);
    expect(view.ranks[0]?.stepCount).toBe(steps - 1);
    expect(view.stepNames).toHaveLength(MAX_STEP_ROWS);
    expect(view.stepCount).toBe(steps - 1);
  });

  it("the step's parts add up to its window; the model stands for compute + exposed communication", () => {
    const spec = exampleSpec(0);
    const t = built(
      (function* () {
        for (let k = 0; k < 3; k++) yield* ddpStepEvents(spec, k);
      })(),
    );
    const view = traceView([t], false, 1, link);
    const c = view.contents;
    if (c === null) throw new Error("no contents");
    expect(c.computeMs + c.exposedCommMs + c.otherMs + c.idleMs).toBeCloseTo(c.windowMs, 9);
    expect(c.modelledMs).toBeCloseTo(c.computeMs + c.exposedCommMs, 12);
    expect(c.idleMs).toBeGreaterThan(0);
    expect(view.stepNames[1]).toBe(view.timeline?.step);
  });

  it("unsized all-reduces take the model's bucket sizes when their count matches, and say when not", () => {
    const spec = exampleSpec(0);
    const unsized = function* (k: number) {
      for (const e of ddpStepEvents(spec, k)) {
        const args = e.args as Record<string, unknown> | undefined;
        if (args?.["In msg nelems"] !== undefined) {
          const { "In msg nelems": _n, "Out msg nelems": _o, dtype: _d, ...rest } = args;
          yield { ...e, args: rest };
        } else yield e;
      }
    };
    const t = built(
      (function* () {
        for (let k = 0; k < 3; k++) yield* unsized(k);
      })(),
    );
    const plain = traceView([t], false, 0, link);
    expect(plain.sizes.unsized).toBeGreaterThan(0);
    expect(plain.beside?.ok).toBe(false);
    const borrowed = traceView([t], false, 0, link, { borrow: spec.buckets });
    expect(borrowed.beside?.ok).toBe(true);
    expect(borrowed.sizes.borrowed).toEqual({ sized: 2, unmatched: [] });
    // The sizes it was built with: the fit recovers the link the trace was made from.
    const sized = traceView(
      [
        built(
          (function* () {
            for (let k = 0; k < 3; k++) yield* ddpStepEvents(spec, k);
          })(),
        ),
      ],
      false,
      0,
      link,
    );
    expect(borrowed.fit).toEqual(sized.fit);
    const wrong = traceView([t], false, 0, link, { borrow: [1, 2, 3] });
    expect(wrong.beside?.ok).toBe(false);
    expect(wrong.sizes.borrowed?.unmatched[0]).toMatchObject({ rank: 0, calls: spec.buckets.length });
  });

  it("the rank beside the model is the one chosen", () => {
    const t = (r: number) =>
      built(
        (function* () {
          for (let k = 0; k < 3; k++) yield* ddpStepEvents(exampleSpec(r), k);
        })(),
        { rank: r, world_size: 2, backend: "nccl" },
      );
    const view = traceView([t(0), t(1)], false, 0, link, { rank: 1 });
    expect(view.besideRank).toBe(1);
    expect(view.rankChoices).toEqual([0, 1]);
    expect(traceView([t(0), t(1)], false, 0, link, { rank: 7 }).besideRank).toBe(0);
  });
});
