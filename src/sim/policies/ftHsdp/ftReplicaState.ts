/**
 * FT-HSDP's per-replica state (docs/model.md §3 "FT-HSDP, version 2"): each replica's phase and
 * when it ends, the heap of recovering replicas keyed on that end, and its spare waits; with the
 * phase order (detect → waitSpare → restart → catch-up → rejoin) as a table.
 */
import { IndexedMinHeap } from "../../indexedHeap.ts";
import { FtPhase } from "../../types.ts";

export const HEALTHY = 0;
/** "Healthy again": the step after rejoin. */
export const DONE = 7;
/**
 * The phase after each (indexed by FtPhase code): detect → waitSpare → restart → catch-up →
 * rejoin; a quiet detect (§4 `restrike: "quiet"`) goes on as detect does.
 */
export const NEXT_PHASE = Uint8Array.of(
  HEALTHY,
  FtPhase.waitSpare,
  FtPhase.catchUp,
  FtPhase.rejoin,
  DONE,
  FtPhase.restart,
  FtPhase.waitSpare,
);

/**
 * Per-replica state, kept between runs so a Monte Carlo does not allocate R-sized arrays for
 * every seed. Only `phase` needs resetting; the rest is read only while a replica recovers.
 */
export class ReplicaState {
  phase: Uint8Array;
  phaseEnd: Float64Array;
  queue: IndexedMinHeap;
  /** Spares: when every request made so far for the replica's hosts is served; heap of those still waiting. */
  waitUntil: Float64Array;
  waitStart: Float64Array;
  owed: IndexedMinHeap;

  constructor(readonly capacity: number) {
    this.phase = new Uint8Array(capacity);
    this.phaseEnd = new Float64Array(capacity);
    this.queue = new IndexedMinHeap(capacity, this.phaseEnd);
    this.waitUntil = new Float64Array(capacity);
    this.waitStart = new Float64Array(capacity);
    this.owed = new IndexedMinHeap(capacity, this.waitUntil);
  }
}

let shared: ReplicaState | null = null;

export function replicaState(R: number): ReplicaState {
  if (shared === null || shared.capacity < R) shared = new ReplicaState(R);
  shared.phase.fill(HEALTHY, 0, R);
  shared.queue.clear();
  shared.owed.clear();
  return shared;
}
