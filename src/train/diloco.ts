/**
 * DiLoCo's maths and its round rules (Douillard et al., 2023, arXiv 2311.08105; torchft's
 * `DiLoCo`): each replica takes H inner steps of AdamW on its own shard with no cross-replica
 * traffic; then the round's participants average their pseudo-gradients Δᵣ = θ_outer − θᵣ in one
 * all-reduce, and the outer optimizer, SGD with Nesterov momentum, moves θ_outer by the average.
 * Every participant then holds the new θ_outer. Shared by the CPU trainer (float64 and float32)
 * and, as the float64 reference, by the per-step check.
 */
import type { Floats } from "./mlp.ts";
import type { Failure } from "./plan.ts";

/** AdamW's constants (PyTorch's defaults, with the paper's weight decay 0.1). */
export const ADAM_BETA1 = 0.9;
export const ADAM_BETA2 = 0.999;
export const ADAM_EPS = 1e-8;
export const WEIGHT_DECAY = 0.1;

/** What `t`, the replica's count of inner steps including this one, makes of the bias corrections. */
export function biasCorrections(t: number): { bc1: number; bc2: number } {
  return { bc1: 1 - ADAM_BETA1 ** t, bc2: 1 - ADAM_BETA2 ** t };
}

/**
 * AdamW as PyTorch: w ← w·(1 − lr·λ); m ← β₁m + (1 − β₁)g; v ← β₂v + (1 − β₂)g²;
 * w ← w − lr · (m / bc1) / (√(v / bc2) + ε). `bc1`, `bc2` from biasCorrections.
 */
export function adamwStep(
  w: Floats,
  m: Floats,
  v: Floats,
  g: Floats,
  lr: number,
  bc1: number,
  bc2: number,
): void {
  for (let i = 0; i < w.length; i++) {
    const gi = g[i] as number;
    const m1 = ADAM_BETA1 * (m[i] as number) + (1 - ADAM_BETA1) * gi;
    const v1 = ADAM_BETA2 * (v[i] as number) + (1 - ADAM_BETA2) * gi * gi;
    m[i] = m1;
    v[i] = v1;
    const mh = (m[i] as number) / bc1;
    const vh = (v[i] as number) / bc2;
    w[i] = (w[i] as number) * (1 - lr * WEIGHT_DECAY) - (lr * mh) / (Math.sqrt(vh) + ADAM_EPS);
  }
}

/** Δ = θ_outer − θ (what the replica's round moved it by, sign as the outer optimizer reads it). */
export function pseudoGradient(outer: Floats, w: Floats, out: Floats): void {
  for (let i = 0; i < w.length; i++) out[i] = (outer[i] as number) - (w[i] as number);
}

/** The mean of the participants' pseudo-gradients, summed in participant order. */
export function averaged(deltas: readonly Floats[]): Float64Array {
  const n = deltas[0]?.length ?? 0;
  const sum = new Float64Array(n);
  for (const d of deltas) for (let i = 0; i < n; i++) sum[i] = (sum[i] as number) + (d[i] as number);
  for (let i = 0; i < n; i++) sum[i] = (sum[i] as number) / deltas.length;
  return sum;
}

/**
 * SGD with Nesterov momentum as PyTorch (dampening 0): b ← μ·b + Δ; θ ← θ − lr·(Δ + μ·b). With
 * lr 1 and μ 0 it is plain averaging of the replicas (θ ← mean of the θᵣ).
 */
export function outerNesterov(o: Floats, b: Floats, avg: Floats, lr: number, mu: number): void {
  for (let i = 0; i < o.length; i++) {
    const d = avg[i] as number;
    const b1 = mu * (b[i] as number) + d;
    b[i] = b1;
    o[i] = (o[i] as number) - lr * (d + mu * (b[i] as number));
  }
}

/** Inside a failure's down time at `step`: it died before `f.step` and stays down `f.down` steps. */
function downAt(failures: readonly Failure[], replica: number, step: number): boolean {
  return failures.some((f) => f.replica === replica && step >= f.step && step < f.step + f.down);
}

/** The first step of the round `step` falls in. */
export function roundStart(step: number, H: number): number {
  return step - (step % H);
}

/**
 * Whether `replica` takes part in the round at `step`: healthy when the round started (a replica
 * that came back waits, idle, for the next round) and not struck since. A failure at the round's
 * first step struck it in the sync before, so it is not a participant either.
 */
export function participates(
  failures: readonly Failure[],
  replica: number,
  step: number,
  H: number,
): boolean {
  const k = roundStart(step, H);
  if (downAt(failures, replica, k)) return false;
  return !failures.some((f) => f.replica === replica && f.step > k && f.step <= step);
}

export interface RoundRoles {
  /** Replicas that take this inner step (the round's participants still alive). */
  train: number[];
  /** Struck before this step, mid-round: their round is lost. */
  lost: number[];
  /** Healthy again, waiting for the next round. */
  idle: number[];
  down: number[];
}

/** Who does what at an inner step that is not a round's first (the round's sync comes before that). */
export function roundRoles(
  failures: readonly Failure[],
  replicas: number,
  step: number,
  H: number,
): RoundRoles {
  const roles: RoundRoles = { train: [], lost: [], idle: [], down: [] };
  for (let r = 0; r < replicas; r++) {
    if (participates(failures, r, step, H)) roles.train.push(r);
    else if (downAt(failures, r, step)) {
      if (failures.some((f) => f.replica === r && f.step === step && step % H !== 0)) roles.lost.push(r);
      roles.down.push(r);
    } else roles.idle.push(r);
  }
  return roles;
}

/**
 * The sync that ends the round before `step` (a round boundary, or the run's end): its
 * participants, and whether one of them died in it (a failure at the boundary step), which
 * discards the round for all of them.
 */
export function syncAt(
  failures: readonly Failure[],
  replicas: number,
  step: number,
  H: number,
): { participants: number[]; struck: number[]; discard: boolean } {
  const participants: number[] = [];
  for (let r = 0; r < replicas; r++) if (participates(failures, r, step - 1, H)) participants.push(r);
  const struck = failures
    .filter((f) => f.step === step && participants.includes(f.replica))
    .map((f) => f.replica);
  return { participants, struck, discard: struck.length > 0 };
}

/**
 * Why a failure cannot join a DiLoCo schedule, or null: every round must keep a participant that
 * lives through its sync (the one the next round's returning replicas heal from).
 */
export function dilocoFailureProblem(
  failures: readonly Failure[],
  f: Failure,
  replicas: number,
  steps: number,
  H: number,
): string | null {
  const all = [...failures, f];
  for (let b = H; ; b += H) {
    const end = Math.min(b, steps);
    const { participants, struck } = syncAt(all, replicas, end, H);
    if (participants.every((r) => struck.includes(r)))
      return `no DiLoCo replica would be left to commit the round that ends at step ${end}`;
    if (end >= steps) return null;
  }
}
