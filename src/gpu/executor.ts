/**
 * What every way of running a schedule offers: one GPUDevice for all simulated devices, one each,
 * or typed arrays on the CPU. The lab, the bench and the fault demo only talk to this.
 */
import type { Mode } from "./mode.ts";
import type { Schedule } from "./schedule.ts";

export type { Mode };
export type Timer = "gpu-timestamp" | "wall-clock";

export interface Timing {
  seconds: number;
  timer: Timer;
  submits: number;
}

export interface PreparedRun {
  /** The whole collective, in as few submits as the mode and the watchdog allow. */
  run(): Promise<Timing>;
  /**
   * One step alone (the animated demo). Work that touches a dead device never happens, so the
   * promise never settles: the control plane has to notice by timing out, as a real one does.
   */
  runStep(index: number): Promise<void>;
}

export interface Executor {
  readonly mode: Mode;
  readonly devices: number;
  readonly count: number;
  writeInput(rank: number, data: Float32Array): void;
  /** Fill the given devices' outputs with NaN, so an element nobody wrote fails the check. */
  poison(ranks: readonly number[]): void;
  prepare(schedule: Schedule): PreparedRun;
  readOutput(rank: number): Promise<Float32Array>;
  /** A heartbeat: settles when the device answers; a dead device never does. */
  probe(rank: number): Promise<void>;
  /** The fault: the device stops answering (and, with its own GPUDevice, is destroyed). */
  kill(rank: number): void;
  isDead(rank: number): boolean;
  destroy(): void;
}

export const never = <T>(): Promise<T> => new Promise<T>(() => {});

/** Whether an operation needs a device that is dead (then it cannot run). */
export function touchesDead(
  op: { dst: number; kind: string; sources?: { rank: number }[] },
  dead: ReadonlySet<number>,
): boolean {
  return dead.has(op.dst) || (op.sources ?? []).some((s) => dead.has(s.rank));
}
