/** "What is under the pointer" on the timeline, in words, for the tooltip. */
import { longestRecovery, recoveryWaterfall } from "../../sim/recoveryWaterfall.ts";
import { FtPhase, SyncState, type Trace } from "../../sim/types.ts";
import { containing } from "../../state/traceAt.ts";
import { duration } from "../format.ts";
import type { LaneIndex } from "./lod.ts";
import { recoveryText } from "./recoveryText.ts";
import { formatClock } from "./timeAxis.ts";
import { laneLabel } from "./timelineLayout.ts";
import type { HoverInfo, TrackPointer } from "./timelineTrack.ts";
import { FT_KIND } from "./timelineTracks.ts";

export type { HoverInfo };

const SYNC_STATE_LABEL: Record<number, string> = {
  [SyncState.recovering]: "recovering (detect + restart): the whole job is stopped",
  [SyncState.checkpointing]: "writing a checkpoint (blocking)",
  [SyncState.rolledBack]: "rolled back: trained, then lost to a failure",
  [SyncState.waitSpare]: "waiting for spare hosts: the whole job is stopped",
};
const FT_PHASE_LABEL: Record<number, string> = {
  [FtPhase.detect]: "down: failure being detected (everyone waits)",
  [FtPhase.restart]: "down: restarting (the others train)",
  [FtPhase.catchUp]: "catching up from a healthy peer",
  [FtPhase.rejoin]: "rejoining the ring (everyone waits)",
  [FtPhase.waitSpare]: "down: waiting for a spare host (the others train)",
};

/**
 * The synchronous job's lane at the pointer: its state, and the failure within five pixels
 * (`failures`: the failures' one-lane index).
 */
export function hoverSync(trace: Trace, replicas: number, failures: LaneIndex, p: TrackPointer): HoverInfo {
  const { t, tol } = p;
  const i = containing(trace.sync.start, trace.sync.end, t);
  const state = i >= 0 ? SYNC_STATE_LABEL[trace.sync.state[i] as number] : "training";
  const lines = [
    i >= 0 ? spanText(trace.sync.start[i] as number, trace.sync.end[i] as number) : formatClock(t),
  ];
  const f = nearestFailure(failures, 0, trace.failures.time, t, tol);
  if (f !== null) lines.push(...failureLines(trace, f, "sync"), recoveryLine(trace, f, replicas, "sync"));
  return { title: `Synchronous job — ${state}`, lines, failure: f };
}

/**
 * An FT-HSDP replica lane at the pointer: the lane's own recovery, else a global stall, else
 * training, and the failure within five pixels (`own`, `failures`: the lanes' indexes).
 */
export function hoverReplicaLane(
  trace: Trace,
  replicas: number,
  own: LaneIndex,
  failures: LaneIndex,
  p: TrackPointer,
): HoverInfo {
  const { layout: L, t, tol } = p;
  const lane = Math.min(L.lanes - 1, Math.floor((p.py - L.ftY) / L.laneH));
  const row = ownInterval(trace, own, lane, t);
  const stall = containing(trace.ftStalls.start, trace.ftStalls.end, t);
  let state: string;
  let lines: string[];
  if (row >= 0) {
    state = FT_PHASE_LABEL[trace.ft.phase[row] as number] ?? "recovering";
    const who = L.group > 1 ? ` (replica ${trace.ft.replica[row]})` : "";
    lines = [spanText(trace.ft.start[row] as number, trace.ft.end[row] as number) + who];
  } else if (stall >= 0) {
    state = "stalled: healthy, waiting for another replica's recovery";
    lines = [spanText(trace.ftStalls.start[stall] as number, trace.ftStalls.end[stall] as number)];
  } else {
    state = "training";
    lines = [formatClock(t)];
  }
  const f = nearestFailure(failures, lane, trace.failures.time, t, tol);
  if (f !== null) lines.push(...failureLines(trace, f, "ft"), recoveryLine(trace, f, replicas, "ft"));
  return { title: `${laneLabel(L, replicas, lane)} — ${state}`, lines, failure: f };
}

/** The row of an own-recovery interval covering t in this lane (the most severe one), or −1. */
function ownInterval(trace: Trace, idx: LaneIndex, lane: number, t: number): number {
  const { ft } = trace;
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

function failureLines(trace: Trace, i: number, policy: "sync" | "ft"): string[] {
  const f = trace.failures;
  const kind = f.hang[i] ? "hang (found by watchdog)" : "fail-stop";
  const head = `Failure #${i + 1} at ${formatClock(f.time[i] as number)}: ${kind} ${struckText(trace, i)}; detected after ${duration(f.detectSeconds[i] as number)}`;
  const cost =
    policy === "sync"
      ? `Sync: stopped ${duration(f.syncStallSeconds[i] as number)}, lost ${duration(f.syncLostSeconds[i] as number)} of training`
      : `FT-HSDP: global stall ${duration(f.ftStallSeconds[i] as number)}`;
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
function recoveryLine(trace: Trace, i: number, replicas: number, policy: "sync" | "ft"): string {
  const w = recoveryWaterfall(trace, i, replicas);
  if (policy === "sync") return `Sync recovery: ${recoveryText(w.sync, "job restart")}`;
  if (w.ft.kind === "jobRestart") return `FT-HSDP job restart: ${recoveryText(w.ft.recovery, "job restart")}`;
  const r = longestRecovery(w.ft);
  if (!r) return "FT-HSDP recovery: none";
  const many = w.ft.replicas.length > 1 ? ` (longest of ${w.ft.replicas.length} replicas)` : "";
  return `FT-HSDP recovery${many}: ${recoveryText(r)}`;
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
