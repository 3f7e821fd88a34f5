/**
 * FTAR's split, acted out: the GPU moves and reduces the data; this CPU control plane decides who
 * is in the ring. It runs a ring all-reduce (AVG) one step at a time and waits for each step with
 * a timeout. A killed device's work never happens, so some step never completes; the control plane
 * notices the timeout, asks every device for a heartbeat, drops the ones that stay silent,
 * re-forms the ring over the survivors and runs the collective again from their inputs, which no
 * collective ever overwrites. The result is checked against the survivors' float64 average.
 */
import { buildSchedule } from "./collectives.ts";
import { type Executor, never } from "./executor.ts";
import { verify } from "./reference.ts";
import { readOutputs } from "./runCase.ts";
import { hopsOf, type StepPhase } from "./schedule.ts";
import { yieldToMessages } from "./yieldToMessages.ts";

export interface Hop {
  from: number;
  to: number;
  chunk?: number;
}

export type FtarEvent =
  | { type: "ring"; attempt: number; ring: number[]; steps: number }
  | { type: "step"; attempt: number; step: number; phase: StepPhase; hops: Hop[] }
  | { type: "step-done"; attempt: number; step: number; ms: number }
  | { type: "killed"; rank: number; attempt: number; step: number; atMs: number }
  | { type: "timeout"; attempt: number; step: number; waitedMs: number }
  | { type: "dropped"; ranks: number[] }
  | { type: "verified"; ok: boolean; maxAbsError: number };

export interface FtarOptions {
  /** Kill this device just before this step of the first attempt (null: only the button kills). */
  scheduledKill: { rank: number; step: number } | null;
  /** How long the control plane waits for a step before it suspects a failure. */
  stepTimeoutMs: number;
  /** How long a heartbeat may take before its device is declared dead. */
  probeTimeoutMs: number;
  /** A pause after each step so a person can follow the ring (0 = full speed). */
  stepDelayMs: number;
  onEvent: (e: FtarEvent) => void;
  /**
   * Asked before each step: a kill requested from the UI since the last step. The loop yields to
   * the worker's messages before asking, so a kill sent during a full-speed ring is seen.
   */
  pendingKill: () => number | null;
  cancelled: () => boolean;
}

export interface FtarResult {
  ringBefore: number[];
  ringAfter: number[];
  dropped: number[];
  verified: boolean;
  maxAbsError: number;
  attempts: number;
  /** From the kill to the timeout that exposed it. */
  detectMs: number | null;
  /** From the kill to the survivors' verified result, less the slow-motion pauses. */
  recoverMs: number | null;
  /** The whole demo, first step to verified result. */
  totalMs: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | "timeout"> {
  return Promise.race([p, sleep(ms).then(() => "timeout" as const)]);
}

export class Cancelled extends Error {
  constructor() {
    super("cancelled");
  }
}

export async function runFtar(exec: Executor, inputs: Float32Array[], o: FtarOptions): Promise<FtarResult> {
  const t0 = performance.now();
  const ringBefore = Array.from({ length: exec.devices }, (_, i) => i);
  let ring = ringBefore;
  const dropped: number[] = [];
  let killedAt: number | null = null;
  // Slow-motion pauses after the kill: shown to the eye, not part of the recovery.
  let pausedAfterKill = 0;
  let detectedAt: number | null = null;
  const kill = (rank: number, attempt: number, step: number) => {
    if (exec.isDead(rank) || !ring.includes(rank)) return;
    exec.kill(rank);
    killedAt ??= performance.now();
    o.onEvent({ type: "killed", rank, attempt, step, atMs: killedAt - t0 });
  };

  for (let attempt = 0; ; attempt++) {
    if (ring.length < 2) throw new Error("fewer than two devices survive: nothing left to all-reduce");
    const schedule = buildSchedule("ring", ring, exec.count, "avg");
    const prepared = exec.prepare(schedule);
    exec.poison(ring);
    o.onEvent({ type: "ring", attempt, ring: [...ring], steps: schedule.steps.length });
    let failed = false;
    for (let s = 0; s < schedule.steps.length; s++) {
      // A step may settle without a task turn (the CPU's always do): let a Kill or Cancel land.
      await yieldToMessages();
      if (o.cancelled()) throw new Cancelled();
      const planned = o.scheduledKill;
      if (attempt === 0 && planned && planned.step === s) kill(planned.rank, attempt, s);
      const asked = o.pendingKill();
      if (asked !== null) kill(asked, attempt, s);
      const step = schedule.steps[s];
      if (!step) break;
      o.onEvent({ type: "step", attempt, step: s, phase: step.phase, hops: step.ops.flatMap(hopsOf) });
      const started = performance.now();
      // A dead device's destroyed GPUDevice may reject instead of hang: to the control plane both
      // are a step that does not complete.
      const done = prepared.runStep(s).catch(() => never<void>());
      if ((await withTimeout(done, o.stepTimeoutMs)) === "timeout") {
        detectedAt ??= performance.now();
        o.onEvent({ type: "timeout", attempt, step: s, waitedMs: performance.now() - started });
        failed = true;
        break;
      }
      o.onEvent({ type: "step-done", attempt, step: s, ms: performance.now() - started });
      if (o.stepDelayMs > 0) {
        await sleep(o.stepDelayMs);
        if (killedAt !== null) pausedAfterKill += o.stepDelayMs;
      }
    }
    if (!failed) {
      const outputs = await readOutputs(exec, ring);
      const v = verify(schedule, inputs, outputs);
      const end = performance.now();
      o.onEvent({ type: "verified", ok: v.ok, maxAbsError: v.maxAbsError });
      return {
        ringBefore,
        ringAfter: [...ring],
        dropped,
        verified: v.ok,
        maxAbsError: v.maxAbsError,
        attempts: attempt + 1,
        detectMs: killedAt !== null && detectedAt !== null ? detectedAt - killedAt : null,
        recoverMs: killedAt !== null ? end - killedAt - pausedAfterKill : null,
        totalMs: end - t0,
      };
    }
    // Heartbeats: whoever does not answer in time is out.
    const answers = await Promise.all(ring.map((r) => withTimeout(exec.probe(r), o.probeTimeoutMs)));
    const silent = ring.filter((_, i) => answers[i] === "timeout");
    if (silent.length === 0)
      throw new Error("a step timed out but every device answers: raise the step timeout");
    dropped.push(...silent);
    ring = ring.filter((r) => !silent.includes(r));
    o.onEvent({ type: "dropped", ranks: silent });
  }
}
