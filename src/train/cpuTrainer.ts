/**
 * Training on the CPU: Float64Array replicas (the reference every run is checked against) or
 * Float32Array ones (the fallback without WebGPU). The float32 fallback averages gradients with
 * the lab's ring all-reduce on typed arrays (CpuExecutor); the reference sums in float64.
 */
import { CpuExecutor } from "../gpu/cpuBackend.ts";
import { ringAllReduce } from "../gpu/ringSchedule.ts";
import type { Schedule } from "../gpu/schedule.ts";
import type { StepOutcome, TrainBackend } from "./backend.ts";
import { BATCH_PER_REPLICA, MOMENTUM } from "./config.ts";
import { type DataSet, shardStart } from "./data.ts";
import { divided } from "./divided.ts";
import { evaluate, type Floats, lossAndGradient, sgdMomentum } from "./mlp.ts";
import type { Layout } from "./model.ts";
import type { StepRoles } from "./plan.ts";
import { stateHash } from "./stateHash.ts";

export interface Replica {
  w: Floats;
  v: Floats;
  g: Floats;
}

export class CpuTrainer implements TrainBackend {
  private readonly reps: Replica[];
  private checkpoint: { w: Floats; v: Floats } | null = null;
  /** float32 only: the lab's CPU executor runs the ring. */
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
      const r = { w: make(), v: make(), g: make() };
      r.w.set(init);
      return r;
    });
    this.exec = precision === "float32" ? new CpuExecutor(replicas, layout.count) : null;
  }

  protected rep(r: number): Replica {
    const x = this.reps[r];
    if (!x) throw new RangeError(`no replica ${r}`);
    return x;
  }

  async step(step: number, roles: StepRoles, lr: number): Promise<StepOutcome> {
    const t0 = performance.now();
    const losses = roles.compute.map((r) =>
      lossAndGradient(
        this.layout,
        this.rep(r).w,
        this.data.train,
        shardStart(step, r, this.replicas, BATCH_PER_REPLICA),
        BATCH_PER_REPLICA,
        this.rep(r).g,
      ),
    );
    for (const r of roles.heal) this.rep(r).g.fill(0);
    const t1 = performance.now();
    await this.allReduce(roles);
    const t2 = performance.now();
    for (const r of roles.ring) {
      const x = this.rep(r);
      sgdMomentum(x.w, x.v, x.g, lr, MOMENTUM);
    }
    const hashes = this.exec ? new Map(roles.ring.map((r) => [r, this.hashOf(r)])) : null;
    const first = roles.ring[0] ?? 0;
    return {
      losses,
      hashes,
      state: this.stateOf(first),
      computeMs: t1 - t0,
      allReduceMs: t2 - t1,
      totalMs: performance.now() - t0,
    };
  }

  private stateOf(r: number): Floats {
    const x = this.rep(r);
    const out =
      x.w instanceof Float64Array ? new Float64Array(2 * x.w.length) : new Float32Array(2 * x.w.length);
    out.set(x.w);
    out.set(x.v, x.w.length);
    return out;
  }

  async state(replica: number): Promise<Floats> {
    return this.stateOf(replica);
  }

  /** Sum over the ring, ÷ divisor, into every ring member's g. */
  protected async allReduce(roles: StepRoles): Promise<void> {
    const exec = this.exec;
    if (!exec) {
      const sum = new Float64Array(this.layout.count);
      for (const r of roles.ring) {
        const g = this.rep(r).g;
        for (let i = 0; i < sum.length; i++) sum[i] = (sum[i] as number) + (g[i] as number);
      }
      for (let i = 0; i < sum.length; i++) sum[i] = (sum[i] as number) / roles.divisor;
      for (const r of roles.ring) this.rep(r).g.set(sum);
      return;
    }
    for (const r of roles.ring) exec.writeInput(r, this.rep(r).g as Float32Array);
    const key = `${roles.ring.join(",")}/${roles.divisor}`;
    let s = this.schedules.get(key);
    if (!s) {
      s = divided(
        roles.ring.length > 1 ? ringAllReduce(roles.ring, this.layout.count) : null,
        roles,
        this.layout.count,
      );
      this.schedules.set(key, s);
    }
    await exec.prepare(s).run();
    for (const r of roles.ring) this.rep(r).g.set(await exec.readOutput(r));
  }

  private hashOf(r: number): string {
    const x = this.rep(r);
    return stateHash(Float32Array.from(x.w), Float32Array.from(x.v));
  }

  fail(replica: number): void {
    this.rep(replica).w.fill(Number.NaN);
    this.rep(replica).v.fill(Number.NaN);
  }

  async catchUp(from: number, to: number): Promise<void> {
    this.rep(to).w.set(this.rep(from).w);
    this.rep(to).v.set(this.rep(from).v);
  }

  async hash(replica: number): Promise<string> {
    return this.hashOf(replica);
  }

  async saveCheckpoint(from: number): Promise<void> {
    const x = this.rep(from);
    this.checkpoint = { w: x.w.slice(), v: x.v.slice() };
  }

  async restoreCheckpoint(): Promise<void> {
    const c = this.checkpoint;
    if (!c) throw new Error("no checkpoint to restore");
    for (const x of this.reps) {
      x.w.set(c.w);
      x.v.set(c.v);
    }
  }

  async evaluate(replica: number) {
    return evaluate(this.layout, this.rep(replica).w, this.data.test);
  }

  async weights(replica: number): Promise<Floats> {
    return this.rep(replica).w.slice();
  }

  destroy(): void {
    this.exec?.destroy();
  }
}
