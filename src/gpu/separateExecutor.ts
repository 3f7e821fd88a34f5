/**
 * Separate mode: one GPUDevice per simulated device, as GPUs in different hosts. Buffers cannot
 * cross devices, so every hop goes through the host: copy the chunk to a mappable buffer on the
 * sender, map it, write it into the receiver's `recv` buffer (or straight into its output, for a
 * copy), then reduce on the receiver. One submit per device per step; the wall clock is the timer,
 * since the host hops are part of the collective.
 */
import { dispatchesFor, encodeDispatches } from "./dispatches.ts";
import { never, type PreparedRun, type Timing, touchesDead } from "./executor.ts";
import { createDeviceBuffers, type DeviceBuffers, nanArray, readBack } from "./gpuBuffers.ts";
import type { GpuExecutor } from "./gpuExecutor.ts";
import { bindingBytes, paddedBytes } from "./kernels.ts";
import { Pipelines } from "./pipelines.ts";
import type { BufRef, Op, Schedule, SumOp } from "./schedule.ts";

interface SimDevice {
  device: GPUDevice;
  pipes: Pipelines;
  bufs: DeviceBuffers;
  /** Where remote chunks land before a reduce reads them. */
  recv: GPUBuffer;
  /** Mappable buffers for outgoing chunks, reused step to step. */
  staging: GPUBuffer[];
}

interface Hop {
  op: SumOp;
  source: BufRef;
}

export class SeparateExecutor implements GpuExecutor {
  readonly mode = "separate" as const;
  private readonly sims: SimDevice[];
  private readonly dead = new Set<number>();

  constructor(
    gpus: readonly GPUDevice[],
    readonly count: number,
    software: boolean,
    /** Told before this executor destroys a device on purpose, so its loss is not reported. */
    private readonly retire: (device: GPUDevice) => void = () => {},
  ) {
    this.sims = gpus.map((device, r) => ({
      device,
      pipes: new Pipelines(device, software),
      bufs: createDeviceBuffers(device, count, r),
      recv: device.createBuffer({
        size: paddedBytes(count),
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
        label: `device ${r} recv`,
      }),
      staging: [],
    }));
  }

  get devices(): number {
    return this.sims.length;
  }

  private sim(rank: number): SimDevice {
    const s = this.sims[rank];
    if (!s) throw new RangeError(`no device ${rank}`);
    return s;
  }

  writeInput(rank: number, data: Float32Array): void {
    const s = this.sim(rank);
    s.device.queue.writeBuffer(s.bufs.in, 0, data);
  }

  poison(ranks: readonly number[]): void {
    const nan = nanArray(this.count);
    for (const r of ranks) {
      const s = this.sim(r);
      s.device.queue.writeBuffer(s.bufs.out, 0, nan);
    }
  }

  private stagingFor(rank: number, index: number, bytes: number): GPUBuffer {
    const s = this.sim(rank);
    let b = s.staging[index];
    if (!b || b.size < bytes) {
      b?.destroy();
      b = s.device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      s.staging[index] = b;
    }
    return b;
  }

  /** Host hop for every remote source in `ops`: sender → mapped staging → receiver. */
  private async moveChunks(ops: readonly Op[]): Promise<void> {
    const hops: Hop[] = [];
    for (const op of ops) {
      if (op.kind !== "sum") continue;
      const remote = op.sources.filter((s) => s.rank !== op.dst);
      if (remote.length > 1) throw new RangeError("separate mode stages one remote chunk per operation");
      const source = remote[0];
      if (source) hops.push({ op, source });
    }
    const perSender = new Map<number, Hop[]>();
    for (const h of hops) perSender.set(h.source.rank, [...(perSender.get(h.source.rank) ?? []), h]);
    const staged: { hop: Hop; buffer: GPUBuffer; bytes: number }[] = [];
    for (const [rank, list] of perSender) {
      const s = this.sim(rank);
      const enc = s.device.createCommandEncoder();
      list.forEach((hop, i) => {
        const bytes = bindingBytes(hop.op.range.length);
        const buffer = this.stagingFor(rank, i, bytes);
        enc.copyBufferToBuffer(s.bufs[hop.source.buf], hop.op.range.offset * 4, buffer, 0, bytes);
        staged.push({ hop, buffer, bytes });
      });
      s.device.queue.submit([enc.finish()]);
    }
    await Promise.all(staged.map((x) => x.buffer.mapAsync(GPUMapMode.READ, 0, x.bytes)));
    for (const { hop, buffer, bytes } of staged) {
      const dst = this.sim(hop.op.dst);
      // A copy lands in the output directly; a reduce input waits in recv for the kernel.
      const target = hop.op.sources.length === 1 ? dst.bufs.out : dst.recv;
      dst.device.queue.writeBuffer(target, hop.op.range.offset * 4, buffer.getMappedRange(0, bytes));
      buffer.unmap();
    }
  }

  private reduceLocally(ops: readonly Op[]): void {
    const perDevice = new Map<number, Op[]>();
    for (const op of ops) {
      if (op.kind === "sum" && op.sources.length === 1 && op.sources[0]?.rank !== op.dst) continue;
      perDevice.set(op.dst, [...(perDevice.get(op.dst) ?? []), op]);
    }
    for (const [rank, list] of perDevice) {
      const s = this.sim(rank);
      const local = (ref: BufRef) => (ref.rank === rank ? s.bufs[ref.buf] : s.recv);
      const ds = list.flatMap((op) => dispatchesFor(s.pipes, op, s.bufs.out, local));
      const enc = s.device.createCommandEncoder();
      const pass = enc.beginComputePass();
      encodeDispatches(pass, ds);
      pass.end();
      s.device.queue.submit([enc.finish()]);
    }
  }

  private async runOps(ops: readonly Op[]): Promise<void> {
    await this.moveChunks(ops);
    this.reduceLocally(ops);
  }

  private async settle(ranks: Iterable<number>): Promise<void> {
    await Promise.all([...ranks].map((r) => this.sim(r).device.queue.onSubmittedWorkDone()));
  }

  prepare(schedule: Schedule): PreparedRun {
    return {
      run: async (): Promise<Timing> => {
        const t0 = performance.now();
        for (const step of schedule.steps) await this.runOps(step.ops);
        await this.settle(schedule.ranks);
        const seconds = (performance.now() - t0) / 1000;
        return { seconds, timer: "wall-clock", submits: schedule.steps.length * schedule.ranks.length };
      },
      runStep: async (index) => {
        const step = schedule.steps[index];
        if (!step) throw new RangeError(`no step ${index}`);
        const live = step.ops.filter((op) => !touchesDead(op, this.dead));
        await this.runOps(live);
        await this.settle(schedule.ranks.filter((r) => !this.dead.has(r)));
        if (live.length < step.ops.length) await never();
      },
    };
  }

  resident(rank: number) {
    const s = this.sim(rank);
    return { device: s.device, in: s.bufs.in, out: s.bufs.out };
  }

  readOutput(rank: number): Promise<Float32Array> {
    const s = this.sim(rank);
    return readBack(s.device, s.bufs.out, 0, this.count);
  }

  async probe(rank: number): Promise<void> {
    if (this.dead.has(rank)) return never();
    await this.sim(rank).device.queue.onSubmittedWorkDone();
  }

  kill(rank: number): void {
    this.dead.add(rank);
    // Its memory is really gone: the survivors must finish without it.
    const { device } = this.sim(rank);
    this.retire(device);
    device.destroy();
  }

  isDead(rank: number): boolean {
    return this.dead.has(rank);
  }

  destroy(): void {
    for (const s of this.sims) {
      this.retire(s.device);
      s.device.destroy();
    }
  }
}
