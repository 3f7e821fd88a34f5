/**
 * What the measurement keeps of one rank's trace, built event by event as the text streams in.
 * Only complete events (`"ph": "X"`) with a duration are spans; everything else (metadata, flow
 * arrows, counters, instants) is skipped without being kept.
 */
import { classifyKernel, isCommCpuOp, type KernelClass } from "./kernelClass.ts";
import { checkRankFigures } from "./traceError.ts";

export interface StepWindow {
  /** `ProfilerStep#N` as written in the trace. */
  name: string;
  /** N, HTA's iteration number (`re.search(r"\d+", name)`). */
  index: number;
  start: number;
  end: number;
}

/** A GPU activity (kernel, memcpy, memset): times in µs as the trace writes them. */
export interface GpuEvent {
  name: string;
  cls: KernelClass;
  start: number;
  end: number;
  stream: number;
  correlation: number;
  /** NCCL kernels of recent PyTorch carry the collective's size. */
  nelems: number | null;
  dtype: string | null;
}

/** A communication call seen on the CPU: `record_param_comms`, `c10d::…`, or gloo's own op. */
export interface CpuComm {
  name: string;
  collective: string;
  start: number;
  end: number;
  tid: number;
  nelems: number | null;
  dtype: string | null;
}

/** A CPU operator's span (kept for CPU-only traces, where operators are the computation). */
export interface CpuOp {
  name: string;
  start: number;
  end: number;
  tid: number;
}

export interface RankTrace {
  file: string;
  rank: number | null;
  worldSize: number | null;
  backend: string | null;
  device: string;
  steps: StepWindow[];
  gpu: GpuEvent[];
  /** Launch time (µs) of each runtime event, by its correlation id. */
  launches: Map<number, number>;
  cpuComm: CpuComm[];
  cpuOps: CpuOp[];
  /** Complete events skipped because their ts or dur was negative, NaN or missing. */
  badDurations: number;
  firstBad: string | null;
  events: number;
}

const GPU_CATS = new Set(["kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset"]);
const STEP_RE = /^ProfilerStep#?(\d+)/;

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

function num(v: unknown): number | null {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function record(v: unknown): Record<string, unknown> | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

export class RankTraceBuilder {
  readonly trace: RankTrace;
  private readonly names = new Map<string, string>();
  /**
   * Each distinct kernel name is classified once per category (HTA's regex backtracks on long C++
   * names). Keyed by category, then name, so no key string is built per event.
   */
  private readonly classes = new Map<string, Map<string, KernelClass>>();
  /** Each distinct category string, lower-cased once (a trace has a handful of them). */
  private readonly lowerCats = new Map<string, string>();

  constructor(file: string) {
    this.trace = {
      file,
      rank: null,
      worldSize: null,
      backend: null,
      device: "CPU",
      steps: [],
      gpu: [],
      launches: new Map(),
      cpuComm: [],
      cpuOps: [],
      badDurations: 0,
      firstBad: null,
      events: 0,
    };
  }

  /** One name string per distinct name, however many events carry it. */
  private intern(s: string): string {
    const known = this.names.get(s);
    if (known !== undefined) return known;
    this.names.set(s, s);
    return s;
  }

  private classify(name: string, cat: string): KernelClass {
    let byName = this.classes.get(cat);
    if (byName === undefined) {
      byName = new Map();
      this.classes.set(cat, byName);
    }
    let cls = byName.get(name);
    if (cls === undefined) {
      cls = classifyKernel(name, cat);
      byName.set(name, cls);
    }
    return cls;
  }

  private lowerCat(raw: unknown): string {
    if (typeof raw !== "string") return "";
    let lower = this.lowerCats.get(raw);
    if (lower === undefined) {
      lower = raw.toLowerCase();
      // Bounded: a crafted trace could give every event its own category.
      if (this.lowerCats.size < 4096) this.lowerCats.set(raw, lower);
    }
    return lower;
  }

  event(raw: unknown): void {
    const e = record(raw);
    if (e === null || e.ph !== "X") return;
    const t = this.trace;
    t.events++;
    const name = str(e.name) ?? "";
    const ts = num(e.ts);
    const dur = num(e.dur);
    if (ts === null || dur === null || !Number.isFinite(ts) || !Number.isFinite(dur) || dur < 0) {
      t.badDurations++;
      t.firstBad ??= name.slice(0, 80);
      return;
    }
    const cat = this.lowerCat(e.cat);
    const args = record(e.args);
    const correlation = num(args?.correlation) ?? -1;
    const end = ts + dur;
    if (GPU_CATS.has(cat)) {
      const kept = this.intern(name);
      t.gpu.push({
        name: kept,
        cls: this.classify(kept, cat),
        start: ts,
        end,
        stream: num(args?.stream) ?? -1,
        correlation,
        nelems: num(args?.["In msg nelems"]),
        dtype: str(args?.dtype),
      });
      return;
    }
    const step = STEP_RE.exec(name);
    if (step !== null) {
      t.steps.push({ name: this.intern(name), index: Number(step[1]), start: ts, end });
      return;
    }
    if (correlation >= 0 && (cat.includes("runtime") || cat.includes("driver"))) {
      t.launches.set(correlation, ts);
      return;
    }
    const tid = num(e.tid) ?? 0;
    const comm = isCommCpuOp(name);
    if (comm !== null) {
      t.cpuComm.push({
        name: this.intern(name),
        collective: this.intern(str(args?.["Collective name"]) ?? comm),
        start: ts,
        end,
        tid,
        nelems: num(args?.["In msg nelems"]),
        dtype: str(args?.dtype),
      });
      return;
    }
    if (cat === "cpu_op" || cat === "operator" || cat === "" || cat === "user_annotation") {
      t.cpuOps.push({ name: this.intern(name), start: ts, end, tid });
    }
  }

  /** Reads `distributedInfo` and `deviceProperties` from the top-level metadata. */
  finish(meta: Record<string, unknown>): RankTrace {
    const t = this.trace;
    const info = record(meta.distributedInfo);
    if (info !== null) {
      t.rank = num(info.rank);
      t.worldSize = num(info.world_size);
      t.backend = str(info.backend);
      checkRankFigures(t.rank, t.worldSize, "distributedInfo's");
    }
    const devices = Array.isArray(meta.deviceProperties) ? meta.deviceProperties : [];
    const first = record(devices[0]);
    const deviceName = str(first?.name);
    if (deviceName !== null) t.device = deviceName;
    else if (t.gpu.length > 0) t.device = "GPU";
    t.steps.sort((a, b) => a.start - b.start);
    t.gpu.sort((a, b) => a.start - b.start);
    return t;
  }
}
