/**
 * Sizes for all-reduces a trace does not size. Older profilers write no `In msg nelems` on the
 * NCCL kernel and no `record_param_comms` op (PyTorch records them on that op from 1.13,
 * pytorch/pytorch#85368, and newer Kineto copies them onto the kernel), so the fit and the model
 * have nothing to work on. The step model's buckets for the model on screen are what DDP would
 * all-reduce: when a step runs as many all-reduces as the model has buckets, the k-th all-reduce
 * of the step (in start order) is given the k-th bucket's bytes. A step with another count keeps
 * its unsized all-reduces, and says so.
 */
import { collectiveOf } from "./kernelClass.ts";
import type { Activity, RankFigures } from "./measure.ts";

export interface Borrowed {
  ranks: RankFigures[];
  /** Steps (over all ranks) whose all-reduces took the model's sizes, and those that could not. */
  sized: number;
  unmatched: { rank: number; step: string; calls: number }[];
}

const isAllReduce = (a: Activity) => a.cls === "comm" && collectiveOf(a.name) === "allreduce";

/** The ranks with each step's unsized all-reduces given `sizes` (bytes, in all-reduce order). */
export function borrowSizes(ranks: readonly RankFigures[], sizes: readonly number[]): Borrowed {
  let sized = 0;
  const unmatched: Borrowed["unmatched"] = [];
  const out = ranks.map((r) => {
    const given = new Map<Activity, Activity>();
    r.stepActivities.forEach((acts, i) => {
      const reduces = acts.filter(isAllReduce);
      if (reduces.length === 0 || reduces.every((a) => a.bytes !== null)) return;
      if (reduces.length !== sizes.length) {
        unmatched.push({ rank: r.rank, step: r.steps[i]?.name ?? `step ${i}`, calls: reduces.length });
        return;
      }
      sized++;
      reduces
        .slice()
        .sort((a, b) => a.start - b.start)
        .forEach((a, k) => {
          if (a.bytes === null) given.set(a, { ...a, bytes: sizes[k] as number });
        });
    });
    if (given.size === 0) return r;
    const swap = (a: Activity) => given.get(a) ?? a;
    return {
      ...r,
      activities: r.activities.map(swap),
      stepActivities: r.stepActivities.map((acts) => acts.map(swap)),
    };
  });
  return { ranks: out, sized, unmatched };
}
