/**
 * Training on WebGPU: R replicas on the lab's simulated devices (one GPUDevice for all, or one
 * each). Each replica's weights, momentum and activations live on its device; its gradient is
 * written into the executor's `in` buffer, the lab's ring all-reduce sums it over the ring into
 * `out` and divides, and SGD reads it there. Catch-up and checkpoints are real buffer copies,
 * through the host when the two replicas are on different GPUDevices.
 */

import type { PreparedRun } from "../gpu/executor.ts";
import { nanArray } from "../gpu/gpuBuffers.ts";
import type { GpuExecutor } from "../gpu/gpuExecutor.ts";
import { ringAllReduce } from "../gpu/ringSchedule.ts";
import type { StepOutcome, TrainBackend } from "./backend.ts";
import { BATCH_PER_REPLICA, MOMENTUM } from "./config.ts";
import { INPUTS, shardStart, TRAIN_POINTS } from "./data.ts";
import { divided } from "./divided.ts";
import { bindGroup, buffer, type Dispatch, encode, passDispatches } from "./gpuPasses.ts";
import type { Evaluation } from "./mlp.ts";
import type { Layout } from "./model.ts";
import type { StepRoles } from "./plan.ts";
import { stateHash } from "./stateHash.ts";
import type { TrainDevice } from "./trainDevice.ts";
import { groupsFor, SGD_WGSL } from "./trainKernels.ts";

interface Replica {
  dev: TrainDevice;
  w: GPUBuffer;
  v: GPUBuffer;
  losses: GPUBuffer;
  uniform: GPUBuffer;
  /** Weights, momentum and the shard's losses land here to be read back. */
  staging: GPUBuffer;
  compute: Dispatch[];
  sgd: Dispatch[];
  grad: GPUBuffer;
}

export class GpuTrainer implements TrainBackend {
  private readonly reps: Replica[];
  private readonly prepared = new Map<string, PreparedRun>();
  private readonly checkpoint: { w: GPUBuffer; v: GPUBuffer };
  private readonly P: number;

  constructor(
    private readonly exec: GpuExecutor,
    devices: (rank: number) => TrainDevice,
    layout: Layout,
    readonly replicas: number,
    init: Float32Array,
  ) {
    this.P = layout.count;
    const b = BATCH_PER_REPLICA;
    const widths = [INPUTS, ...layout.layers.map((L) => L.fanOut)];
    this.reps = Array.from({ length: replicas }, (_, r) => {
      const dev = devices(r);
      const d = dev.device;
      const res = exec.resident(r);
      if (res.device !== d) throw new Error(`replica ${r}: executor and trainer disagree on its device`);
      const w = buffer(d, this.P, `replica ${r} weights`);
      const v = buffer(d, this.P, `replica ${r} momentum`);
      d.queue.writeBuffer(w, 0, init);
      d.queue.writeBuffer(v, 0, new Float32Array(this.P));
      const losses = buffer(d, b, `replica ${r} losses`);
      const uniform = buffer(d, 4, `replica ${r} params`, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
      const acts = widths.map((x, i) => buffer(d, b * x, `replica ${r} act ${i}`));
      const deltas = widths.map((x, i) => buffer(d, b * x, `replica ${r} delta ${i}`));
      const compute = passDispatches(
        dev.pipes,
        layout,
        b,
        TRAIN_POINTS,
        { X: dev.trainX, Y: dev.trainY, uniform, p: w, acts, deltas },
        { kind: "train", losses, grad: res.in },
      );
      const sgdPipe = dev.pipes.get(SGD_WGSL, { N: this.P, MU: MOMENTUM });
      const sgd = [
        {
          pipeline: sgdPipe,
          bind: bindGroup(d, sgdPipe, [w, v, res.out, uniform]),
          groups: groupsFor(this.P),
        },
      ];
      const staging = buffer(
        d,
        2 * this.P + b,
        `replica ${r} staging`,
        GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      );
      return { dev, w, v, losses, uniform, staging, compute, sgd, grad: res.in };
    });
    const d0 = this.rep(0).dev.device;
    this.checkpoint = {
      w: buffer(d0, this.P, "checkpoint weights"),
      v: buffer(d0, this.P, "checkpoint momentum"),
    };
  }

  private rep(r: number): Replica {
    const x = this.reps[r];
    if (!x) throw new RangeError(`no replica ${r}`);
    return x;
  }

  private allReduce(roles: StepRoles): PreparedRun {
    const key = `${roles.ring.join(",")}/${roles.divisor}`;
    let p = this.prepared.get(key);
    if (!p) {
      const ring = roles.ring.length > 1 ? ringAllReduce(roles.ring, this.P) : null;
      p = this.exec.prepare(divided(ring, roles, this.P));
      this.prepared.set(key, p);
    }
    return p;
  }

  private async settle(ranks: readonly number[]): Promise<void> {
    const devs = new Set(ranks.map((r) => this.rep(r).dev.device));
    await Promise.all([...devs].map((d) => d.queue.onSubmittedWorkDone()));
  }

  async step(step: number, roles: StepRoles, lr: number): Promise<StepOutcome> {
    const t0 = performance.now();
    const bytes = this.P * 4;
    for (const r of roles.ring) {
      const x = this.rep(r);
      const params = new ArrayBuffer(16);
      new Uint32Array(params, 0, 1)[0] = shardStart(step, r, this.replicas, BATCH_PER_REPLICA);
      new Float32Array(params, 4, 1)[0] = lr;
      x.dev.device.queue.writeBuffer(x.uniform, 0, params);
      const enc = x.dev.device.createCommandEncoder();
      // A healer contributes zeros: its gradient buffer is cleared, not computed.
      if (roles.heal.includes(r)) enc.clearBuffer(x.grad, 0, Math.ceil(bytes / 4) * 4);
      else encode(enc, x.compute);
      x.dev.device.queue.submit([enc.finish()]);
    }
    await this.settle(roles.ring);
    const t1 = performance.now();
    await this.allReduce(roles).run();
    await this.settle(roles.ring);
    const t2 = performance.now();
    for (const r of roles.ring) {
      const x = this.rep(r);
      const enc = x.dev.device.createCommandEncoder();
      encode(enc, x.sgd);
      enc.copyBufferToBuffer(x.w, 0, x.staging, 0, bytes);
      enc.copyBufferToBuffer(x.v, 0, x.staging, bytes, bytes);
      enc.copyBufferToBuffer(x.losses, 0, x.staging, 2 * bytes, BATCH_PER_REPLICA * 4);
      x.dev.device.queue.submit([enc.finish()]);
    }
    const hashes = new Map<number, string>();
    const losses = new Map<number, number>();
    const first = roles.ring[0] ?? 0;
    let state = new Float32Array(0);
    await Promise.all(
      roles.ring.map(async (r) => {
        const x = this.rep(r);
        await x.staging.mapAsync(GPUMapMode.READ);
        const a = new Float32Array(x.staging.getMappedRange());
        hashes.set(r, stateHash(a.subarray(0, 2 * this.P)));
        if (r === first) state = a.slice(0, 2 * this.P);
        let sum = 0;
        for (let k = 0; k < BATCH_PER_REPLICA; k++) sum += a[2 * this.P + k] as number;
        losses.set(r, sum / BATCH_PER_REPLICA);
        x.staging.unmap();
      }),
    );
    return {
      losses: roles.compute.map((r) => losses.get(r) ?? Number.NaN),
      hashes,
      state,
      computeMs: t1 - t0,
      allReduceMs: t2 - t1,
      totalMs: performance.now() - t0,
    };
  }

  fail(replica: number): void {
    const x = this.rep(replica);
    const nan = nanArray(this.P);
    x.dev.device.queue.writeBuffer(x.w, 0, nan);
    x.dev.device.queue.writeBuffer(x.v, 0, nan);
  }

  /** Copies `src` buffers of one device into `dst` buffers, through the host if the devices differ. */
  private async copy(from: GPUDevice, src: GPUBuffer[], to: GPUDevice, dst: GPUBuffer[]): Promise<void> {
    const bytes = this.P * 4;
    if (from === to) {
      const enc = from.createCommandEncoder();
      src.forEach((s, i) => {
        enc.copyBufferToBuffer(s, 0, dst[i] as GPUBuffer, 0, bytes);
      });
      from.queue.submit([enc.finish()]);
      await from.queue.onSubmittedWorkDone();
      return;
    }
    const staging = buffer(
      from,
      src.length * this.P,
      "catch-up staging",
      GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    );
    const enc = from.createCommandEncoder();
    src.forEach((s, i) => {
      enc.copyBufferToBuffer(s, 0, staging, i * bytes, bytes);
    });
    from.queue.submit([enc.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const all = staging.getMappedRange();
    dst.forEach((d, i) => {
      to.queue.writeBuffer(d, 0, all, i * bytes, bytes);
    });
    staging.unmap();
    staging.destroy();
    await to.queue.onSubmittedWorkDone();
  }

  async catchUp(from: number, to: number): Promise<void> {
    const a = this.rep(from);
    const b = this.rep(to);
    await this.copy(a.dev.device, [a.w, a.v], b.dev.device, [b.w, b.v]);
  }

  private async read(r: number): Promise<Float32Array> {
    const x = this.rep(r);
    const bytes = this.P * 4;
    const enc = x.dev.device.createCommandEncoder();
    enc.copyBufferToBuffer(x.w, 0, x.staging, 0, bytes);
    enc.copyBufferToBuffer(x.v, 0, x.staging, bytes, bytes);
    x.dev.device.queue.submit([enc.finish()]);
    await x.staging.mapAsync(GPUMapMode.READ);
    const a = new Float32Array(x.staging.getMappedRange(0, 2 * bytes).slice(0));
    x.staging.unmap();
    return a;
  }

  async hash(replica: number): Promise<string> {
    return stateHash(await this.read(replica));
  }

  state(replica: number): Promise<Float32Array> {
    return this.read(replica);
  }

  async saveCheckpoint(from: number): Promise<void> {
    const x = this.rep(from);
    const d0 = this.rep(0).dev.device;
    await this.copy(x.dev.device, [x.w, x.v], d0, [this.checkpoint.w, this.checkpoint.v]);
  }

  async restoreCheckpoint(): Promise<void> {
    const d0 = this.rep(0).dev.device;
    for (const x of this.reps)
      await this.copy(d0, [this.checkpoint.w, this.checkpoint.v], x.dev.device, [x.w, x.v]);
  }

  evaluate(replica: number): Promise<Evaluation> {
    const x = this.rep(replica);
    return x.dev.evaluate(x.w);
  }

  async weights(replica: number): Promise<Float32Array> {
    return (await this.read(replica)).slice(0, this.P);
  }

  destroy(): void {
    for (const x of this.reps) {
      for (const b of [x.w, x.v, x.losses, x.uniform, x.staging]) b.destroy();
    }
    this.checkpoint.w.destroy();
    this.checkpoint.v.destroy();
  }
}
