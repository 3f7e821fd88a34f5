/** The CPU fallback behind the same Executor interface: typed arrays, wall-clock timing. */
import { type CpuBuffers, runOpCpu, runScheduleCpu } from "./cpuExecutor.ts";
import { type Executor, never, type PreparedRun, touchesDead } from "./executor.ts";
import type { Schedule } from "./schedule.ts";

export class CpuExecutor implements Executor {
  readonly mode = "cpu" as const;
  private readonly bufs: CpuBuffers;
  private readonly dead = new Set<number>();

  constructor(
    readonly devices: number,
    readonly count: number,
  ) {
    this.bufs = {
      in: Array.from({ length: devices }, () => new Float32Array(count)),
      out: Array.from({ length: devices }, () => new Float32Array(count)),
    };
  }

  writeInput(rank: number, data: Float32Array): void {
    this.bufs.in[rank]?.set(data);
  }

  poison(ranks: readonly number[]): void {
    for (const r of ranks) this.bufs.out[r]?.fill(Number.NaN);
  }

  prepare(schedule: Schedule): PreparedRun {
    return {
      run: async () => {
        const t0 = performance.now();
        runScheduleCpu(schedule, this.bufs);
        return { seconds: (performance.now() - t0) / 1000, timer: "wall-clock", submits: 0 };
      },
      runStep: async (index) => {
        const step = schedule.steps[index];
        if (!step) throw new RangeError(`no step ${index}`);
        const live = step.ops.filter((op) => !touchesDead(op, this.dead));
        for (const op of live) runOpCpu(op, this.bufs);
        if (live.length < step.ops.length) await never();
      },
    };
  }

  async readOutput(rank: number): Promise<Float32Array> {
    const a = this.bufs.out[rank];
    if (!a) throw new RangeError(`no device ${rank}`);
    return a.slice();
  }

  async probe(rank: number): Promise<void> {
    if (this.dead.has(rank)) return never();
  }

  kill(rank: number): void {
    this.dead.add(rank);
  }

  isDead(rank: number): boolean {
    return this.dead.has(rank);
  }

  destroy(): void {}
}
