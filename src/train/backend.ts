/**
 * What a training run needs from the hardware that holds its R replicas: the WebGPU trainer
 * (src/train/gpuTrainer.ts), the CPU fallback and the float64 reference (cpuTrainer.ts) all offer it.
 */
import type { Evaluation } from "./mlp.ts";
import type { StepRoles } from "./plan.ts";

export interface StepOutcome {
  /** Mean loss of each computing replica's shard, in roles.compute order. */
  losses: number[];
  /** The state fingerprint of every ring member after its update (null: not computed). */
  hashes: Map<number, string> | null;
  /** Weights then momentum of the ring's first member after the step (the per-step reference check reads it). */
  state: Float32Array | Float64Array;
  /** Wall-clock split of the step (the bench's all-reduce share). */
  computeMs: number;
  allReduceMs: number;
  totalMs: number;
}

export interface TrainBackend {
  readonly replicas: number;
  /** Forward, backward (healers: a zero gradient), all-reduce over roles.ring, ÷ divisor, SGD. */
  step(step: number, roles: StepRoles, lr: number): Promise<StepOutcome>;
  /** The replica dies: its memory is gone (overwritten with NaN). */
  fail(replica: number): void;
  /** Copies weights and momentum from `from` to `to`. */
  catchUp(from: number, to: number): Promise<void>;
  hash(replica: number): Promise<string>;
  /** Weights then momentum, read back. */
  state(replica: number): Promise<Float32Array | Float64Array>;
  saveCheckpoint(from: number): Promise<void>;
  /** Every replica gets the checkpoint's weights and momentum. */
  restoreCheckpoint(): Promise<void>;
  evaluate(replica: number): Promise<Evaluation>;
  /** The weights, read back. */
  weights(replica: number): Promise<Float32Array | Float64Array>;
  destroy(): void;
}
