/**
 * A whole live comparison: the baseline without failures, FT-HSDP once per lr policy and
 * synchronous training with rollback, all on one failure schedule, stepped in lockstep so a Kill
 * lands on every run at the same step. Beside each run, the same run on the float64 reference.
 * It checks, while it runs, the three claims the view's badge makes (see TrainVerdict).
 */
import { yieldToMessages } from "../gpu/yieldToMessages.ts";
import type { TrainBackend } from "./backend.ts";
import type { RecoveryCosts } from "./clock.ts";
import { BATCH_PER_REPLICA, type TrainConfig } from "./config.ts";
import { type Failure, failureProblem, rolesAt } from "./plan.ts";
import { type RunSnapshot, type RunSpec, TrainRun } from "./run.ts";

/** float32's unit roundoff. */
const U = 2 ** -24;
/** The reference comparison of the loss covers the first this many steps. */
export const LOSS_STEPS = 50;
/** With no failures, the held-out loss must fall to this (chance is ln 5 ≈ 1.61) … */
export const TARGET_LOSS = 1.1;
/** … within this many steps. */
export const TARGET_STEPS = 150;

/**
 * A float32 rounding can leave a pre-activation within rounding distance of 0 on the other side of
 * its ReLU's kink than float64 does. That one point then adds to (or drops from) one unit's
 * gradient for a step, and momentum carries the change on: a jump far above the rounding drift.
 * Measured (float32 CPU trainer against the reference, h32–h128, R = 4, seeds 1–3, 100–200
 * steps): 4·10⁻³ of the largest weight once in about twenty runs; otherwise ≤ 3·10⁻⁶.
 * A wrong gradient average, lr or momentum moves the weights by tenths of the largest one.
 */
export const KINK_ALLOWANCE = 1e-2;

/**
 * Tolerances from float32 rounding. One step's every stored value is a sum of at most
 * hidden + batch products, each off by at most (hidden + batch)·u relative (Higham §3.1); while
 * training is stable such errors add up step after step rather than grow, so after n steps we allow
 * n·(hidden + batch)·u relative to the loss (first LOSS_STEPS steps), and that plus KINK_ALLOWANCE
 * relative to the largest weight at the end.
 */
export function tolerances(cfg: TrainConfig): { loss: number; weights: number } {
  const perStep = (cfg.hidden + BATCH_PER_REPLICA) * U;
  return { loss: Math.min(LOSS_STEPS, cfg.steps) * perStep, weights: cfg.steps * perStep + KINK_ALLOWANCE };
}

export interface TrainVerdict {
  identical: {
    ok: boolean;
    compared: number;
    mismatches: number;
    catchUps: number;
    catchUpsIdentical: number;
    rollbacks: number;
    rollbacksIdentical: number;
  };
  reference: {
    ok: boolean;
    /** Loss points compared so far (over all runs), and the worst relative error. */
    lossCompared: number;
    maxLossError: number;
    lossTolerance: number;
    /** Final weights: worst |gpu − ref| ÷ max |ref|, once the runs end (null before). */
    weightError: number | null;
    weightTolerance: number;
  };
  converges: { ok: boolean; target: number; withinSteps: number; reachedAt: number | null };
  /** All three hold and every run has finished. */
  verified: boolean;
}

export interface TrainProgress {
  runs: RunSnapshot[];
  failures: Failure[];
  verdict: TrainVerdict;
  /** Steps per second of the runs under test (not the reference), and the all-reduce's share of a step. */
  stepsPerSecond: number;
  allReduceShare: number;
  /** A Kill that could not be applied, and why. */
  notice: string | null;
  finished: boolean;
  stopped: boolean;
}

export interface TrainControl {
  /** A replica the Kill button asked to fail now, if any (read once). */
  pendingKill(): number | null;
  stopped(): boolean;
}

export function runSpecs(cfg: TrainConfig): RunSpec[] {
  return [
    { id: "baseline", kind: "baseline", policy: "none" },
    ...cfg.policies.map((policy): RunSpec => ({ id: `ft-${policy}`, kind: "ft", policy })),
    { id: "sync", kind: "sync", policy: "none" },
  ];
}

/** How long a replica killed by the button stays down: the schedule's first, or 20 steps. */
function killDown(cfg: TrainConfig): number {
  return cfg.failures[0]?.down ?? 20;
}

export async function runTraining(
  cfg: TrainConfig,
  costs: RecoveryCosts,
  makeBackend: (spec: RunSpec) => Promise<TrainBackend>,
  makeReference: (spec: RunSpec) => TrainBackend,
  onProgress: (p: TrainProgress) => void,
  control: TrainControl,
  progressEveryMs = 150,
): Promise<TrainProgress> {
  const failures: Failure[] = cfg.failures.map((f) => ({ ...f }));
  const specs = runSpecs(cfg);
  const runs: TrainRun[] = [];
  const refs: TrainRun[] = [];
  const tol = tolerances(cfg);
  for (const spec of specs) {
    runs.push(
      new TrainRun(spec, await makeBackend(spec), failures, cfg.steps, cfg.lr, cfg.checkpointEvery, costs),
    );
    refs.push(
      new TrainRun(spec, makeReference(spec), failures, cfg.steps, cfg.lr, cfg.checkpointEvery, costs),
    );
  }
  const compared = new Array<number>(runs.length).fill(0);
  const ref: TrainVerdict["reference"] = {
    ok: true,
    lossCompared: 0,
    maxLossError: 0,
    lossTolerance: tol.loss,
    weightError: null,
    weightTolerance: tol.weights,
  };
  let notice: string | null = null;
  let testMs = 0;
  let testSteps = 0;
  let stopped = false;

  const verdict = (): TrainVerdict => {
    const sum = (k: keyof TrainRun["checks"]) => runs.reduce((a, r) => a + r.checks[k], 0);
    const identical = {
      compared: sum("compared"),
      mismatches: sum("mismatches"),
      catchUps: sum("catchUps"),
      catchUpsIdentical: sum("catchUpsIdentical"),
      rollbacks: sum("rollbacks"),
      rollbacksIdentical: sum("rollbacksIdentical"),
      ok: false,
    };
    identical.ok =
      identical.compared > 0 &&
      identical.mismatches === 0 &&
      identical.catchUps === identical.catchUpsIdentical &&
      identical.rollbacks === identical.rollbacksIdentical;
    const base = runs[0]?.snapshot();
    const within = Math.min(TARGET_STEPS, cfg.steps);
    const reachedAt = base?.evals.find((e) => e.loss <= TARGET_LOSS)?.step ?? null;
    const converges = {
      ok: reachedAt !== null && reachedAt <= within,
      target: TARGET_LOSS,
      withinSteps: within,
      reachedAt,
    };
    const done = runs.every((r) => r.done);
    const reference = {
      ...ref,
      ok: ref.ok && ref.weightError !== null && ref.weightError <= ref.weightTolerance,
    };
    return {
      identical,
      reference,
      converges,
      verified: done && identical.ok && reference.ok && converges.ok,
    };
  };
  const report = (finished: boolean): TrainProgress => {
    const ms = runs.reduce((a, r) => a + r.totalMs, 0);
    const ar = runs.reduce((a, r) => a + r.allReduceMs, 0);
    return {
      runs: runs.map((r) => r.snapshot()),
      failures: failures.map((f) => ({ ...f })),
      verdict: verdict(),
      stepsPerSecond: testMs > 0 ? (testSteps * 1000) / testMs : 0,
      allReduceShare: ms > 0 ? ar / ms : 0,
      notice,
      finished,
      stopped,
    };
  };

  let lastReport = 0;
  try {
    while (!runs.every((r) => r.done)) {
      // The CPU trainer's steps never wait on anything: give the worker's event loop a turn so a
      // Stop, a Kill or the supervisor's ping (labClient.ts) is heard between steps.
      await yieldToMessages();
      if (control.stopped()) {
        stopped = true;
        break;
      }
      const asked = control.pendingKill();
      const at = runs[0]?.currentStep ?? 0;
      if (asked !== null) {
        const f = { replica: asked, step: Math.max(1, at), down: killDown(cfg) };
        const why =
          at >= cfg.steps
            ? "the FT-HSDP runs have finished"
            : failureProblem(failures, f, cfg.replicas, cfg.steps);
        notice = why ? `Kill of replica ${asked} not applied: ${why}` : null;
        if (!why) failures.push(f);
      }
      for (let i = 0; i < runs.length; i++) {
        const run = runs[i] as TrainRun;
        const refRun = refs[i] as TrainRun;
        if (run.done) continue;
        const t0 = performance.now();
        const before = run.snapshot().points.length;
        await run.tick();
        const after = run.snapshot().points.length;
        if (after > before) {
          testMs += performance.now() - t0;
          testSteps++;
        }
        await refRun.tick();
        // The i-th loss point of a run and of its reference come from the same step.
        const a = run.snapshot().points;
        const b = refRun.snapshot().points;
        for (let k = compared[i] as number; k < Math.min(a.length, b.length, LOSS_STEPS); k++) {
          const x = (a[k] as { loss: number }).loss;
          const y = (b[k] as { loss: number }).loss;
          const e = Math.abs(x - y) / Math.max(Math.abs(y), 1e-12);
          ref.maxLossError = Math.max(ref.maxLossError, Number.isFinite(e) ? e : Number.POSITIVE_INFINITY);
          ref.lossCompared++;
          compared[i] = k + 1;
        }
        if (ref.maxLossError > ref.lossTolerance) ref.ok = false;
      }
      const now = performance.now();
      if (now - lastReport >= progressEveryMs) {
        lastReport = now;
        onProgress(report(false));
      }
    }
    if (!stopped) {
      let worst = 0;
      for (let i = 0; i < runs.length; i++) {
        const run = runs[i] as TrainRun;
        const who =
          run.spec.kind === "sync"
            ? 0
            : (rolesAt(run.spec.kind === "baseline" ? [] : failures, cfg.replicas, cfg.steps - 1)
                .compute[0] ?? 0);
        const w = await run.backend.weights(who);
        const v = await (refs[i] as TrainRun).backend.weights(who);
        let diff = 0;
        let scale = 0;
        for (let k = 0; k < v.length; k++) {
          diff = Math.max(diff, Math.abs((w[k] as number) - (v[k] as number)));
          scale = Math.max(scale, Math.abs(v[k] as number));
        }
        const e = diff / scale;
        worst = Math.max(worst, Number.isFinite(e) ? e : Number.POSITIVE_INFINITY);
      }
      ref.weightError = worst;
    }
    const final = report(true);
    onProgress(final);
    return final;
  } finally {
    for (const r of [...runs, ...refs]) r.backend.destroy();
  }
}
