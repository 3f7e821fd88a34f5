/**
 * DiLoCo's per-replica state (docs/model.md §7), kept between runs so a Monte Carlo does not
 * allocate R-sized arrays for every seed: each replica's recovery phase and its end (a heap of
 * recovering replicas keyed on it), when it last became healthy (a round's participants are the
 * replicas healthy since before its start), its spare waits, its slow hosts, and the round's
 * laggards (participants whose compute a slow host stretched).
 */
import { IndexedMinHeap } from "../../indexedHeap.ts";
import { FtPhase } from "../../types.ts";

export const HEALTHY = 0;
/** "Healthy again": the step after catch-up. */
export const DONE = 7;
/** The phase after each (indexed by FtPhase code): detect → waitSpare → restart → catch-up → healthy. */
export const NEXT_PHASE = Uint8Array.of(
  HEALTHY,
  FtPhase.waitSpare,
  FtPhase.catchUp,
  DONE,
  DONE,
  FtPhase.restart,
  FtPhase.waitSpare,
);

export class DilocoState {
  readonly phase: Uint8Array;
  readonly phaseEnd: Float64Array;
  readonly queue: IndexedMinHeap;
  readonly healthySince: Float64Array;
  readonly waitUntil: Float64Array;
  readonly waitStart: Float64Array;
  readonly owed: IndexedMinHeap;
  readonly slowCount: Int32Array;
  /** Replicas with a slow host now, and each one's place in that list (−1: none). */
  readonly slowList: Int32Array;
  readonly slowPos: Int32Array;
  /** The round's laggards: slot → replica, work left, when it was left, slow (1), finished (1). */
  readonly lagId: Int32Array;
  readonly lagRem: Float64Array;
  readonly lagAt: Float64Array;
  readonly lagSlow: Uint8Array;
  readonly lagDone: Uint8Array;
  /** Replica → its laggard slot (−1: not a laggard this round). */
  readonly lagSlot: Int32Array;

  constructor(readonly capacity: number) {
    this.phase = new Uint8Array(capacity);
    this.phaseEnd = new Float64Array(capacity);
    this.queue = new IndexedMinHeap(capacity, this.phaseEnd);
    this.healthySince = new Float64Array(capacity);
    this.waitUntil = new Float64Array(capacity);
    this.waitStart = new Float64Array(capacity);
    this.owed = new IndexedMinHeap(capacity, this.waitUntil);
    this.slowCount = new Int32Array(capacity);
    this.slowList = new Int32Array(capacity);
    this.slowPos = new Int32Array(capacity).fill(-1);
    this.lagId = new Int32Array(capacity);
    this.lagRem = new Float64Array(capacity);
    this.lagAt = new Float64Array(capacity);
    this.lagSlow = new Uint8Array(capacity);
    this.lagDone = new Uint8Array(capacity);
    this.lagSlot = new Int32Array(capacity).fill(-1);
  }
}

let shared: DilocoState | null = null;

/**
 * The state for a run of R replicas: all healthy since 0. A run leaves no laggard and no slow
 * replica behind (it clears the few it had), so those need no reset here.
 */
export function dilocoState(R: number): DilocoState {
  if (shared === null || shared.capacity < R) shared = new DilocoState(R);
  shared.phase.fill(HEALTHY, 0, R);
  shared.healthySince.fill(0, 0, R);
  shared.queue.clear();
  shared.owed.clear();
  return shared;
}
