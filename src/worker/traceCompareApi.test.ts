/**
 * The worker's comparison gives the command line's: two sets opened as Blobs (as the page hands
 * them over), the test set's rank 1 slowed (src/testing/ddpTrace.ts), compared with progress;
 * a cancelled comparison stops at the next rank and keeps nothing.
 */
import { describe, expect, it } from "vitest";
import { diffSentence } from "../step/trace/diffReport.ts";
import { measureSet } from "../step/trace/ranks.ts";
import { readTraceText } from "../step/trace/readTrace.ts";
import { diffSets } from "../step/trace/traceDiff.ts";
import { type DdpTraceSpec, ddpGpuTrace, exampleSpec } from "../testing/ddpTrace.ts";
import { traceApi } from "./traceApi.ts";
import { traceCompareApi } from "./traceCompareApi.ts";

const fast = { forwardUs: 3000, backwardUsPerByte: 0.0004 };
const slow = { forwardUs: 3000, backwardUsPerByte: 0.0006 };
const control = (k: number): DdpTraceSpec => ({ ...exampleSpec(k), lateUs: 0, tailUs: 50 });
const test = (k: number): DdpTraceSpec =>
  k === 1 ? { ...control(k), ...slow, peer: fast } : { ...control(k), peer: slow };

async function open(spec: DdpTraceSpec) {
  const ticket = traceApi.traceTicket();
  const name = `rank${spec.rank}.json`;
  const r = await traceApi.traceOpen(ticket, new Blob([ddpGpuTrace(spec)]), name, () => {});
  if (!r.ok) throw new Error(r.error);
  return r.id;
}

const ranks = (specs: DdpTraceSpec[]) =>
  measureSet(
    specs.map((s) => readTraceText(`rank${s.rank}.json`, ddpGpuTrace(s))),
    { allSteps: false },
  ).ranks;

describe("trace worker: compare two sets", () => {
  it("gives the command line's sentence and parts, with progress up to the end", async () => {
    const a = await Promise.all([0, 1].map((k) => open(control(k))));
    const b = await Promise.all([0, 1].map((k) => open(test(k))));
    const seen: [number, number][] = [];
    const ticket = traceApi.traceTicket();
    const r = await traceCompareApi.traceCompare(ticket, a, b, false, (done, total) =>
      seen.push([done, total]),
    );
    if (!r.ok) throw new Error(r.error);
    const d = diffSets(ranks([control(0), control(1)]), ranks([test(0), test(1)]));
    expect(r.view.sentence).toBe(diffSentence(d));
    expect(r.view.delta).toEqual(d.delta);
    expect(r.view.ranks.map((x) => [x.rank, x.main])).toEqual([
      [0, "exposedCommMs"],
      [1, "computeMs"],
    ]);
    expect(seen.at(-1)).toEqual([8, 8]);
    expect(seen.every(([done], i) => i === 0 || done >= (seen[i - 1]?.[0] ?? 0))).toBe(true);
    expect(r.view.aligned?.rank).toBe(0);
    const other = traceCompareApi.traceCompareStep(ticket, 1, 2);
    expect(other?.index).toBe(2);
    expect((other?.test.stepMs ?? 0) - (other?.control.stepMs ?? 0)).toBeCloseTo(
      d.ranks[1]?.steps[2]?.delta.stepMs as number,
      9,
    );
    traceCompareApi.traceCompareRelease(ticket);
    expect(traceCompareApi.traceCompareStep(ticket, 1, 2)).toBeNull();
  });

  it("a cancel is heard at the next rank: nothing is kept, and the traces stay open for another try", async () => {
    const a = await Promise.all([0, 1].map((k) => open(control(k))));
    const b = await Promise.all([0, 1].map((k) => open(test(k))));
    const ticket = traceApi.traceTicket();
    let measured = 0;
    const running = traceCompareApi.traceCompare(ticket, a, b, false, (done) => {
      measured = done;
      if (done === 1) traceCompareApi.traceCompareCancel(ticket);
    });
    const r = await running;
    expect(r).toEqual({ ok: false, cancelled: true, error: "cancelled" });
    expect(measured).toBe(1);
    expect(traceCompareApi.traceCompareStep(ticket, 0, 0)).toBeNull();
    const again = await traceCompareApi.traceCompare(traceApi.traceTicket(), a, b, false, () => {});
    expect(again.ok).toBe(true);
  });

  it("a closed trace is named, not compared", async () => {
    const a = await open(control(0));
    const b = await open(test(0));
    traceApi.traceClose(b);
    const r = await traceCompareApi.traceCompare(traceApi.traceTicket(), [a], [b], false, () => {});
    expect(r).toEqual({ ok: false, cancelled: false, error: "a test trace is no longer open" });
  });
});
