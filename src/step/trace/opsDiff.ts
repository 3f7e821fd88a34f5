/**
 * Kernels and operators of two trace sets side by side, as HTA's `TraceDiff.compare_traces` and
 * `TraceDiff.ops_diff` compare them (hta/trace_diff.py): per name, how many ran and their total
 * duration in control and test, the differences (`diff_counts`, `diff_duration`), and the bucket:
 * added (none in control), deleted (none in test), increased or decreased (ran in both, more or
 * fewer times in test), unchanged (the same count). Communication kernels are grouped by the
 * collective they run (kernelClass.ts's `collectiveOf`), so NCCL's naming variants of one
 * all-reduce (`ncclKernel_AllReduce_RING_LL_Sum_float`, `ncclDevKernel_AllReduce_Sum_f32_RING_LL`)
 * and gloo's `gloo:all_reduce` are one row; every other name is its own row.
 */
import { collectiveOf, type KernelClass } from "./kernelClass.ts";
import type { RankFigures } from "./measure.ts";

export type OpBucket = "added" | "deleted" | "increased" | "decreased" | "unchanged";
export const OP_BUCKETS: readonly OpBucket[] = ["added", "deleted", "increased", "decreased", "unchanged"];

export interface OpTally {
  label: string;
  cls: KernelClass;
  count: number;
  us: number;
  /** The names grouped into this row, at most MAX_VARIANTS of them. */
  variants: string[];
}

export interface OpRow {
  key: string;
  label: string;
  cls: KernelClass;
  variants: string[];
  control: { count: number; us: number };
  test: { count: number; us: number };
  diffCounts: number;
  /** Test's total duration − control's (µs), HTA's `diff_duration`. */
  diffUs: number;
  bucket: OpBucket;
}

const MAX_VARIANTS = 6;

const COLLECTIVE_NAME: Readonly<Record<string, string>> = {
  allreduce: "all-reduce",
  allgather: "all-gather",
  reducescatter: "reduce-scatter",
  broadcast: "broadcast",
  alltoall: "all-to-all",
  send: "send",
  recv: "recv",
  barrier: "barrier",
};

/** The row a name falls in: a communication kernel by its collective, anything else by name. */
export function opKey(name: string, cls: KernelClass): { key: string; label: string } {
  if (cls !== "comm") return { key: `${cls}|${name}`, label: name };
  const c = collectiveOf(name);
  return { key: `comm|${c}`, label: `${COLLECTIVE_NAME[c] ?? "other collective"} (communication)` };
}

/** Counts and durations of the activities of each rank's first `steps` kept steps. */
export function tallyOps(ranks: readonly { figures: RankFigures; steps: number }[]): Map<string, OpTally> {
  const out = new Map<string, OpTally>();
  for (const { figures: r, steps } of ranks) {
    const n = Math.min(steps, r.stepActivities.length);
    for (let k = 0; k < n; k++) {
      for (const a of r.stepActivities[k] ?? []) {
        const { key, label } = opKey(a.name, a.cls);
        let t = out.get(key);
        if (t === undefined) {
          t = { label, cls: a.cls, count: 0, us: 0, variants: [] };
          out.set(key, t);
        }
        t.count++;
        t.us += a.end - a.start;
        if (t.variants.length < MAX_VARIANTS && !t.variants.includes(a.name)) t.variants.push(a.name);
      }
    }
  }
  return out;
}

export function bucketOf(control: number, test: number): OpBucket {
  if (control === 0) return "added";
  if (test === 0) return "deleted";
  return test > control ? "increased" : test < control ? "decreased" : "unchanged";
}

/** Every row of either side, the largest change in total duration first. */
export function compareOps(control: Map<string, OpTally>, test: Map<string, OpTally>): OpRow[] {
  const rows: OpRow[] = [];
  for (const key of new Set([...control.keys(), ...test.keys()])) {
    const c = control.get(key);
    const t = test.get(key);
    const any = (c ?? t) as OpTally;
    const variants = [...(c?.variants ?? [])];
    for (const v of t?.variants ?? [])
      if (variants.length < MAX_VARIANTS && !variants.includes(v)) variants.push(v);
    const cc = c?.count ?? 0;
    const tc = t?.count ?? 0;
    rows.push({
      key,
      label: any.label,
      cls: any.cls,
      variants,
      control: { count: cc, us: c?.us ?? 0 },
      test: { count: tc, us: t?.us ?? 0 },
      diffCounts: tc - cc,
      diffUs: (t?.us ?? 0) - (c?.us ?? 0),
      bucket: bucketOf(cc, tc),
    });
  }
  return rows.sort((a, b) => Math.abs(b.diffUs) - Math.abs(a.diffUs) || a.key.localeCompare(b.key));
}
