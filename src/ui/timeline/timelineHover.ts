/** "What is under the pointer" on the timeline, in words, for the tooltip. */
import { longestRecovery, recoveryWaterfall } from "../../sim/recovery/recoveryWaterfall.ts";
import {
  FtPhase,
  type ReplicaRecording,
  SyncState,
  type Trace,
  type WholeJobRecording,
} from "../../sim/types.ts";
import { containing } from "../../state/traceAt.ts";
import { duration } from "../format.ts";
import type { LaneIndex } from "./lod.ts";
import { recoveryText } from "./recoveryText.ts";
import { formatClock } from "./timeAxis.ts";
import { laneAt, laneLabel, type ReplicaBand } from "./timelineLayout.ts";
import type { HoverInfo, PolicyLane, TrackPointer } from "./timelineTrack.ts";
import { FT_KIND } from "./timelineTracks.ts";

export type { HoverInfo };

const SYNC_STATE_LABEL: Record<number, string> = {
  [SyncState.recovering]: "recovering (detect + restart): the whole job is stopped",
  [SyncState.checkpointing]: "writing a checkpoint (blocking)",
  [SyncState.rolledBack]: "rolled back: trained, then lost to a failure",
  [SyncState.waitSpare]: "waiting for spare hosts: the whole job is stopped",
  [SyncState.migrating]: "migrating to standbys: the whole job waits",
};
// Every phase named (satisfies): a new phase that is not drawn or named fails to compile.
const FT_PHASE_LABEL: Record<number, string> = {
  [FtPhase.detect]: "down: failure being detected (everyone waits)",
  [FtPhase.restart]: "down: restarting (the others train)",
  [FtPhase.catchUp]: "catching up from a healthy peer",
  [FtPhase.rejoin]: "rejoining the ring (everyone waits)",
  [FtPhase.waitSpare]: "down: waiting for a spare host (the others train)",
  [FtPhase.detectQuiet]: "down: failure being detected outside the quorum (the others train)",
} satisfies Record<FtPhase, string>;

/**
 * A whole-job policy's lane (top at `y`) at the pointer: its state, and the failure within five
 * pixels (`failures`: the failures' one-lane index).
 */
export function hoverWholeJob(
  trace: Trace,
  lane: PolicyLane<WholeJobRecording>,
  replicas: number,
  failures: LaneIndex,
  _y: number,
  p: TrackPointer,
): HoverInfo {
  const { t, tol } = p;
  const sync = lane.recording.intervals;
  const i = containing(sync.start, sync.end, t);
  const state = i >= 0 ? SYNC_STATE_LABEL[sync.state[i] as number] : "training";
  const lines = [i >= 0 ? spanText(sync.start[i] as number, sync.end[i] as number) : formatClock(t)];
  const f = nearestFailure(failures, 0, trace.failures.time, t, tol);
  if (f !== null) lines.push(...failureLines(trace, f, lane), recoveryLine(trace, f, replicas, lane));
  return { title: `${lane.label} job — ${state}`, lines, failure: f };
}

/**
 * A replica lane of a replica-level policy (FT-HSDP) at the pointer: the lane's own recovery, else
 * a global stall, else training, and the failure within five pixels (`own`, `failures`: the
 * lanes' indexes).
 */
export function hoverReplicaLane(
  trace: Trace,
  lane: PolicyLane<ReplicaRecording>,
  replicas: number,
  own: LaneIndex,
  failures: LaneIndex,
  L: ReplicaBand,
  p: TrackPointer,
): HoverInfo {
  const { t, tol } = p;
  const ft = lane.recording.intervals;
  const stalls = lane.recording.stalls;
  const laneNo = laneAt(L, p.py);
  const row = ownInterval(lane.recording, own, laneNo, t);
  const stall = containing(stalls.start, stalls.end, t);
  let state: string;
  let lines: string[];
  if (row >= 0) {
    state = FT_PHASE_LABEL[ft.phase[row] as number] ?? "recovering";
    const who = L.group > 1 ? ` (replica ${ft.replica[row]})` : "";
    lines = [spanText(ft.start[row] as number, ft.end[row] as number) + who];
  } else if (stall >= 0) {
    state = "stalled: healthy, waiting for another replica's recovery";
    lines = [spanText(stalls.start[stall] as number, stalls.end[stall] as number)];
  } else {
    state = "training";
    lines = [formatClock(t)];
  }
  const f = nearestFailure(failures, laneNo, trace.failures.time, t, tol);
  if (f !== null) lines.push(...failureLines(trace, f, lane), recoveryLine(trace, f, replicas, lane));
  return { title: `${laneLabel(L, replicas, laneNo)} — ${state}`, lines, failure: f };
}

/** The row of an own-recovery interval covering t in this lane (the most severe one), or −1. */
function ownInterval(rec: ReplicaRecording, idx: LaneIndex, lane: number, t: number): number {
  const ft = rec.intervals;
  let best = -1;
  let bestKind = 0;
  const stop = idx.offsets[lane + 1] as number;
  for (let p = lowerBound(idx, lane, ft.start, t - (idx.maxDuration[lane] as number)); p < stop; p++) {
    const row = idx.rows[p] as number;
    if ((ft.start[row] as number) > t) break;
    if ((ft.end[row] as number) <= t) continue;
    const k = FT_KIND[ft.phase[row] as number] ?? 0;
    if (k > bestKind) {
      best = row;
      bestKind = k;
    }
  }
  return best;
}

/** The failure, and what it cost the lane's policy. */
export function failureLines(trace: Trace, i: number, lane: PolicyLane): string[] {
  const f = trace.failures;
  const kind =
    f.evicted[i] === 1 ? "eviction of a slow host" : f.hang[i] ? "hang (found by watchdog)" : "fail-stop";
  const head = `Failure #${i + 1} at ${formatClock(f.time[i] as number)}: ${kind} ${struckText(trace, i)}; detected after ${duration(f.detectSeconds[i] as number)}`;
  const rec = lane.recording;
  const stall = rec.stallPerFailure[i] as number;
  const cost =
    rec.kind === "wholeJob"
      ? `${lane.shortLabel}: stopped ${duration(stall)}, lost ${duration(rec.lostPerFailure[i] as number)} of training`
      : `${lane.label}: global stall ${duration(stall)}`;
  return [head, cost];
}

/** "on host 12, replica 3", "on rack of hosts 8–11, replicas 2–3", "of the whole job". */
function struckText(trace: Trace, i: number): string {
  const f = trace.failures;
  const host = f.host[i] as number;
  if (host < 0) return "of the whole job (every replica)";
  const hosts = f.hostCount[i] as number;
  const replicas = f.replicaCount[i] as number;
  const n = (v: number) => v.toLocaleString("en-US");
  const where = hosts > 1 ? `on hosts ${n(host)}–${n(host + hosts - 1)}` : `on host ${n(host)}`;
  return `${where}, ${replicas > 1 ? `${replicas} replicas from ${f.replica[i]}` : `replica ${f.replica[i]}`}`;
}

/** The failure's recovery under the lane's policy, phase by phase (recoveryWaterfall.ts). */
function recoveryLine(trace: Trace, i: number, replicas: number, lane: PolicyLane): string {
  const w = recoveryWaterfall(trace, i, replicas).policies.find((p) => p.key === lane.key)?.recovery;
  if (!w) return `${lane.shortLabel} recovery: none`;
  if (w.kind === "wholeJob") return `${lane.shortLabel} recovery: ${recoveryText(w.recovery, "job restart")}`;
  if (w.kind === "jobRestart") return `${lane.label} job restart: ${recoveryText(w.recovery, "job restart")}`;
  const r = longestRecovery(w);
  if (!r) return `${lane.label} recovery: none`;
  const many = w.replicas.length > 1 ? ` (longest of ${w.replicas.length} replicas)` : "";
  return `${lane.label} recovery${many}: ${recoveryText(r)}`;
}

function lowerBound(idx: LaneIndex, lane: number, start: ArrayLike<number>, from: number): number {
  let lo = idx.offsets[lane] as number;
  let hi = idx.offsets[lane + 1] as number;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((start[idx.rows[mid] as number] as number) < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function nearestFailure(
  idx: LaneIndex,
  lane: number,
  time: Float64Array,
  t: number,
  tol: number,
): number | null {
  let best: number | null = null;
  let bestD = tol;
  const stop = idx.offsets[lane + 1] as number;
  for (let p = lowerBound(idx, lane, time, t - tol); p < stop; p++) {
    const row = idx.rows[p] as number;
    const d = Math.abs((time[row] as number) - t);
    if ((time[row] as number) > t + tol) break;
    if (d <= bestD) {
      best = row;
      bestD = d;
    }
  }
  return best;
}

function spanText(a: number, b: number): string {
  return `${formatClock(a)} → ${formatClock(b)} (${duration(b - a)})`;
}
