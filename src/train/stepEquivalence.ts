/**
 * q measured (the Cluster view's `diloco.stepEquivalence`): DDP's final held-out loss is the
 * target; DiLoCo's steps to reach it are the first evaluation (one per outer sync) at or below
 * it; q = DDP's steps ÷ DiLoCo's. Both runs train without failures, so q is the price in
 * convergence alone (the Cluster view simulates the failures' own cost).
 */
import type { EvalPoint } from "./run.ts";

export interface MeasuredQ {
  /** DDP's held-out loss at its last step (null until it has finished). */
  target: number | null;
  ddpSteps: number;
  /** DiLoCo's first step at or below the target (null: not reached, or not yet). */
  reachedAt: number | null;
  /** ddpSteps ÷ reachedAt; null when not reached. */
  q: number | null;
  /** Both runs have finished: a null q means DiLoCo never reached the target. */
  final: boolean;
}

export function measureQ(
  ddp: { evals: readonly EvalPoint[]; done: boolean; step: number },
  diloco: { evals: readonly EvalPoint[]; done: boolean },
): MeasuredQ {
  const last = ddp.done ? ddp.evals.at(-1) : undefined;
  const target = last?.loss ?? null;
  const ddpSteps = last?.step ?? ddp.step;
  const hit = target === null ? undefined : diloco.evals.find((e) => e.loss <= target);
  const reachedAt = hit?.step ?? null;
  return {
    target,
    ddpSteps,
    reachedAt,
    q: reachedAt === null ? null : ddpSteps / reachedAt,
    final: ddp.done && diloco.done,
  };
}
