/**
 * The cluster timeline as Chrome / Perfetto Trace Event JSON (open it at ui.perfetto.dev): for
 * each selected policy, in display order, one process for its job as a whole and, for a
 * replica-level policy (FT-HSDP), one per replica; then, when the run has slow hosts (§6), one for
 * them. Each policy is written by its recording's kind under its own label, never by key: one file
 * a kind of track (traceWholeJob.ts, traceReplicas.ts, traceFailures.ts, traceSlow.ts) over the
 * format's pieces (traceEvents.ts). States are complete ("X") slices, failures instant ("i")
 * events, useful training so far a counter ("C") on each job; names come from process_name /
 * thread_name metadata. Times are µs from the start of the run.
 *
 * A year-long run has ~29,000 failures and a few hundred thousand events: the events come from a
 * generator (no array is ever spread into a call, which overflowed the stack), can be limited to a
 * time window, and `clusterTraceBlob` turns them into a file in slices of a few milliseconds, so the
 * page stays responsive and can say the file's size before it is saved.
 */
import { derived, type Scenario } from "../sim/scenario/index.ts";
import type { ReplicaRecording, Trace, WholeJobRecording } from "../sim/types.ts";
import type { TraceEvent, TraceFile, TraceWindow } from "./traceEvents.ts";
import { failureEvents } from "./traceFailures.ts";
import { type PolicyPart, policyParts, replicaLevelCount, usefulCounter } from "./tracePolicies.ts";
import {
  replicaJobMeta,
  replicaJobState,
  replicaJobTrack,
  replicaMetas,
  replicaPhases,
} from "./traceReplicas.ts";
import { episodeThreads, slowEvents, slowMeta, slowPid } from "./traceSlow.ts";
import { wholeJobMeta, wholeJobRestarts, wholeJobState } from "./traceWholeJob.ts";

export type { TraceEvent, TraceFile, TraceWindow };

const isWholeJob = (q: PolicyPart): q is PolicyPart<WholeJobRecording> => q.rec.kind === "wholeJob";
const isReplicas = (q: PolicyPart): q is PolicyPart<ReplicaRecording> => q.rec.kind === "replicas";

/** The trace's events in file order; `window` limits them to a part of the run (default: all of it). */
export function* clusterTraceEvents(
  scenario: Scenario,
  trace: Trace,
  window?: TraceWindow | null,
): Generator<TraceEvent> {
  const horizon = derived(scenario).horizonSeconds;
  const w: TraceWindow = window ? [Math.max(0, window[0]), Math.min(horizon, window[1])] : [0, horizon];
  const R = scenario.cluster.replicas;

  // Each selected policy's processes: its job, then (replica-level) its replicas, then the slow hosts.
  const parts = policyParts(trace, R);
  let sort = 0;
  for (const q of parts) {
    if (isWholeJob(q)) yield* wholeJobMeta(q, sort++);
    else if (isReplicas(q)) yield* replicaJobMeta(q, sort++);
  }
  for (const q of parts) if (isReplicas(q)) yield* replicaMetas(q, R, () => sort++);
  const slow = trace.slow && trace.slow.count > 0 ? trace.slow : null;
  const slowThreads = slow ? episodeThreads(slow) : null;
  const pid = slowPid(replicaLevelCount(parts), R);
  if (slowThreads) yield* slowMeta(pid, slowThreads.threads, sort++);

  // Each job's state: a whole-job policy's stops, a replica-level policy's global stalls.
  for (const q of parts) {
    if (isWholeJob(q)) yield* wholeJobState(q, w);
    else if (isReplicas(q)) yield* replicaJobState(q, w);
  }
  // The job tracks.
  for (const q of parts) {
    if (isWholeJob(q)) yield* wholeJobRestarts(q, scenario, trace, w);
    else if (isReplicas(q)) yield* replicaJobTrack(q, w);
  }
  // The replicas' phases.
  for (const q of parts) if (isReplicas(q)) yield* replicaPhases(q, R, w);

  yield* failureEvents(scenario, trace, parts, w);
  for (const q of parts) yield* usefulCounter(q.pid, q.rec.progress, w);
  if (slow && slowThreads) yield* slowEvents(scenario, slow, pid, slowThreads.thread, horizon, w);
}

function fileMetadata(scenario: Scenario, window?: TraceWindow | null): Record<string, unknown> {
  return window
    ? { source: "FT-HSDP Explorer", scenario, window: { fromSeconds: window[0], toSeconds: window[1] } }
    : { source: "FT-HSDP Explorer", scenario };
}

export function clusterTrace(scenario: Scenario, trace: Trace, window?: TraceWindow | null): TraceFile {
  return {
    traceEvents: Array.from(clusterTraceEvents(scenario, trace, window)),
    displayTimeUnit: "ms",
    metadata: fileMetadata(scenario, window),
  };
}

/**
 * The file as text pieces, events in batches of `batch`: what JSON.stringify(clusterTrace(…))
 * writes, without one string or one array of the whole file.
 */
export function* clusterTraceJsonParts(
  scenario: Scenario,
  trace: Trace,
  window?: TraceWindow | null,
  batch = 2000,
): Generator<{ text: string; events: number }> {
  yield { text: '{"traceEvents":[', events: 0 };
  let pending: string[] = [];
  let first = true;
  const flush = () => {
    const text = (first ? "" : ",") + pending.join(",");
    first = false;
    const part = { text, events: pending.length };
    pending = [];
    return part;
  };
  for (const e of clusterTraceEvents(scenario, trace, window)) {
    pending.push(JSON.stringify(e));
    if (pending.length >= batch) yield flush();
  }
  if (pending.length > 0) yield flush();
  yield {
    text: `],"displayTimeUnit":"ms","metadata":${JSON.stringify(fileMetadata(scenario, window))}}`,
    events: 0,
  };
}

export function clusterTraceJson(scenario: Scenario, trace: Trace, window?: TraceWindow | null): string {
  let out = "";
  for (const p of clusterTraceJsonParts(scenario, trace, window)) out += p.text;
  return out;
}

/** What a sliced build made: the file, its size in bytes and its number of events. */
export interface BuiltTrace {
  blob: Blob;
  bytes: number;
  events: number;
}

/**
 * The file built a slice at a time: after each batch that took `sliceMs`, it waits for the event
 * loop (`pause`), so no task runs long however long the run; `isCancelled` stops it between slices
 * (a new window chosen, the panel closed) and then it resolves to null.
 */
/** Characters of text made into one Blob (~1 MB: a few ms to copy). */
const BLOB_CHARS = 1 << 20;

export async function clusterTraceBlob(
  scenario: Scenario,
  trace: Trace,
  window: TraceWindow | null,
  opts: {
    sliceMs?: number;
    pause?: () => Promise<void>;
    isCancelled?: () => boolean;
    onProgress?: (events: number) => void;
  } = {},
): Promise<BuiltTrace | null> {
  const sliceMs = opts.sliceMs ?? 30;
  const pause = opts.pause ?? (() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  // Text becomes a Blob every BLOB_CHARS: the final Blob only references them, so no step copies
  // the whole file (tens of MB for a year) in one task. Making a Blob copies (and encodes) its
  // text, so it happens inside the slice's time, not after it: a slice's text made into one Blob
  // at its end was 50–100 ms of CPU on top of its 30 ms of building.
  const blobs: Blob[] = [];
  let parts: string[] = [];
  let chars = 0;
  const toBlob = () => {
    if (parts.length > 0) blobs.push(new Blob(parts));
    parts = [];
    chars = 0;
  };
  let events = 0;
  let sliceStart = performance.now();
  for (const part of clusterTraceJsonParts(scenario, trace, window, 500)) {
    parts.push(part.text);
    chars += part.text.length;
    events += part.events;
    if (chars >= BLOB_CHARS) toBlob();
    if (performance.now() - sliceStart >= sliceMs) {
      toBlob();
      opts.onProgress?.(events);
      await pause();
      if (opts.isCancelled?.()) return null;
      sliceStart = performance.now();
    }
  }
  toBlob();
  const blob = new Blob(blobs, { type: "application/json" });
  return { blob, bytes: blob.size, events };
}
