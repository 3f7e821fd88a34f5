/**
 * DiLoCo and DDP-with-AdamW on the CPU: Float64Array replicas (the reference a run is compared
 * with at its end) or Float32Array ones (the fallback without WebGPU), which average gradients and
 * pseudo-gradients with the lab's ring all-reduce on typed arrays (CpuExecutor), as cpuTrainer.ts.
 */
import { CpuExecutor } from "../gpu/cpuBackend.ts";
import { ringAllReduce } from "../gpu/ringSchedule.ts";
import type { Schedule } from "../gpu/schedule.ts";
import { BATCH_PER_REPLICA } from "./config.ts";
import { type DataSet, shardStart } from "./data.ts";
import { adamwStep, biasCorrections, outerNesterov, pseudoGradient } from "./diloco.ts";
import type { DilocoBackend, InnerOutcome, SyncOutcome } from "./dilocoBackend.ts";
import { divided } from "./divided.ts";
import { evaluate, type Floats, lossAndGradient } from "./mlp.ts";
import type { Layout } from "./model.ts";
import { stateHash } from "./stateHash.ts";

export interface DilocoReplica {
  w: Floats;
  m: Floats;
  v: Floats;
  o: Floats;
  b: Floats;
  /** Gradient, then pseudo-gradient: what the all-reduce averages. */
  g: Floats;
}

const TENSORS = ["w", "m", "v", "o", "b"] as const;

export class CpuDiloco implements DilocoBackend {
  private readonly reps: DilocoReplica[];
  private readonly exec: CpuExecutor | null;
  private readonly schedules = new Map<string, Schedule>();

  constructor(
    private readonly layout: Layout,
    private readonly data: DataSet,
    readonly replicas: number,
    init: Float32Array,
    readonly precision: "float64" | "float32",
  ) {
    const make = (): Floats =>
      precision === "float64" ? new Float64Array(layout.count) : new Float32Array(layout.count);
    this.reps = Array.from({ length: replicas }, () => {
      const r = { w: make(), m: make(), v: make(), o: make(), b: make(), g: make() };
      r.w.set(init);
      r.o.set(init);
      return r;
    });
    this.exec = precision === "float32" ? new CpuExecutor(replicas, layout.count) : null;
  }

  protected rep(r: number): DilocoReplica {
    const x = this.reps[r];
    if (!x) throw new RangeError(`no replica ${r}`);
    return x;
  }

  /** Every g of `who` becomes the mean of their g (float64: summed in order; float32: the lab's ring). */
  protected async average(who: readonly number[]): Promise<void> {
    const exec = this.exec;
    const P = this.layout.count;
    if (!exec) {
      const sum = new Float64Array(P);
      for (const r of who) {
        const g = this.rep(r).g;
        for (let i = 0; i < P; i++) sum[i] = (sum[i] as number) + (g[i] as number);
      }
      for (let i = 0; i < P; i++) sum[i] = (sum[i] as number) / who.length;
      for (const r of who) this.rep(r).g.set(sum);
      return;
    }
    const roles = { compute: [...who], heal: [], failing: [], ring: [...who], divisor: who.length };
    for (const r of who) exec.writeInput(r, this.rep(r).g as Float32Array);
    const key = who.join(",");
    let s = this.schedules.get(key);
    if (!s) {
      s = divided(who.length > 1 ? ringAllReduce(roles.ring, P) : null, roles, P);
      this.schedules.set(key, s);
    }
    await exec.prepare(s).run();
    for (const r of who) this.rep(r).g.set(await exec.readOutput(r));
  }

  async inner(
    step: number,
    who: readonly number[],
    lr: number,
    t: readonly number[],
    reduce: boolean,
    read: boolean,
  ): Promise<InnerOutcome> {
    const t0 = performance.now();
    const losses = who.map((r) =>
      lossAndGradient(
        this.layout,
        this.rep(r).w,
        this.data.train,
        shardStart(step, r, this.replicas, BATCH_PER_REPLICA),
        BATCH_PER_REPLICA,
        this.rep(r).g,
      ),
    );
    const t1 = performance.now();
    if (reduce) await this.average(who);
    const t2 = performance.now();
    who.forEach((r, i) => {
      const x = this.rep(r);
      const { bc1, bc2 } = biasCorrections(t[i] ?? 1);
      adamwStep(x.w, x.m, x.v, x.g, lr, bc1, bc2);
    });
    const states = read ? new Map(who.map((r) => [r, this.pack(r, ["w", "m", "v"])])) : null;
    return { losses, states, allReduceMs: t2 - t1, totalMs: performance.now() - t0 };
  }

  async sync(who: readonly number[], lr: number, momentum: number, read: boolean): Promise<SyncOutcome> {
    const t0 = performance.now();
    for (const r of who) {
      const x = this.rep(r);
      pseudoGradient(x.o, x.w, x.g);
    }
    await this.average(who);
    const t1 = performance.now();
    for (const r of who) {
      const x = this.rep(r);
      outerNesterov(x.o, x.b, x.g, lr, momentum);
      x.w.set(x.o);
    }
    const first = who[0] ?? 0;
    const state = read ? this.pack(first, ["g", "w", "o", "b"]) : null;
    const hashes = new Map(who.map((r) => [r, this.hashOf(r, ["w", "o", "b"])]));
    return { state, hashes, allReduceMs: t1 - t0, totalMs: performance.now() - t0 };
  }

  private pack(r: number, which: readonly (keyof DilocoReplica)[]): Floats {
    const x = this.rep(r);
    const P = this.layout.count;
    const out =
      this.precision === "float64" ? new Float64Array(which.length * P) : new Float32Array(which.length * P);
    which.forEach((k, i) => {
      out.set(x[k], i * P);
    });
    return out;
  }

  private hashOf(r: number, which: readonly (keyof DilocoReplica)[]): string {
    const x = this.rep(r);
    return stateHash(...which.map((k) => Float32Array.from(x[k])));
  }

  async restore(replica: number): Promise<void> {
    const x = this.rep(replica);
    x.w.set(x.o);
  }

  fail(replica: number): void {
    const x = this.rep(replica);
    for (const k of TENSORS) x[k].fill(Number.NaN);
  }

  async catchUp(from: number, to: number): Promise<void> {
    for (const k of TENSORS) this.rep(to)[k].set(this.rep(from)[k]);
  }

  async hash(replica: number): Promise<string> {
    return this.hashOf(replica, TENSORS);
  }

  async state(replica: number): Promise<Floats> {
    return this.pack(replica, TENSORS);
  }

  async evaluate(replica: number) {
    return evaluate(this.layout, this.rep(replica).w, this.data.test);
  }

  destroy(): void {
    this.exec?.destroy();
  }
}
