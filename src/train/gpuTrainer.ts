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
import { type DataSet, INPUTS, shardStart, TEST_POINTS, TRAIN_POINTS } from "./data.ts";
import { divided } from "./divided.ts";
import type { Evaluation } from "./mlp.ts";
import type { Layout } from "./model.ts";
import type { StepRoles } from "./plan.ts";
import { stateHash } from "./stateHash.ts";
import {
  CROSS_ENTROPY_WGSL,
  EVALUATE_WGSL,
  FORWARD_WGSL,
  GATHER_WGSL,
  groupsFor,
  INPUT_GRAD_WGSL,
  SGD_WGSL,
  TrainPipelines,
  WEIGHT_GRAD_WGSL,
} from "./trainKernels.ts";

interface Dispatch {
  pipeline: GPUComputePipeline;
  bind: GPUBindGroup;
  groups: number;
}

// The usage flags are read at call time: GPUBufferUsage does not exist where there is no WebGPU
// (Node, where the stores that import this module are unit-tested).
function buffer(
  device: GPUDevice,
  floats: number,
  label: string,
  usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
): GPUBuffer {
  return device.createBuffer({ size: Math.max(16, Math.ceil((floats * 4) / 16) * 16), usage, label });
}

function bindGroup(device: GPUDevice, pipeline: GPUComputePipeline, bufs: GPUBuffer[]): GPUBindGroup {
  return device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: bufs.map((b, i) => ({ binding: i, resource: { buffer: b } })),
  });
}

function encode(enc: GPUCommandEncoder, ds: readonly Dispatch[]): void {
  const pass = enc.beginComputePass();
  for (const d of ds) {
    pass.setPipeline(d.pipeline);
    pass.setBindGroup(0, d.bind);
    pass.dispatchWorkgroups(d.groups);
  }
  pass.end();
}

/** The forward pass (and, for training, the backward) of one batch shape, as dispatches. */
function passDispatches(
  pipes: TrainPipelines,
  layout: Layout,
  b: number,
  points: number,
  io: {
    X: GPUBuffer;
    Y: GPUBuffer;
    uniform: GPUBuffer;
    p: GPUBuffer;
    acts: GPUBuffer[];
    deltas: GPUBuffer[];
  },
  tail:
    | { kind: "train"; losses: GPUBuffer; grad: GPUBuffer }
    | { kind: "eval"; losses: GPUBuffer; hits: GPUBuffer },
): Dispatch[] {
  const d = pipes.device;
  const ds: Dispatch[] = [];
  const gather = pipes.get(GATHER_WGSL, { B: b, NPTS: points });
  ds.push({
    pipeline: gather,
    bind: bindGroup(d, gather, [io.X, io.acts[0] as GPUBuffer, io.uniform]),
    groups: groupsFor(b * INPUTS),
  });
  layout.layers.forEach((L, l) => {
    const f = pipes.get(FORWARD_WGSL, {
      B: b,
      FIN: L.fanIn,
      FOUT: L.fanOut,
      WOFF: L.w,
      BOFF: L.b,
      RELU: L.relu ? 1 : 0,
    });
    ds.push({
      pipeline: f,
      bind: bindGroup(d, f, [io.acts[l] as GPUBuffer, io.p, io.acts[l + 1] as GPUBuffer]),
      groups: groupsFor(b * L.fanOut),
    });
  });
  const top = layout.layers.length;
  const logits = io.acts[top] as GPUBuffer;
  if (tail.kind === "eval") {
    const e = pipes.get(EVALUATE_WGSL, { B: b, NPTS: points });
    ds.push({
      pipeline: e,
      bind: bindGroup(d, e, [logits, io.Y, tail.hits, tail.losses, io.uniform]),
      groups: groupsFor(b),
    });
    return ds;
  }
  const ce = pipes.get(CROSS_ENTROPY_WGSL, { B: b, NPTS: points });
  ds.push({
    pipeline: ce,
    bind: bindGroup(d, ce, [logits, io.Y, io.deltas[top] as GPUBuffer, tail.losses, io.uniform]),
    groups: groupsFor(b),
  });
  for (let l = top - 1; l >= 0; l--) {
    const L = layout.layers[l];
    if (!L) continue;
    const wg = pipes.get(WEIGHT_GRAD_WGSL, { B: b, FIN: L.fanIn, FOUT: L.fanOut, WOFF: L.w, BOFF: L.b });
    const a = io.acts[l] as GPUBuffer;
    const dz = io.deltas[l + 1] as GPUBuffer;
    ds.push({
      pipeline: wg,
      bind: bindGroup(d, wg, [a, dz, tail.grad]),
      groups: groupsFor(L.fanIn * L.fanOut + L.fanOut),
    });
    if (l === 0) break;
    const ig = pipes.get(INPUT_GRAD_WGSL, { B: b, FIN: L.fanIn, FOUT: L.fanOut, WOFF: L.w });
    ds.push({
      pipeline: ig,
      bind: bindGroup(d, ig, [a, dz, io.p, io.deltas[l] as GPUBuffer]),
      groups: groupsFor(b * L.fanIn),
    });
  }
  return ds;
}

/** What every run's replicas on one GPUDevice share: the data, the kernels, evaluation scratch. */
export class TrainDevice {
  readonly pipes: TrainPipelines;
  readonly trainX: GPUBuffer;
  readonly trainY: GPUBuffer;
  readonly testX: GPUBuffer;
  readonly testY: GPUBuffer;
  readonly zeroUniform: GPUBuffer;
  private evalScratch: { acts: GPUBuffer[]; losses: GPUBuffer; hits: GPUBuffer; staging: GPUBuffer } | null =
    null;

  constructor(
    readonly device: GPUDevice,
    readonly layout: Layout,
    data: DataSet,
  ) {
    this.pipes = new TrainPipelines(device);
    const upload = (a: Float32Array | Uint32Array, label: string) => {
      const b = buffer(device, a.length, label);
      device.queue.writeBuffer(b, 0, a);
      return b;
    };
    this.trainX = upload(data.train.x, "train x");
    this.trainY = upload(data.train.y, "train y");
    this.testX = upload(data.test.x, "test x");
    this.testY = upload(data.test.y, "test y");
    this.zeroUniform = buffer(device, 4, "zero params", GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
  }

  destroy(): void {
    for (const b of [this.trainX, this.trainY, this.testX, this.testY, this.zeroUniform]) b.destroy();
    const s = this.evalScratch;
    if (s) for (const b of [...s.acts, s.losses, s.hits, s.staging]) b.destroy();
  }

  /** Held-out loss and accuracy of the weights in `p`. */
  async evaluate(p: GPUBuffer): Promise<Evaluation> {
    const d = this.device;
    const widths = [INPUTS, ...this.layout.layers.map((L) => L.fanOut)];
    this.evalScratch ??= {
      acts: widths.map((w, i) => buffer(d, TEST_POINTS * w, `eval act ${i}`)),
      losses: buffer(d, TEST_POINTS, "eval losses"),
      hits: buffer(d, TEST_POINTS, "eval hits"),
      staging: buffer(d, 2 * TEST_POINTS, "eval staging", GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST),
    };
    const s = this.evalScratch;
    const ds = passDispatches(
      this.pipes,
      this.layout,
      TEST_POINTS,
      TEST_POINTS,
      { X: this.testX, Y: this.testY, uniform: this.zeroUniform, p, acts: s.acts, deltas: [] },
      { kind: "eval", losses: s.losses, hits: s.hits },
    );
    const enc = d.createCommandEncoder();
    encode(enc, ds);
    enc.copyBufferToBuffer(s.losses, 0, s.staging, 0, TEST_POINTS * 4);
    enc.copyBufferToBuffer(s.hits, 0, s.staging, TEST_POINTS * 4, TEST_POINTS * 4);
    d.queue.submit([enc.finish()]);
    await s.staging.mapAsync(GPUMapMode.READ);
    const a = new Float32Array(s.staging.getMappedRange().slice(0));
    s.staging.unmap();
    let loss = 0;
    let hits = 0;
    for (let k = 0; k < TEST_POINTS; k++) {
      loss += a[k] as number;
      hits += a[TEST_POINTS + k] as number;
    }
    return { loss: loss / TEST_POINTS, accuracy: hits / TEST_POINTS };
  }
}

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
