/**
 * What a DiLoCo-mode run needs from the hardware that holds its replicas (the WebGPU trainer,
 * src/train/gpuDiloco.ts; the CPU fallback and the float64 reference, cpuDiloco.ts). A replica's
 * state is five tensors of the model's size, in this order: its weights θ, AdamW's first and
 * second moments m and v, the outer weights θ_outer (the round's backup, as torchft keeps it)
 * and the outer optimizer's momentum.
 */
import type { Evaluation, Floats } from "./mlp.ts";

/** How a person reads each tensor of a replica's state ("second moment of layer 2 weights [3, 17]"). */
export const DILOCO_TENSORS = [
  "",
  "first moment of ",
  "second moment of ",
  "outer weights of ",
  "outer momentum of ",
];
/** What a sync's read-back holds: the averaged pseudo-gradient, then the first participant's θ, θ_outer, momentum. */
export const SYNC_TENSORS = ["averaged pseudo-gradient of ", "", "outer weights of ", "outer momentum of "];

export interface InnerOutcome {
  /** Mean loss of each replica's shard, in `who` order. */
  losses: number[];
  /** When asked: each replica's θ‖m‖v after the step, by replica. */
  states: Map<number, Floats> | null;
  allReduceMs: number;
  totalMs: number;
}

export interface SyncOutcome {
  /** When asked: the averaged pseudo-gradient, then θ‖θ_outer‖momentum of who[0] (SYNC_TENSORS). */
  state: Floats | null;
  /** Each participant's fingerprint of θ‖θ_outer‖momentum (must all agree). */
  hashes: Map<number, string>;
  allReduceMs: number;
  totalMs: number;
}

export interface DilocoBackend {
  readonly replicas: number;
  /**
   * One AdamW step on each replica of `who`: on its own shard's gradient (DiLoCo's inner step),
   * or, with `reduce`, on the gradient averaged over `who` by the ring all-reduce (DDP).
   * `t[i]` is who[i]'s count of AdamW steps including this one (its bias corrections).
   */
  inner(
    step: number,
    who: readonly number[],
    lr: number,
    t: readonly number[],
    reduce: boolean,
    read: boolean,
  ): Promise<InnerOutcome>;
  /**
   * The outer step: each participant's pseudo-gradient θ_outer − θ, averaged over `who` by the
   * ring all-reduce, Nesterov SGD on θ_outer, and θ ← θ_outer on every participant.
   */
  sync(who: readonly number[], lr: number, momentum: number, read: boolean): Promise<SyncOutcome>;
  /** The round is discarded: θ ← θ_outer. */
  restore(replica: number): Promise<void>;
  /** The replica dies: its memory is gone (overwritten with NaN). */
  fail(replica: number): void;
  /** Every tensor of `from` copied to `to` (healing from a peer). */
  catchUp(from: number, to: number): Promise<void>;
  /** Fingerprint of the whole state. */
  hash(replica: number): Promise<string>;
  /** The whole state, read back (DILOCO_TENSORS). */
  state(replica: number): Promise<Floats>;
  /** Held-out loss and accuracy of θ. */
  evaluate(replica: number): Promise<Evaluation>;
  destroy(): void;
}
