/**
 * What the lab's worker is asked and answers (src/worker/gpu.worker.ts serves src/lab/lab.ts):
 * the requests of a bench, a fault demo and a training run, their reports and progress, and which
 * algorithms each mode can run (the run form offers those).
 */

import type { AdapterReport } from "../gpu/adapter.ts";
import type { Ceilings } from "../gpu/ceilings.ts";
import type { Mode } from "../gpu/executor.ts";
import type { FtarResult } from "../gpu/ftar.ts";
import type { CaseProgress, CaseResult } from "../gpu/runCase.ts";
import type { Algorithm } from "../gpu/schedule.ts";
import type { RecoveryCosts } from "../train/clock.ts";
import type { TrainConfig } from "../train/config.ts";

export const MiB = 1024 * 1024;

export interface BenchPlan {
  modes: Mode[];
  devices: number[];
  sizes: number[];
  algorithms: Partial<Record<Mode, Algorithm[]>>;
  /** Largest bytes per device, per mode (software adapters and the CPU get less). */
  maxBytes: Partial<Record<Mode, number>>;
}

export interface BenchReport {
  adapter: AdapterReport;
  ceilings: Partial<Record<Mode, Ceilings>>;
  rows: CaseResult[];
}

export interface FaultRequest {
  mode: Mode;
  devices: number;
  bytesPerDevice: number;
  scheduledKill: { rank: number; step: number } | null;
  stepDelayMs: number;
}

export interface TrainRequest {
  config: TrainConfig;
  mode: Mode;
  costs: RecoveryCosts;
}

export interface FaultReport extends FtarResult {
  stepTimeoutMs: number;
  /** A Kill that arrived during the last step or later: the ring had finished, nobody was killed. */
  lateKill: number | null;
}

/** What a Kill press met: a run that takes it at its next step, or one that had already finished. */
export type KillAnswer = "queued" | "finished";

/** A run or sweep's progress: the case it is at (1-based) of how many, and that case's own. */
export interface LabProgress extends CaseProgress {
  caseIndex: number;
  cases: number;
}

/** Algorithms each mode can run: one-shot needs every device's memory in one GPUDevice. */
export function algorithmsFor(mode: Mode): Algorithm[] {
  return mode === "separate"
    ? ["ring", "halving-doubling", "reduce-scatter", "all-gather"]
    : ["ring", "halving-doubling", "one-shot", "reduce-scatter", "all-gather"];
}
