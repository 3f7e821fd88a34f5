/**
 * One rank's figures, measured as Holistic Trace Analysis measures them (docs/trace.md):
 *
 * - steps: `ProfilerStep#N` windows [ts, ts + dur) (hta/common/trace.py `_add_iteration`); a GPU
 *   activity belongs to the step whose window holds its launch, the runtime event with the same
 *   `correlation` id; activities launched outside every step are dropped; the last step is
 *   dropped unless `allSteps` (`_filter_gpu_kernels_for_one_rank`, `include_last_profiler_step`);
 * - overlap: |merged comm ∩ merged compute| / |merged comm| (hta/analyzers/communication_analysis.py
 *   `get_comm_comp_overlap`), per step and over the rank's kept activities;
 * - temporal breakdown (breakdown_analysis.py `get_temporal_breakdown`) and kernel-type breakdown
 *   (`_get_gpu_kernel_type_time`, memory kernels included).
 *
 * A CPU-only trace (gloo) has no kernels: gloo's collective spans stand for communication and the
 * CPU operators of the other threads for computation, and the figures say so.
 */
import { canonicalDtype, elementBytes } from "../dtypes.ts";
import { type Interval, intersectLength, mergeIntervals, sweepByMask, totalLength } from "../intervals.ts";
import { firstEnclosing } from "./enclosingOp.ts";
import { collectiveOf, HTA_CLASS_NAME, isGlooCollective, type KernelClass } from "./kernelClass.ts";
import { checkRankFigures } from "./traceError.ts";
import type { RankTrace, StepWindow } from "./traceModel.ts";

export interface MeasureOptions {
  /** Keep the last ProfilerStep (HTA drops it: it is often cut by the profiler's stop). */
  allSteps: boolean;
}

/** One activity the measurement kept: a kernel, or on a CPU trace a gloo span or an operator. */
export interface Activity extends Interval {
  cls: KernelClass;
  name: string;
  /** Index into the rank's kept steps, or −1 when the trace has no steps. */
  step: number;
  /** When it was launched (µs): the runtime event's ts, or its own start on a CPU trace. */
  launch: number;
  bytes: number | null;
}

export interface StepFigures {
  name: string;
  ms: number;
  commMs: number;
  computeMs: number;
  /** Communication not overlapped by computation. */
  exposedCommMs: number;
  /** null when the step has no communication. */
  overlapPct: number | null;
}

export interface TemporalBreakdown {
  kernelMs: number;
  idleMs: number;
  computeMs: number;
  nonComputeMs: number;
  idlePct: number;
  computePct: number;
  nonComputePct: number;
}

export interface RankFigures {
  file: string;
  rank: number;
  worldSize: number | null;
  device: string;
  mode: "gpu" | "cpu";
  steps: StepFigures[];
  commMs: number;
  overlapPct: number | null;
  temporal: TemporalBreakdown | null;
  kernelTypes: Record<string, { ms: number; pct: number }>;
  /** What the reader should know about how this rank was measured. */
  notes: string[];
  activities: Activity[];
  stepWindows: StepWindow[];
  /** The kept activities of each kept step. */
  stepActivities: Activity[][];
  /** Per kept step, the backward pass on the CPU: first to last autograd engine op, or null. */
  backward: (Interval | null)[];
}

const BACKWARD_OP = "autograd::engine::evaluate_function";

function backwardWindows(t: RankTrace, windows: readonly StepWindow[]): (Interval | null)[] {
  const out: (Interval | null)[] = windows.map(() => null);
  for (const o of t.cpuOps) {
    if (!o.name.startsWith(BACKWARD_OP)) continue;
    const i = stepOf(windows, o.start);
    if (i < 0) continue;
    const w = out[i];
    out[i] =
      w === null || w === undefined
        ? { start: o.start, end: o.end }
        : { start: Math.min(w.start, o.start), end: Math.max(w.end, o.end) };
  }
  return out;
}

const ms = (us: number) => us / 1e3;
const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Bytes of `nelems` elements of a dtype as Kineto writes it (`Float`, `BFloat16`, `Half`…). */
export function bytesOf(nelems: number | null, dtype: string | null): number | null {
  if (nelems === null || dtype === null) return null;
  const canon = canonicalDtype(dtype.toLowerCase());
  return canon === null ? null : nelems * elementBytes(canon);
}

/** `bytesOf`, with each dtype string read once (a trace writes a handful, on every kernel). */
function bytesPerDtype(): (nelems: number | null, dtype: string | null) => number | null {
  const perElement = new Map<string, number | null>();
  return (nelems, dtype) => {
    if (nelems === null || dtype === null) return null;
    let b = perElement.get(dtype);
    if (b === undefined) {
      b = bytesOf(1, dtype);
      if (perElement.size < 256) perElement.set(dtype, b);
    }
    return b === null ? null : nelems * b;
  };
}

/** The step whose window [start, end) holds t, or −1: a binary search over windows sorted by start. */
function stepOf(windows: readonly StepWindow[], t: number): number {
  let lo = 0;
  let hi = windows.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((windows[mid] as StepWindow).start <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  // Windows do not nest in a real trace; if one did, the latest one starting before t is taken.
  return found >= 0 && t < (windows[found] as StepWindow).end ? found : -1;
}

function gpuActivities(
  t: RankTrace,
  windows: readonly StepWindow[],
): { acts: Activity[]; unlaunched: number } {
  let unlaunched = 0;
  const sizes = t.cpuComm.filter((c) => c.nelems !== null);
  const bytes = bytesPerDtype();
  const acts: Activity[] = [];
  // Kernels without a size, and their launches: looked up in the ops all at once, below.
  const unsized: number[] = [];
  const unsizedAt: number[] = [];
  for (const g of t.gpu) {
    const launch = t.launches.get(g.correlation);
    if (launch === undefined) unlaunched++;
    const b = bytes(g.nelems, g.dtype);
    if (b === null && g.cls === "comm" && launch !== undefined && sizes.length > 0) {
      unsized.push(acts.length);
      unsizedAt.push(launch);
    }
    const step = launch === undefined ? -2 : windows.length === 0 ? -1 : stepOf(windows, launch);
    acts.push({
      cls: g.cls,
      name: g.name,
      start: g.start,
      end: g.end,
      step,
      launch: launch ?? g.start,
      bytes: b,
    });
  }
  // Older NCCL kernels carry no size: the record_param_comms op around the launch has it.
  const ops = firstEnclosing(sizes, unsizedAt);
  for (let k = 0; k < unsized.length; k++) {
    const op = sizes[ops[k] as number];
    if (op !== undefined) (acts[unsized[k] as number] as Activity).bytes = bytes(op.nelems, op.dtype);
  }
  return { acts, unlaunched };
}

function cpuActivities(t: RankTrace, windows: readonly StepWindow[]): Activity[] {
  const glooThreads = new Set(t.cpuComm.filter((c) => isGlooCollective(c.name)).map((c) => c.tid));
  const at = (start: number) => (windows.length === 0 ? -1 : stepOf(windows, start));
  const acts: Activity[] = [];
  for (const c of t.cpuComm) {
    if (!isGlooCollective(c.name)) continue;
    acts.push({
      cls: "comm",
      name: c.name,
      start: c.start,
      end: c.end,
      step: at(c.start),
      launch: c.start,
      bytes: bytesOf(c.nelems, c.dtype),
    });
  }
  for (const o of t.cpuOps) {
    if (glooThreads.has(o.tid)) continue;
    acts.push({
      cls: "compute",
      name: o.name,
      start: o.start,
      end: o.end,
      step: at(o.start),
      launch: o.start,
      bytes: null,
    });
  }
  return acts.sort((a, b) => a.start - b.start);
}

/** Each class's spans merged once, for the overlap and both breakdowns. */
interface Merged {
  all: Interval[];
  byClass: Record<KernelClass, Interval[]>;
}

function mergedOf(acts: readonly Activity[]): Merged {
  const split: Record<KernelClass, Activity[]> = { compute: [], comm: [], memory: [] };
  for (const a of acts) split[a.cls].push(a);
  return {
    all: mergeIntervals(acts),
    byClass: {
      compute: mergeIntervals(split.compute),
      comm: mergeIntervals(split.comm),
      memory: mergeIntervals(split.memory),
    },
  };
}

function overlapOf(
  acts: readonly Activity[],
  merged?: Merged,
): { comm: number; compute: number; overlap: number } {
  const comm = merged?.byClass.comm ?? mergeIntervals(acts.filter((a) => a.cls === "comm"));
  const compute = merged?.byClass.compute ?? mergeIntervals(acts.filter((a) => a.cls === "compute"));
  return { comm: totalLength(comm), compute: totalLength(compute), overlap: intersectLength(comm, compute) };
}

/** HTA's `get_temporal_breakdown`: idle, compute and non-compute time within the kernels' span. */
export function temporalBreakdown(
  acts: readonly Activity[],
  merged = mergedOf(acts),
): TemporalBreakdown | null {
  const all = merged.all;
  if (all.length === 0) return null;
  // The merged spans are sorted by start and disjoint: the last ends last.
  const kernel = (all.at(-1) as Interval).end - (all[0] as Interval).start;
  const idle = kernel - totalLength(all);
  const compute = totalLength(merged.byClass.compute);
  const nonCompute = kernel - compute - idle;
  const pct = (x: number) => (kernel > 0 ? round((100 * x) / kernel, 2) : 0);
  return {
    kernelMs: ms(kernel),
    idleMs: ms(idle),
    computeMs: ms(compute),
    nonComputeMs: ms(nonCompute),
    idlePct: pct(idle),
    computePct: pct(compute),
    nonComputePct: pct(nonCompute),
  };
}

const CLASS_ORDER: readonly KernelClass[] = ["compute", "comm", "memory"];

/** HTA's `_get_gpu_kernel_type_time`: time of each class and of each overlap of classes. */
export function kernelTypeBreakdown(
  acts: readonly Activity[],
  merged = mergedOf(acts),
): Record<string, { ms: number; pct: number }> {
  const byMask = sweepByMask(CLASS_ORDER.map((c) => merged.byClass[c]));
  let total = 0;
  for (const v of byMask.values()) total += v;
  const out: Record<string, { ms: number; pct: number }> = {};
  for (const [mask, t] of [...byMask].sort((a, b) => b[1] - a[1])) {
    const name = CLASS_ORDER.filter((_, k) => mask & (1 << k))
      .map((c) => HTA_CLASS_NAME[c])
      .join(" overlapping ");
    out[name] = { ms: ms(t), pct: total > 0 ? round((100 * t) / total, 1) : 0 };
  }
  return out;
}

/** The rank's number: distributedInfo's, else one in the file name (`rank1.json`), else its place. */
function rankOf(t: RankTrace, position: number, notes: string[]): number {
  if (t.rank !== null) return t.rank;
  const m = /rank[-_]?(\d+)/i.exec(t.file);
  if (m !== null) {
    const rank = Number(m[1]);
    checkRankFigures(rank, t.worldSize, `the file name's (${t.file.slice(0, 80)})`);
    notes.push(`no distributedInfo: rank ${m[1]} read from the file name`);
    return rank;
  }
  notes.push(`no distributedInfo: rank ${position} given by the order the files were opened`);
  return position;
}

export function measureRank(t: RankTrace, position: number, options: MeasureOptions): RankFigures {
  const notes: string[] = [];
  const rank = rankOf(t, position, notes);
  if (t.badDurations > 0) {
    notes.push(
      `${t.badDurations} event${t.badDurations === 1 ? "" : "s"} with a negative, NaN or missing ts/dur skipped (first: "${t.firstBad}")`,
    );
  }
  const mode = t.gpu.length > 0 ? "gpu" : "cpu";
  let windows = t.steps;
  if (windows.length === 0)
    notes.push("no ProfilerStep annotations: the whole trace is measured as one span");
  else if (!options.allSteps && windows.length > 1) {
    notes.push(`the last step (${(windows.at(-1) as StepWindow).name}) is dropped, as HTA does`);
    windows = windows.slice(0, -1);
  } else if (!options.allSteps) notes.push("only one ProfilerStep: it is kept");
  let acts: Activity[];
  if (mode === "gpu") {
    const got = gpuActivities(t, t.steps);
    if (got.unlaunched > 0 && t.steps.length > 0)
      notes.push(
        `${got.unlaunched} GPU activities have no launch event (no matching correlation) and are dropped`,
      );
    const outside = got.acts.filter((a) => a.step === -1 && t.steps.length > 0).length;
    if (outside > 0) notes.push(`${outside} GPU activities launched outside every step are dropped`);
    acts = got.acts.filter((a) => (t.steps.length === 0 ? true : a.step >= 0 && a.step < windows.length));
  } else {
    const all = cpuActivities(t, t.steps);
    if (all.some((a) => a.cls === "comm"))
      notes.push("CPU trace: gloo's collectives stand for communication, CPU operators for computation");
    else notes.push("no GPU kernels and no gloo collectives: nothing communicates in this trace");
    acts = all.filter((a) => (t.steps.length === 0 ? true : a.step >= 0 && a.step < windows.length));
  }
  const byStep: Activity[][] = windows.map(() => []);
  for (const a of acts) if (a.step >= 0) byStep[a.step]?.push(a);
  const steps: StepFigures[] = windows.map((w, i) => {
    const o = overlapOf(byStep[i] ?? []);
    return {
      name: w.name,
      ms: ms(w.end - w.start),
      commMs: ms(o.comm),
      computeMs: ms(o.compute),
      exposedCommMs: ms(o.comm - o.overlap),
      overlapPct: o.comm > 0 ? round((100 * o.overlap) / o.comm, 2) : null,
    };
  });
  const merged = mergedOf(acts);
  const o = overlapOf(acts, merged);
  return {
    file: t.file,
    rank,
    worldSize: t.worldSize,
    device: t.device,
    mode,
    steps,
    commMs: ms(o.comm),
    overlapPct: o.comm > 0 ? round((100 * o.overlap) / o.comm, 2) : null,
    temporal: temporalBreakdown(acts, merged),
    kernelTypes: kernelTypeBreakdown(acts, merged),
    notes,
    activities: acts,
    stepWindows: windows,
    stepActivities: byStep,
    backward: backwardWindows(t, windows),
  };
}

/** Collective calls of one rank in order: the k-th call of a collective in a step, for matching. */
export function collectiveCalls(
  f: RankFigures,
): { key: string; step: number; offset: number; ms: number; bytes: number | null }[] {
  const seen = new Map<string, number>();
  return f.activities
    .filter((a) => a.cls === "comm")
    .map((a) => {
      const coll = collectiveOf(a.name);
      const base = `${a.step}|${coll}`;
      const k = seen.get(base) ?? 0;
      seen.set(base, k + 1);
      const stepStart = a.step >= 0 ? (f.stepWindows[a.step]?.start ?? 0) : 0;
      return {
        key: `${base}|${k}`,
        step: a.step,
        offset: a.start - stepStart,
        ms: ms(a.end - a.start),
        bytes: a.bytes,
      };
    });
}
