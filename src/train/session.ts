/**
 * A whole live comparison: the baseline without failures, FT-HSDP once per lr policy and
 * synchronous training with rollback, all on one failure schedule, stepped in lockstep so a Kill
 * lands on every run at the same step. Every step of a run under test is recomputed in float64
 * from the run's own state and checked against a float32 rounding bound (stepCheck.ts); beside
 * each run the same run trains in float64, and the two end states are compared. It checks, while
 * it runs, the claims the view's badge makes (see TrainVerdict).
 */
import { yieldToMessages } from "../gpu/yieldToMessages.ts";
import type { TrainBackend } from "./backend.ts";
import type { RecoveryCosts } from "./clock.ts";
import { MAX_FAILURES, type TrainConfig } from "./config.ts";
import { dilocoFailureProblem } from "./diloco.ts";
import type { DilocoBackend } from "./dilocoBackend.ts";
import { DilocoRun } from "./dilocoRun.ts";
import { type Failure, failureProblem } from "./plan.ts";
import {
  type LiveRun,
  type RunChecks,
  type RunSnapshot,
  type RunSpec,
  type StepVerification,
  TrainRun,
} from "./run.ts";
import { type MeasuredQ, measureQ } from "./stepEquivalence.ts";

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** A run as the chart's legend names it. */
export function runName(spec: RunSpec): string {
  if (spec.kind === "baseline") return "no failures";
  if (spec.kind === "sync") return "synchronous + rollback";
  if (spec.kind === "ddp") return "DDP (AdamW), no failures";
  if (spec.kind === "diloco-clean") return "DiLoCo, no failures";
  if (spec.kind === "diloco") return "DiLoCo";
  return `FT-HSDP, lr ${spec.policy}`;
}

/** With no failures, the held-out loss must fall to this (chance is ln 5 ≈ 1.61) … */
export const TARGET_LOSS = 1.1;
/** … within this many steps. */
export const TARGET_STEPS = 150;

/**
 * The end state is judged as a person judges training, by the held-out loss and accuracy of the
 * model each run ends with, against the same run trained in float64 from the same start. Rounding
 * makes the two trajectories drift apart (each step is checked exactly, stepCheck.ts, but
 * momentum SGD on ReLUs amplifies a difference), so this is a tolerance, not a bound: the loss
 * within END_LOSS_TOLERANCE and the accuracy within END_ACCURACY_TOLERANCE (16 of the 512
 * held-out points). What rounding alone does to an end state, measured: float64 runs on the
 * defaults (h64, lr 0.1, 200 steps, seeds 1–5, with and without the failure) from starting
 * weights each one float32 ulp apart end at most 0.0048 apart in loss and 1.4 % (7 points) in
 * accuracy; on the software adapter the defaults end 7·10⁻⁸ and 0 % from float64.
 */
export const END_LOSS_TOLERANCE = 0.05;
export const END_ACCURACY_TOLERANCE = 16 / 512;

export interface TrainVerdict {
  identical: {
    ok: boolean;
    compared: number;
    mismatches: number;
    catchUps: number;
    catchUpsIdentical: number;
    rollbacks: number;
    rollbacksIdentical: number;
    /** The first failure: run, step, replicas, tensor. */
    failure: string | null;
  };
  reference: {
    ok: boolean;
    /** Steps recomputed in float64 from the trainer's state (over all runs). */
    steps: number;
    /** The worst |float32 − float64| ÷ its bound over every element of every step (≤ 1 passes). */
    worst: number;
    /** The first step out of bounds: run, step, tensor, values. */
    failure: string | null;
  };
  endState: {
    /** null until every run has ended. */
    ok: boolean | null;
    lossTolerance: number;
    accuracyTolerance: number;
    /** The worst differences over the runs, once they end. */
    lossDiff: number | null;
    accuracyDiff: number | null;
    failure: string | null;
  };
  converges: { ok: boolean; target: number; withinSteps: number; reachedAt: number | null };
  /** Every check holds and every run has finished. */
  verified: boolean;
}

export interface TrainProgress {
  runs: RunSnapshot[];
  failures: Failure[];
  verdict: TrainVerdict;
  /** Steps per second of the runs under test (not the reference), and the all-reduce's share of a step. */
  stepsPerSecond: number;
  allReduceShare: number;
  /** DiLoCo mode: q measured from its runs without failures (null in the FT-HSDP comparison). */
  q: MeasuredQ | null;
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
  if (cfg.diloco)
    return [
      { id: "ddp", kind: "ddp", policy: "none" },
      { id: "diloco-clean", kind: "diloco-clean", policy: "none" },
      { id: "diloco", kind: "diloco", policy: "none" },
    ];
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
  verify: StepVerification,
  onProgress: (p: TrainProgress) => void,
  control: TrainControl,
  progressEveryMs = 150,
  /** DiLoCo mode's backends: the one under test, and the float64 reference. */
  diloco: DilocoMakers | null = null,
): Promise<TrainProgress> {
  const failures: Failure[] = cfg.failures.map((f) => ({ ...f }));
  const specs = runSpecs(cfg);
  const runs: LiveRun[] = [];
  const refs: LiveRun[] = [];
  const d = cfg.diloco;
  for (const spec of specs) {
    if (d) {
      if (!diloco) throw new Error("a DiLoCo run needs DiLoCo backends");
      // DiLoCo without failures trains twice DDP's steps, so a q down to 0.5 can be read.
      const n = spec.kind === "diloco-clean" ? 2 * cfg.steps : cfg.steps;
      runs.push(new DilocoRun(spec, await diloco.test(spec), failures, n, d, costs, verify));
      refs.push(new DilocoRun(spec, diloco.reference(spec), failures, n, d, costs));
      continue;
    }
    runs.push(
      new TrainRun(
        spec,
        await makeBackend(spec),
        failures,
        cfg.steps,
        cfg.lr,
        cfg.checkpointEvery,
        costs,
        verify,
      ),
    );
    refs.push(
      new TrainRun(spec, makeReference(spec), failures, cfg.steps, cfg.lr, cfg.checkpointEvery, costs),
    );
  }
  const endState: TrainVerdict["endState"] = {
    ok: null,
    lossTolerance: END_LOSS_TOLERANCE,
    accuracyTolerance: END_ACCURACY_TOLERANCE,
    lossDiff: null,
    accuracyDiff: null,
    failure: null,
  };
  let notice: string | null = null;
  let testMs = 0;
  let testSteps = 0;
  let stopped = false;

  const verdict = (): TrainVerdict => {
    type Counter = { [K in keyof RunChecks]: RunChecks[K] extends number ? K : never }[keyof RunChecks];
    const sum = (k: Counter) => runs.reduce((a, r) => a + r.checks[k], 0);
    const firstOf = (f: (r: LiveRun) => string | null): string | null => {
      for (const r of runs) {
        const x = f(r);
        if (x !== null) return `${runName(r.spec)}, ${x}`;
      }
      return null;
    };
    const identical = {
      compared: sum("compared"),
      mismatches: sum("mismatches"),
      catchUps: sum("catchUps"),
      catchUpsIdentical: sum("catchUpsIdentical"),
      rollbacks: sum("rollbacks"),
      rollbacksIdentical: sum("rollbacksIdentical"),
      failure: firstOf((r) => r.checks.identicalFailure),
      ok: false,
    };
    identical.ok =
      identical.failure === null &&
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
    const refFailure = firstOf((r) => r.checks.referenceFailure);
    const reference = {
      steps: sum("referenceSteps"),
      worst: runs.reduce((a, r) => Math.max(a, r.checks.referenceWorst), 0),
      failure: refFailure,
      ok: refFailure === null && sum("referenceSteps") > 0,
    };
    return {
      identical,
      reference,
      endState: { ...endState },
      converges,
      verified: done && identical.ok && reference.ok && endState.ok === true && converges.ok,
    };
  };
  const report = (finished: boolean): TrainProgress => {
    const ms = runs.reduce((a, r) => a + r.totalMs, 0);
    const ar = runs.reduce((a, r) => a + r.allReduceMs, 0);
    return {
      runs: runs.map((r) => r.snapshot()),
      failures: failures.map((f) => ({ ...f })),
      verdict: verdict(),
      q: d ? qOf(runs) : null,
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
        // A kill joins the settings' failure list (and so the link), which holds at most 16.
        const why =
          at >= cfg.steps
            ? d
              ? "the DiLoCo run with failures has finished (DiLoCo without failures trains on, for q)"
              : "the FT-HSDP runs have finished"
            : failures.length >= MAX_FAILURES
              ? `a run takes at most ${MAX_FAILURES} failures`
              : (failureProblem(failures, f, cfg.replicas, cfg.steps) ??
                (d ? dilocoFailureProblem(failures, f, cfg.replicas, cfg.steps, d.every) : null));
        notice = why ? `Kill of replica ${asked} not applied: ${why}` : null;
        if (!why) failures.push(f);
      }
      for (let i = 0; i < runs.length; i++) {
        const run = runs[i] as LiveRun;
        const refRun = refs[i] as LiveRun;
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
      }
      const now = performance.now();
      if (now - lastReport >= progressEveryMs) {
        lastReport = now;
        onProgress(report(false));
      }
    }
    if (!stopped) {
      let lossDiff = 0;
      let accuracyDiff = 0;
      for (let i = 0; i < runs.length; i++) {
        const run = runs[i] as LiveRun;
        const got = run.snapshot().evals.at(-1);
        const want = (refs[i] as LiveRun).snapshot().evals.at(-1);
        if (!got || !want) continue;
        const dl = Math.abs(got.loss - want.loss);
        const da = Math.abs(got.accuracy - want.accuracy);
        lossDiff = Math.max(lossDiff, Number.isNaN(dl) ? Number.POSITIVE_INFINITY : dl);
        accuracyDiff = Math.max(accuracyDiff, Number.isNaN(da) ? Number.POSITIVE_INFINITY : da);
        if (endState.failure === null && (!(dl <= END_LOSS_TOLERANCE) || !(da <= END_ACCURACY_TOLERANCE)))
          endState.failure = `${runName(run.spec)} ends at held-out loss ${got.loss.toFixed(3)}, accuracy ${pct(got.accuracy)}; in float64 ${want.loss.toFixed(3)}, ${pct(want.accuracy)}`;
      }
      endState.lossDiff = lossDiff;
      endState.accuracyDiff = accuracyDiff;
      endState.ok = endState.failure === null;
    }
    const final = report(true);
    onProgress(final);
    return final;
  } finally {
    for (const r of [...runs, ...refs]) r.backend.destroy();
  }
}

export interface DilocoMakers {
  test: (spec: RunSpec) => Promise<DilocoBackend>;
  reference: (spec: RunSpec) => DilocoBackend;
}

/** q from the DDP run and DiLoCo's run without failures. */
function qOf(runs: readonly LiveRun[]): MeasuredQ | null {
  const ddp = runs.find((r) => r.spec.kind === "ddp")?.snapshot();
  const clean = runs.find((r) => r.spec.kind === "diloco-clean")?.snapshot();
  return ddp && clean ? measureQ(ddp, clean) : null;
}
