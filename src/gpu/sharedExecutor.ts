/**
 * Shared mode: one GPUDevice holds every simulated device's buffers, as GPUs on one NVLink switch
 * see each other's memory. A whole collective is one compute pass per submit, and steps share a
 * submit until its work would approach the watchdog (a submit must stay well under a second).
 */
import { type Dispatch, dispatchesFor, encodeDispatches } from "./dispatches.ts";
import { never, type PreparedRun, type Timing, touchesDead } from "./executor.ts";
import { createDeviceBuffers, type DeviceBuffers, nanArray, readBack } from "./gpuBuffers.ts";
import type { GpuExecutor } from "./gpuExecutor.ts";
import type { Pipelines } from "./pipelines.ts";
import type { Schedule } from "./schedule.ts";

export interface SubmitBudget {
  /** Bytes of traffic one submit may carry. */
  bytes: number;
}

/** Groups consecutive items into batches whose bytes stay under the budget (one item may exceed it). */
export function batchByBytes<T extends { bytes: number }>(items: readonly T[], budget: number): T[][] {
  const batches: T[][] = [];
  let cur: T[] = [];
  let sum = 0;
  for (const it of items) {
    if (cur.length > 0 && sum + it.bytes > budget) {
      batches.push(cur);
      cur = [];
      sum = 0;
    }
    cur.push(it);
    sum += it.bytes;
  }
  if (cur.length > 0) batches.push(cur);
  return batches;
}

export class SharedExecutor implements GpuExecutor {
  readonly mode = "shared" as const;
  private readonly bufs: DeviceBuffers[];
  private readonly device: GPUDevice;
  private readonly dead = new Set<number>();

  constructor(
    private readonly pipes: Pipelines,
    readonly devices: number,
    readonly count: number,
    readonly timestamps: boolean,
    readonly budget: SubmitBudget,
  ) {
    const device = pipes.device;
    this.device = device;
    this.bufs = Array.from({ length: devices }, (_, r) => createDeviceBuffers(device, count, r));
  }

  private buf(rank: number): DeviceBuffers {
    const b = this.bufs[rank];
    if (!b) throw new RangeError(`no device ${rank}`);
    return b;
  }

  writeInput(rank: number, data: Float32Array): void {
    this.device.queue.writeBuffer(this.buf(rank).in, 0, data);
  }

  poison(ranks: readonly number[]): void {
    const nan = nanArray(this.count);
    for (const r of ranks) this.device.queue.writeBuffer(this.buf(r).out, 0, nan);
  }

  prepare(schedule: Schedule): PreparedRun {
    const steps: Dispatch[][] = schedule.steps.map((step) =>
      step.ops.flatMap((op) =>
        dispatchesFor(this.pipes, op, this.buf(op.dst).out, (ref) => this.buf(ref.rank)[ref.buf]),
      ),
    );
    const batches = batchByBytes(steps.flat(), this.budget.bytes);
    return {
      run: () => this.runBatches(batches),
      runStep: async (index) => {
        const step = schedule.steps[index];
        if (!step) throw new RangeError(`no step ${index}`);
        const live = step.ops.filter((op) => !touchesDead(op, this.dead));
        const ds = live.flatMap((op) =>
          dispatchesFor(this.pipes, op, this.buf(op.dst).out, (ref) => this.buf(ref.rank)[ref.buf]),
        );
        const enc = this.device.createCommandEncoder();
        const pass = enc.beginComputePass();
        encodeDispatches(pass, ds);
        pass.end();
        this.device.queue.submit([enc.finish()]);
        await this.device.queue.onSubmittedWorkDone();
        if (live.length < step.ops.length) await never();
      },
    };
  }

  private async runBatches(batches: Dispatch[][]): Promise<Timing> {
    const q = this.timestamps
      ? this.device.createQuerySet({ type: "timestamp", count: 2 * batches.length })
      : null;
    const resolve = q
      ? this.device.createBuffer({
          size: 16 * batches.length,
          usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
        })
      : null;
    const read = q
      ? this.device.createBuffer({
          size: 16 * batches.length,
          usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
        })
      : null;
    const cmds = batches.map((batch, i) => {
      const enc = this.device.createCommandEncoder();
      const pass = enc.beginComputePass(
        q
          ? {
              timestampWrites: {
                querySet: q,
                beginningOfPassWriteIndex: 2 * i,
                endOfPassWriteIndex: 2 * i + 1,
              },
            }
          : {},
      );
      encodeDispatches(pass, batch);
      pass.end();
      if (q && resolve && read && i === batches.length - 1) {
        enc.resolveQuerySet(q, 0, 2 * batches.length, resolve, 0);
        enc.copyBufferToBuffer(resolve, 0, read, 0, 16 * batches.length);
      }
      return enc.finish();
    });
    const t0 = performance.now();
    for (const c of cmds) this.device.queue.submit([c]);
    await this.device.queue.onSubmittedWorkDone();
    const wall = (performance.now() - t0) / 1000;
    if (!q || !read || !resolve) return { seconds: wall, timer: "wall-clock", submits: batches.length };
    try {
      await read.mapAsync(GPUMapMode.READ);
      const ts = new BigUint64Array(read.getMappedRange().slice(0));
      const first = ts[0] ?? 0n;
      const last = ts[2 * batches.length - 1] ?? 0n;
      const ns = Number(last - first);
      // A zero or backwards span means the adapter's timestamps are not usable: say so, use the clock.
      if (!(ns > 0)) return { seconds: wall, timer: "wall-clock", submits: batches.length };
      return { seconds: ns / 1e9, timer: "gpu-timestamp", submits: batches.length };
    } finally {
      q.destroy();
      resolve.destroy();
      read.destroy();
    }
  }

  resident(rank: number) {
    const b = this.buf(rank);
    return { device: this.device, in: b.in, out: b.out };
  }

  readOutput(rank: number): Promise<Float32Array> {
    return readBack(this.device, this.buf(rank).out, 0, this.count);
  }

  async probe(rank: number): Promise<void> {
    if (this.dead.has(rank)) return never();
    await this.device.queue.onSubmittedWorkDone();
  }

  kill(rank: number): void {
    this.dead.add(rank);
  }

  isDead(rank: number): boolean {
    return this.dead.has(rank);
  }

  destroy(): void {
    for (const b of this.bufs) {
      b.in.destroy();
      b.out.destroy();
    }
  }
}
