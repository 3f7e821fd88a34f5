import { describe, expect, it } from "vitest";
import { DEFAULT_STEP_CONFIG } from "../step/presetCatalog.ts";
import { presetParams } from "../step/presets.ts";
import { runStep, type StepConfig } from "../step/stepTimeline.ts";
import { BASELINE_PID, COMM_TID, COMPUTE_TID, type StepTraceEvent, stepTraceJson } from "./stepTrace.ts";

const params = presetParams("resnet50");

function traceOf(config: StepConfig): StepTraceEvent[] {
  const parsed = JSON.parse(stepTraceJson("resnet50", params, config, runStep(params, config))) as {
    traceEvents: StepTraceEvent[];
    displayTimeUnit: string;
  };
  expect(parsed.displayTimeUnit).toBe("ms");
  return parsed.traceEvents;
}

const hsdpMissing: StepConfig = {
  ...DEFAULT_STEP_CONFIG,
  parallel: { ...DEFAULT_STEP_CONFIG.parallel, mode: "hsdp", replicas: 3, missingReplica: true },
};

describe("stepTrace (Perfetto / Trace Event JSON)", () => {
  it("every event carries the fields the Trace Event Format requires", () => {
    for (const e of traceOf(DEFAULT_STEP_CONFIG)) {
      expect(typeof e.name).toBe("string");
      expect(["X", "M", "s", "f"]).toContain(e.ph);
      expect(Number.isInteger(e.pid)).toBe(true);
      expect(Number.isInteger(e.tid)).toBe(true);
      expect(Number.isFinite(e.ts)).toBe(true);
      if (e.ph === "X") expect(e.dur).toBeGreaterThanOrEqual(0);
      if (e.ph === "s" || e.ph === "f") expect(Number.isInteger(e.id)).toBe(true);
    }
  });

  it("names one process per replica plus the baseline, each with compute and communication threads", () => {
    const events = traceOf(DEFAULT_STEP_CONFIG);
    const processes = events.filter((e) => e.name === "process_name").map((e) => [e.pid, e.args?.name]);
    expect(processes).toHaveLength(DEFAULT_STEP_CONFIG.parallel.replicas + 1);
    expect(processes.map(([pid]) => pid)).toContain(BASELINE_PID);
    const threads = new Set(events.filter((e) => e.name === "thread_name").map((e) => `${e.pid}/${e.tid}`));
    for (const e of events.filter((x) => x.ph !== "M")) expect(threads.has(`${e.pid}/${e.tid}`)).toBe(true);
  });

  it("has one reduction slice per bucket on the communication thread, after its flow from 'bucket ready'", () => {
    const config = DEFAULT_STEP_CONFIG;
    const r = runStep(params, config);
    const events = traceOf(config).filter((e) => e.pid === 1);
    const comm = events.filter((e) => e.ph === "X" && e.tid === COMM_TID);
    expect(comm).toHaveLength(r.buckets.length);
    const starts = events.filter((e) => e.ph === "s");
    const finishes = events.filter((e) => e.ph === "f");
    expect(starts).toHaveLength(r.buckets.length);
    for (const s of starts) {
      const f = finishes.find((x) => x.id === s.id);
      expect(f?.name).toBe(s.name);
      expect(f?.cat).toBe(s.cat);
      expect(f?.bp).toBe("e");
      expect(f?.tid).toBe(COMM_TID);
      expect(s.tid).toBe(COMPUTE_TID);
      expect(f?.ts ?? 0).toBeGreaterThanOrEqual(s.ts);
      // The start lies inside a compute slice (the gradient that completes the bucket) …
      expect(
        events.some(
          (x) => x.ph === "X" && x.tid === COMPUTE_TID && x.ts <= s.ts && s.ts <= x.ts + (x.dur ?? 0),
        ),
      ).toBe(true);
      // … and the finish inside its reduction.
      expect(comm.some((x) => x.ts <= (f?.ts ?? -1) && (f?.ts ?? -1) <= x.ts + (x.dur ?? 0))).toBe(true);
    }
    const ids = starts.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("shows a missing HSDP replica as recovering, and HSDP's two phases inside each bucket", () => {
    const events = traceOf(hsdpMissing);
    const names = events.filter((e) => e.name === "process_name").map((e) => e.args?.name);
    expect(names).toContain("HSDP replica 2 (missing)");
    expect(events.filter((e) => e.pid === 3 && e.ph === "X").map((e) => e.name)).toEqual([
      "recovering: not a participant (zero gradient)",
    ]);
    const phases = events.filter((e) => e.pid === 1 && e.name.startsWith("reduce-scatter"));
    expect(phases.length).toBeGreaterThan(0);
  });

  it("nests slices properly on every thread (Perfetto drops slices that straddle their parent)", () => {
    for (const config of [DEFAULT_STEP_CONFIG, hsdpMissing, { ...hsdpMissing, capMb: 0.5 }]) {
      const threads = new Map<string, StepTraceEvent[]>();
      for (const e of traceOf(config)) {
        if (e.ph !== "X") continue;
        const key = `${e.pid}/${e.tid}`;
        threads.set(key, [...(threads.get(key) ?? []), e]);
      }
      for (const xs of threads.values()) {
        xs.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
        const open: number[] = [];
        for (const x of xs) {
          while (open.length > 0 && (open.at(-1) as number) <= x.ts) open.pop();
          const end = x.ts + (x.dur ?? 0);
          if (open.length > 0) expect(end).toBeLessThanOrEqual(open.at(-1) as number);
          open.push(end);
        }
      }
    }
  });
});
