/** A GPU executor whose buffers other kernels may use (kept apart: executor.ts stays DOM-free for src/link). */
import type { Executor } from "./executor.ts";
/** Where a GPU executor keeps a device's buffers, for work that runs beside the collective. */
export interface Resident {
  device: GPUDevice;
  /** The collective's input: what a rank contributes. */
  in: GPUBuffer;
  /** The collective's result. */
  out: GPUBuffer;
}

/** A GPU executor whose buffers other kernels may read and write (the live training does). */
export interface GpuExecutor extends Executor {
  resident(rank: number): Resident;
}
