/**
 * DiLoCo and DDP-with-AdamW on WebGPU, on the lab's simulated devices (one GPUDevice for all, or
 * one each). Each replica's five tensors (θ, m, v, θ_outer, momentum) live on its device; its
 * gradient is written into the executor's `in` buffer, where AdamW reads it (DiLoCo's inner
 * step) or the ring all-reduce averages it into `out` first (DDP); at a sync the pseudo-gradient
 * kernel writes Δ into `in`, the ring averages it over the round's participants, and the outer
 * kernel reads `out`. A catch-up is a real copy of all five, through the host across devices.
 */

import type { PreparedRun } from "../gpu/executor.ts";
import { nanArray } from "../gpu/gpuBuffers.ts";
import type { GpuExecutor } from "../gpu/gpuExecutor.ts";
import { ringAllReduce } from "../gpu/ringSchedule.ts";
import { BATCH_PER_REPLICA } from "./config.ts";
import { INPUTS, shardStart, TRAIN_POINTS } from "./data.ts";
import { ADAM_BETA1, ADAM_BETA2, ADAM_EPS, biasCorrections, WEIGHT_DECAY } from "./diloco.ts";
import type { DilocoBackend, InnerOutcome, SyncOutcome } from "./dilocoBackend.ts";
import { ADAMW_WGSL, OUTER_NESTEROV_WGSL, PSEUDO_GRADIENT_WGSL } from "./dilocoKernels.ts";
import { divided } from "./divided.ts";
import { bindGroup, buffer, type Dispatch, encode, passDispatches } from "./gpuPasses.ts";
import type { Evaluation } from "./mlp.ts";
import type { Layout } from "./model.ts";
import { stateHash } from "./stateHash.ts";
import type { TrainDevice } from "./trainDevice.ts";
import { groupsFor } from "./trainKernels.ts";

interface Replica {
  dev: TrainDevice;
  /** θ, m, v, θ_outer, momentum. */
  tensors: GPUBuffer[];
  losses: GPUBuffer;
  uniform: GPUBuffer;
  adam: GPUBuffer;
  /** Five tensors, then the averaged pseudo-gradient, then the shard's losses. */
  staging: GPUBuffer;
  compute: Dispatch[];
  adamOwn: Dispatch;
  adamReduced: Dispatch;
  pseudo: Dispatch;
  outers: Map<number, Dispatch>;
  in: GPUBuffer;
  out: GPUBuffer;
}

const W = 0;
const O = 3;
const B = 4;

export class GpuDiloco implements DilocoBackend {
  private readonly reps: Replica[];
  private readonly prepared = new Map<string, PreparedRun>();
  private readonly P: number;

  constructor(
    private readonly exec: GpuExecutor,
    devices: (rank: number) => TrainDevice,
    layout: Layout,
    readonly replicas: number,
    init: Float32Array,
  ) {
    const P = layout.count;
    this.P = P;
    const b = BATCH_PER_REPLICA;
    const widths = [INPUTS, ...layout.layers.map((L) => L.fanOut)];
    this.reps = Array.from({ length: replicas }, (_, r) => {
      const dev = devices(r);
      const d = dev.device;
      const res = exec.resident(r);
      if (res.device !== d) throw new Error(`replica ${r}: executor and trainer disagree on its device`);
      const names = ["weights", "first moment", "second moment", "outer weights", "outer momentum"];
      const tensors = names.map((n) => buffer(d, P, `replica ${r} ${n}`));
      const zeros = new Float32Array(P);
      tensors.forEach((t, i) => {
        d.queue.writeBuffer(t, 0, i === W || i === O ? init : zeros);
      });
      const losses = buffer(d, b, `replica ${r} losses`);
      const uniformUsage = GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST;
      const uniform = buffer(d, 4, `replica ${r} params`, uniformUsage);
      const adam = buffer(d, 4, `replica ${r} adam`, uniformUsage);
      const acts = widths.map((x, i) => buffer(d, b * x, `replica ${r} act ${i}`));
      const deltas = widths.map((x, i) => buffer(d, b * x, `replica ${r} delta ${i}`));
      const [w, m, v, o] = tensors as [GPUBuffer, GPUBuffer, GPUBuffer, GPUBuffer, GPUBuffer];
      const compute = passDispatches(
        dev.pipes,
        layout,
        b,
        TRAIN_POINTS,
        { X: dev.trainX, Y: dev.trainY, uniform, p: w, acts, deltas },
        { kind: "train", losses, grad: res.in },
      );
      const adamPipe = dev.pipes.get(ADAMW_WGSL, {
        N: P,
        B1: ADAM_BETA1,
        B2: ADAM_BETA2,
        EPS: ADAM_EPS,
        WD: WEIGHT_DECAY,
      });
      const one = (pipeline: GPUComputePipeline, bufs: GPUBuffer[]): Dispatch => ({
        pipeline,
        bind: bindGroup(d, pipeline, bufs),
        groups: groupsFor(P),
      });
      const staging = buffer(
        d,
        6 * P + b,
        `replica ${r} staging`,
        GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      );
      return {
        dev,
        tensors,
        losses,
        uniform,
        adam,
        staging,
        compute,
        adamOwn: one(adamPipe, [w, m, v, res.in, adam]),
        adamReduced: one(adamPipe, [w, m, v, res.out, adam]),
        pseudo: one(dev.pipes.get(PSEUDO_GRADIENT_WGSL, { N: P }), [o, w, res.in]),
        outers: new Map(),
        in: res.in,
        out: res.out,
      };
    });
  }

  private rep(r: number): Replica {
    const x = this.reps[r];
    if (!x) throw new RangeError(`no replica ${r}`);
    return x;
  }

  private tensor(x: Replica, i: number): GPUBuffer {
    return x.tensors[i] as GPUBuffer;
  }

  private outerOf(x: Replica, momentum: number): Dispatch {
    let d = x.outers.get(momentum);
    if (!d) {
      const pipeline = x.dev.pipes.get(OUTER_NESTEROV_WGSL, { N: this.P, MU: momentum });
      const bufs = [this.tensor(x, O), this.tensor(x, B), x.out, this.tensor(x, W), x.uniform];
      d = { pipeline, bind: bindGroup(x.dev.device, pipeline, bufs), groups: groupsFor(this.P) };
      x.outers.set(momentum, d);
    }
    return d;
  }

  /** The ring all-reduce over `who`, ÷ its size, from `in` to `out`. */
  private allReduce(who: readonly number[]): PreparedRun {
    const key = who.join(",");
    let p = this.prepared.get(key);
    if (!p) {
      const roles = { compute: [...who], heal: [], failing: [], ring: [...who], divisor: who.length };
      const ring = who.length > 1 ? ringAllReduce(roles.ring, this.P) : null;
      p = this.exec.prepare(divided(ring, roles, this.P));
      this.prepared.set(key, p);
    }
    return p;
  }

  private async settle(ranks: readonly number[]): Promise<void> {
    const devs = new Set(ranks.map((r) => this.rep(r).dev.device));
    await Promise.all([...devs].map((d) => d.queue.onSubmittedWorkDone()));
  }

  private writeParams(x: Replica, offset: number, lr: number): void {
    const params = new ArrayBuffer(16);
    new Uint32Array(params, 0, 1)[0] = offset;
    new Float32Array(params, 4, 1)[0] = lr;
    x.dev.device.queue.writeBuffer(x.uniform, 0, params);
  }

  /** Copies tensors `which` (and optionally `out`) of replica r to its staging and reads them. */
  private async readBack(r: number, which: readonly number[], withOut: boolean, withLosses: boolean) {
    const x = this.rep(r);
    const bytes = this.P * 4;
    const enc = x.dev.device.createCommandEncoder();
    which.forEach((t, i) => {
      enc.copyBufferToBuffer(this.tensor(x, t), 0, x.staging, i * bytes, bytes);
    });
    if (withOut) enc.copyBufferToBuffer(x.out, 0, x.staging, 5 * bytes, bytes);
    if (withLosses) enc.copyBufferToBuffer(x.losses, 0, x.staging, 6 * bytes, BATCH_PER_REPLICA * 4);
    x.dev.device.queue.submit([enc.finish()]);
    await x.staging.mapAsync(GPUMapMode.READ);
    const a = new Float32Array(x.staging.getMappedRange().slice(0));
    x.staging.unmap();
    const P = this.P;
    let loss = 0;
    if (withLosses) for (let k = 0; k < BATCH_PER_REPLICA; k++) loss += a[6 * P + k] as number;
    return {
      tensors: a.slice(0, which.length * P),
      out: withOut ? a.slice(5 * P, 6 * P) : null,
      loss: loss / BATCH_PER_REPLICA,
    };
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
    who.forEach((r, i) => {
      const x = this.rep(r);
      this.writeParams(x, shardStart(step, r, this.replicas, BATCH_PER_REPLICA), lr);
      const { bc1, bc2 } = biasCorrections(t[i] ?? 1);
      x.dev.device.queue.writeBuffer(x.adam, 0, new Float32Array([lr, bc1, bc2, 0]));
      const enc = x.dev.device.createCommandEncoder();
      encode(enc, x.compute);
      x.dev.device.queue.submit([enc.finish()]);
    });
    await this.settle(who);
    const t1 = performance.now();
    if (reduce) {
      await this.allReduce(who).run();
      await this.settle(who);
    }
    const t2 = performance.now();
    for (const r of who) {
      const x = this.rep(r);
      const enc = x.dev.device.createCommandEncoder();
      encode(enc, [reduce ? x.adamReduced : x.adamOwn]);
      x.dev.device.queue.submit([enc.finish()]);
    }
    const got = await Promise.all(who.map((r) => this.readBack(r, read ? [0, 1, 2] : [], false, true)));
    return {
      losses: got.map((g) => g.loss),
      states: read ? new Map(who.map((r, i) => [r, (got[i] as { tensors: Float32Array }).tensors])) : null,
      allReduceMs: t2 - t1,
      totalMs: performance.now() - t0,
    };
  }

  async sync(who: readonly number[], lr: number, momentum: number, read: boolean): Promise<SyncOutcome> {
    const t0 = performance.now();
    for (const r of who) {
      const x = this.rep(r);
      this.writeParams(x, 0, lr);
      const enc = x.dev.device.createCommandEncoder();
      encode(enc, [x.pseudo]);
      x.dev.device.queue.submit([enc.finish()]);
    }
    await this.settle(who);
    await this.allReduce(who).run();
    await this.settle(who);
    const t1 = performance.now();
    for (const r of who) {
      const x = this.rep(r);
      const enc = x.dev.device.createCommandEncoder();
      encode(enc, [this.outerOf(x, momentum)]);
      x.dev.device.queue.submit([enc.finish()]);
    }
    const first = who[0] ?? 0;
    const got = await Promise.all(who.map((r) => this.readBack(r, [W, O, B], read && r === first, false)));
    const hashes = new Map(who.map((r, i) => [r, stateHash((got[i] as { tensors: Float32Array }).tensors)]));
    let state: Float32Array | null = null;
    const g0 = got[0];
    if (read && g0?.out) {
      state = new Float32Array(4 * this.P);
      state.set(g0.out);
      state.set(g0.tensors, this.P);
    }
    return { state, hashes, allReduceMs: t1 - t0, totalMs: performance.now() - t0 };
  }

  async restore(replica: number): Promise<void> {
    const x = this.rep(replica);
    const enc = x.dev.device.createCommandEncoder();
    enc.copyBufferToBuffer(this.tensor(x, O), 0, this.tensor(x, W), 0, this.P * 4);
    x.dev.device.queue.submit([enc.finish()]);
    await x.dev.device.queue.onSubmittedWorkDone();
  }

  fail(replica: number): void {
    const x = this.rep(replica);
    const nan = nanArray(this.P);
    for (const t of x.tensors) x.dev.device.queue.writeBuffer(t, 0, nan);
  }

  async catchUp(from: number, to: number): Promise<void> {
    const a = this.rep(from);
    const b = this.rep(to);
    const bytes = this.P * 4;
    if (a.dev.device === b.dev.device) {
      const enc = a.dev.device.createCommandEncoder();
      a.tensors.forEach((t, i) => {
        enc.copyBufferToBuffer(t, 0, this.tensor(b, i), 0, bytes);
      });
      a.dev.device.queue.submit([enc.finish()]);
      await a.dev.device.queue.onSubmittedWorkDone();
      return;
    }
    const all = (await this.readBack(from, [0, 1, 2, 3, 4], false, false)).tensors;
    b.tensors.forEach((t, i) => {
      b.dev.device.queue.writeBuffer(t, 0, all, i * this.P, this.P);
    });
    await b.dev.device.queue.onSubmittedWorkDone();
  }

  async hash(replica: number): Promise<string> {
    return stateHash(await this.state(replica));
  }

  async state(replica: number): Promise<Float32Array> {
    return (await this.readBack(replica, [0, 1, 2, 3, 4], false, false)).tensors;
  }

  evaluate(replica: number): Promise<Evaluation> {
    const x = this.rep(replica);
    return x.dev.evaluate(this.tensor(x, W));
  }

  destroy(): void {
    for (const x of this.reps)
      for (const b of [...x.tensors, x.losses, x.uniform, x.adam, x.staging]) b.destroy();
  }
}
