/**
 * Who trains at each step, FT-HSDP style, and at what learning rate.
 *
 * A failure {replica r, step s, down k}: r dies before step s and misses steps s … s+k−1. Before
 * step s+k it restarts, copies weights and optimizer state from a healthy peer, and takes part in
 * step s+k with a zero gradient ("heal"); from s+k+1 it trains again. As in torchft, the all-reduce
 * sums over everyone in the ring (the healer adds zeros) and divides by the replicas that computed
 * a gradient, so the healer applies exactly its peers' update and stays identical to them.
 */
export type LrPolicy = "none" | "linear" | "sqrt";
export const LR_POLICIES: readonly LrPolicy[] = ["none", "linear", "sqrt"];

export interface Failure {
  replica: number;
  step: number;
  down: number;
}

export type ReplicaState = "train" | "heal" | "down";

/** The learning rate for a step with `healthy` of `replicas` computing gradients. */
export function scaledLr(policy: LrPolicy, lr: number, healthy: number, replicas: number): number {
  switch (policy) {
    case "none":
      return lr;
    case "linear":
      return (lr * healthy) / replicas;
    case "sqrt":
      return lr * Math.sqrt(healthy / replicas);
  }
}

export function replicaState(failures: readonly Failure[], replica: number, step: number): ReplicaState {
  for (const f of failures) {
    if (f.replica !== replica) continue;
    if (step >= f.step && step < f.step + f.down) return "down";
    if (step === f.step + f.down) return "heal";
  }
  return "train";
}

export interface StepRoles {
  /** Replicas that compute a gradient of their shard. */
  compute: number[];
  /** Replicas that just copied a peer's state and contribute a zero gradient. */
  heal: number[];
  /** Failing this step (the ring shrinks): from the FT runs' point of view, a new failure. */
  failing: number[];
  /** The ring: compute ∪ heal, in replica order. */
  ring: number[];
  /** What the sum is divided by: the replicas that computed (torchft's num_participants). */
  divisor: number;
}

export function rolesAt(failures: readonly Failure[], replicas: number, step: number): StepRoles {
  const compute: number[] = [];
  const heal: number[] = [];
  for (let r = 0; r < replicas; r++) {
    const s = replicaState(failures, r, step);
    if (s === "train") compute.push(r);
    else if (s === "heal") heal.push(r);
  }
  const failing = failures.filter((f) => f.step === step && f.down > 0).map((f) => f.replica);
  const ring = [...compute, ...heal].sort((a, b) => a - b);
  return { compute, heal, failing, ring, divisor: compute.length };
}

/**
 * Why a failure cannot join the schedule, or null: the replica must exist and be training (not
 * down or healing) from its step until it returns, and at least one replica must keep computing
 * at every step.
 */
export function failureProblem(
  failures: readonly Failure[],
  f: Failure,
  replicas: number,
  steps: number,
): string | null {
  if (!Number.isInteger(f.replica) || f.replica < 0 || f.replica >= replicas)
    return `replica must be an integer in [0, ${replicas - 1}], got ${f.replica}`;
  if (!Number.isInteger(f.step) || f.step < 1 || f.step >= steps)
    return `step must be an integer in [1, ${steps - 1}], got ${f.step}`;
  if (!Number.isInteger(f.down) || f.down < 1 || f.down > 1000)
    return `down must be an integer in [1, 1000] steps, got ${f.down}`;
  for (let s = f.step; s <= f.step + f.down; s++)
    if (replicaState(failures, f.replica, s) !== "train")
      return `replica ${f.replica} is already down or healing at step ${s}`;
  const all = [...failures, f];
  for (let s = f.step; s < f.step + f.down; s++)
    if (rolesAt(all, replicas, s).compute.length === 0)
      return `no replica would be left training at step ${s}`;
  return null;
}
