import { describe, expect, it } from "vitest";
import { parseModelList } from "../step/modelList.ts";
import { DEFAULT_STEP_CONFIG } from "../step/presetCatalog.ts";
import { MAX_GANTT_MARKS } from "../step/stepLod.ts";
import { runStep } from "../step/stepTimeline.ts";
import { MAX_BUCKET_VIEWS, stepApi } from "./stepApi.ts";

describe("the step worker's picture of a step", () => {
  it("gives each bucket of the table its own reduction, exact, when the Gantt's row is reduced", () => {
    // 1,500 parameters of 4 MiB under a 1 MiB cap: a bucket each, more than the Gantt draws.
    const text = JSON.stringify(
      Array.from({ length: 1500 }, (_, i) => ({ name: `p${i}`, shape: [1024, 1024], dtype: "float32" })),
    );
    const config = { ...DEFAULT_STEP_CONFIG, capMb: 1 };
    const reply = stepApi.stepRun({ model: { kind: "paste", text }, config });
    if (!reply.ok) throw new Error(reply.error);
    const exact = runStep(parseModelList(text), config).overlapped.comm;
    expect(reply.result.bucketCount).toBe(1500);
    expect(reply.result.overlapped.comm.length).toBeLessThanOrEqual(MAX_GANTT_MARKS + 1);
    expect(reply.result.buckets).toHaveLength(MAX_BUCKET_VIEWS);
    reply.result.buckets.forEach((b, i) => {
      const c = exact[i];
      expect(b.reduction).toEqual({
        ready: c?.ready,
        start: c?.start,
        end: c?.end,
        algbw: c?.algbw,
        busbw: c?.busbw,
      });
    });
    // The reduced row's marks are not the buckets: reading the table from it would be wrong.
    expect(reply.result.overlapped.comm[MAX_BUCKET_VIEWS - 1]?.start).not.toBe(
      exact[MAX_BUCKET_VIEWS - 1]?.start,
    );
  });
});
