/**
 * One measured, verified collective: fresh random inputs, outputs poisoned, a warm-up, timed
 * repetitions (median), read back, compared with the float64 reference; then nccl-tests' figures
 * and the efficiency against the streaming ceiling measured in the same session.
 */
import type { Ceilings } from "./ceilings.ts";
import { bandwidth, buildSchedule } from "./collectives.ts";
import type { Executor, Mode, PreparedRun, Timer, Timing } from "./executor.ts";
import { fillRandom, freshSeed, verify } from "./reference.ts";
import { type Algorithm, type ReduceOp, trafficBytes } from "./schedule.ts";

export interface CaseRequest {
  mode: Mode;
  algorithm: Algorithm;
  devices: number;
  bytesPerDevice: number;
  op?: ReduceOp;
}

export interface CaseResult {
  mode: Mode;
  algorithm: Algorithm;
  devices: number;
  bytesPerDevice: number;
  /** Median of the timed repetitions. */
  seconds: number;
  /** nccl-tests' algbw and busbw, GB/s (10⁹ bytes/s). */
  algbw: number;
  busbw: number;
  /** Bytes the schedule reads + writes ÷ seconds ÷ the streaming-kernel ceiling. */
  efficiency: number;
  verified: boolean;
  maxAbsError: number;
  toleranceAtWorst: number;
  timer: Timer;
  reps: number;
  submits: number;
  trafficBytes: number;
}

/** Fresh inputs on every device; returns them for the reference. */
export function loadFreshInputs(exec: Executor): Float32Array[] {
  return Array.from({ length: exec.devices }, (_, r) => {
    const a = new Float32Array(exec.count);
    fillRandom(a, freshSeed());
    exec.writeInput(r, a);
    return a;
  });
}

export async function readOutputs(exec: Executor, ranks: readonly number[]): Promise<Float32Array[]> {
  const outs: Float32Array[] = [];
  for (const r of ranks) outs[r] = await exec.readOutput(r);
  return outs;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

/**
 * Repetitions: enough to reach ~`targetSeconds` of timed work, at least 3 (the median of three
 * shrugs off one disturbed run on a shared machine), at most `maxReps`.
 */
export function repsFor(warmupSeconds: number, targetSeconds = 0.3, maxReps = 9): number {
  if (!(warmupSeconds > 0)) return maxReps;
  return Math.max(3, Math.min(maxReps, Math.round(targetSeconds / warmupSeconds)));
}

/**
 * One run's time. A wall clock reads in steps of ~0.1 ms in a worker, so a run shorter than 10 ms
 * is timed as a batch of back-to-back runs, divided out.
 */
async function timeOnce(prepared: PreparedRun, warm: Timing): Promise<Timing> {
  if (warm.timer !== "wall-clock" || warm.seconds >= 0.01) return prepared.run();
  const batch = Math.min(1000, Math.ceil(0.02 / Math.max(warm.seconds, 1e-5)));
  const t0 = performance.now();
  let last = warm;
  for (let i = 0; i < batch; i++) last = await prepared.run();
  return { ...last, seconds: (performance.now() - t0) / 1000 / batch };
}

/** How far a case is: `done` of `total` runs (warm-up, timed repetitions, read-back); null while unknown. */
export interface CaseProgress {
  done: number;
  total: number | null;
  what: string;
}

/**
 * Told between the case's runs (outside any timed one). May throw to stop the case (a Cancel), and
 * may wait, so that messages to the worker land between runs.
 */
export type CaseProgressHook = (p: CaseProgress) => Promise<void> | void;

export async function runCase(
  exec: Executor,
  inputs: Float32Array[],
  req: CaseRequest,
  ceilings: Ceilings,
  progress: CaseProgressHook = () => {},
): Promise<CaseResult> {
  const ranks = Array.from({ length: req.devices }, (_, i) => i);
  const schedule = buildSchedule(req.algorithm, ranks, exec.count, req.op ?? "sum");
  const prepared = exec.prepare(schedule);
  await progress({ done: 0, total: null, what: "warm-up" });
  const warm = await prepared.run();
  exec.poison(ranks);
  const reps = repsFor(warm.seconds);
  // Warm-up, the repetitions, and the read-back with the check.
  const total = reps + 2;
  const times: number[] = [];
  let last = warm;
  for (let i = 0; i < reps; i++) {
    await progress({ done: 1 + i, total, what: `timed run ${i + 1} of ${reps}` });
    last = await timeOnce(prepared, warm);
    times.push(last.seconds);
  }
  await progress({ done: reps + 1, total, what: "reading back and verifying" });
  const outputs = await readOutputs(exec, ranks);
  const verdict = verify(schedule, inputs, outputs);
  const seconds = median(times);
  const { algbw, busbw } = bandwidth(schedule.collective, req.devices, req.bytesPerDevice, seconds);
  const traffic = trafficBytes(schedule);
  return {
    mode: req.mode,
    algorithm: req.algorithm,
    devices: req.devices,
    bytesPerDevice: req.bytesPerDevice,
    seconds,
    algbw: algbw / 1e9,
    busbw: busbw / 1e9,
    efficiency: traffic / seconds / (ceilings.streamingGBps * 1e9),
    verified: verdict.ok,
    maxAbsError: verdict.maxAbsError,
    toleranceAtWorst: verdict.toleranceAtWorst,
    timer: last.timer,
    reps,
    submits: last.submits,
    trafficBytes: traffic,
  };
}
