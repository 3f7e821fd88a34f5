/**
 * One training step as Chrome / Perfetto Trace Event JSON (open it at ui.perfetto.dev).
 * One process per replica (every replica runs the same step, so they are copies; a missing HSDP
 * replica shows as recovering), plus the no-overlap baseline; in each, one thread for the compute
 * stream and one for the communication stream. Slices are complete ("X") events with `ts`/`dur`
 * in µs; flow events ("s" on the gradient that completes a bucket → "f" on that bucket's
 * reduction, bound to its enclosing slice) draw the arrow from "bucket ready" to its all-reduce.
 */
import type { Bucket } from "../step/bucketAssignment.ts";
import type { Param } from "../step/modelList.ts";
import type { StepConfig, StepResult, StepTimeline } from "../step/stepTimeline.ts";

export interface StepTraceEvent {
  name: string;
  ph: "X" | "M" | "s" | "f";
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  cat?: string;
  id?: number;
  bp?: "e";
  args?: Record<string, string | number>;
}

export interface StepTraceFile {
  traceEvents: StepTraceEvent[];
  displayTimeUnit: "ms";
  metadata: Record<string, string | number>;
}

export const COMPUTE_TID = 1;
export const COMM_TID = 2;
export const BASELINE_PID = 1000;
/** Replicas are identical copies; more than this many would only make the file bigger. */
export const MAX_TRACED_REPLICAS = 16;

/** ms → µs, kept to the nanosecond so that nested slices stay inside their parents. */
const us = (ms: number): number => Math.round(ms * 1e6) / 1e3;

function meta(pid: number, processName: string, sortIndex: number): StepTraceEvent[] {
  return [
    { name: "process_name", ph: "M", pid, tid: 0, ts: 0, args: { name: processName } },
    { name: "process_sort_index", ph: "M", pid, tid: 0, ts: 0, args: { sort_index: sortIndex } },
    { name: "thread_name", ph: "M", pid, tid: COMPUTE_TID, ts: 0, args: { name: "compute" } },
    { name: "thread_name", ph: "M", pid, tid: COMM_TID, ts: 0, args: { name: "communication" } },
  ];
}

function slice(
  pid: number,
  tid: number,
  name: string,
  cat: string,
  startMs: number,
  endMs: number,
  args?: Record<string, string | number>,
): StepTraceEvent {
  const ts = us(startMs);
  return { name, cat, ph: "X", pid, tid, ts, dur: Math.max(0, us(endMs) - ts), ...(args ? { args } : {}) };
}

const bytesPerSecondToGBps = (bytesPerSecond: number): number => Math.round(bytesPerSecond / 1e7) / 100;

function stepEvents(
  pid: number,
  t: StepTimeline,
  buckets: readonly Bucket[],
  params: readonly Param[],
  hsdp: boolean,
  flowBase: number,
): StepTraceEvent[] {
  const events: StepTraceEvent[] = [
    slice(pid, COMPUTE_TID, "forward", "compute", t.forward.start, t.forward.end),
  ];
  const lastOfBucket = new Map<number, { start: number; end: number }>();
  for (const b of t.backward) {
    const p = params[b.param] as Param;
    events.push(
      slice(pid, COMPUTE_TID, `backward ${p.name}`, "backward", b.start, b.end, {
        bucket: b.bucket,
        bytes: p.bytes,
      }),
    );
    const prev = lastOfBucket.get(b.bucket);
    if (prev === undefined || b.end >= prev.end) lastOfBucket.set(b.bucket, b);
  }
  events.push(slice(pid, COMPUTE_TID, "optimizer", "compute", t.optimizer.start, t.optimizer.end));
  for (const c of t.comm) {
    const bucket = buckets[c.bucket] as Bucket;
    const label = hsdp ? `bucket ${c.bucket}: reduce-scatter + all-reduce` : `all-reduce bucket ${c.bucket}`;
    events.push(
      slice(pid, COMM_TID, label, "communication", c.start, c.end, {
        bytes: bucket.bytes,
        dtype: bucket.dtype,
        params: bucket.params.length,
        "ready (ms)": c.ready,
        "algbw (GB/s)": bytesPerSecondToGBps(c.algbw),
        "busbw (GB/s)": bytesPerSecondToGBps(c.busbw),
      }),
    );
    if (hsdp) {
      for (const ph of c.phases) {
        const name =
          ph.kind === "reduceScatter" ? "reduce-scatter (in replica)" : "all-reduce shard (across replicas)";
        events.push(
          slice(pid, COMM_TID, name, "communication", ph.start, ph.end, { ranks: ph.ranks, bytes: ph.bytes }),
        );
      }
    }
    const last = lastOfBucket.get(c.bucket);
    if (last !== undefined) {
      const id = flowBase + c.bucket;
      const flowName = `bucket ${c.bucket} ready`;
      // The start must fall inside the gradient's slice to bind to it: 1 ns before its end.
      const ts = Math.max(us(last.start), us(last.end) - 0.001);
      events.push({ name: flowName, cat: "bucket", ph: "s", id, pid, tid: COMPUTE_TID, ts });
      events.push({
        name: flowName,
        cat: "bucket",
        ph: "f",
        bp: "e",
        id,
        pid,
        tid: COMM_TID,
        ts: us(c.start),
      });
    }
  }
  return events;
}

export function stepTrace(
  modelName: string,
  params: readonly Param[],
  config: StepConfig,
  result: StepResult,
): StepTraceFile {
  const p = config.parallel;
  const hsdp = p.mode === "hsdp";
  const missing = hsdp && p.missingReplica && p.replicas > 1;
  const traced = Math.min(p.replicas, MAX_TRACED_REPLICAS);
  const events: StepTraceEvent[] = [];
  for (let r = 0; r < traced; r++) {
    const pid = r + 1;
    const unit = hsdp ? `HSDP replica ${r}` : `Node ${r}`;
    if (missing && r === traced - 1) {
      events.push(...meta(pid, `${unit} (missing)`, pid));
      events.push(
        slice(
          pid,
          COMPUTE_TID,
          "recovering: not a participant (zero gradient)",
          "recovery",
          0,
          result.metrics.stepMs,
        ),
      );
      continue;
    }
    events.push(...meta(pid, `${unit} (${p.gpusPerReplica} GPUs)`, pid));
    events.push(...stepEvents(pid, result.overlapped, result.buckets, params, hsdp, pid * 100_000));
  }
  events.push(...meta(BASELINE_PID, "No-overlap baseline (reductions after backward)", BASELINE_PID));
  events.push(
    ...stepEvents(BASELINE_PID, result.baseline, result.buckets, params, hsdp, BASELINE_PID * 100_000),
  );
  return {
    traceEvents: events,
    displayTimeUnit: "ms",
    metadata: {
      model: modelName,
      mode: p.mode,
      bucket_cap_mb: config.capMb,
      first_bucket_mb: config.firstBucketMb,
      replicas: p.replicas,
      "gpus per replica": p.gpusPerReplica,
      "traced replicas": traced,
      "step (ms)": result.metrics.stepMs,
      "no-overlap step (ms)": result.baselineMetrics.stepMs,
    },
  };
}

export function stepTraceJson(
  modelName: string,
  params: readonly Param[],
  config: StepConfig,
  result: StepResult,
): string {
  return JSON.stringify(stepTrace(modelName, params, config, result));
}
