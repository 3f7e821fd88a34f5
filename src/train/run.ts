/**
 * One training run, a step at a time, on any backend: the baseline without failures, FT-HSDP with
 * an lr policy, or synchronous training with checkpoints and rollback, all on the same failure
 * schedule. It keeps the simulated wall clock, what each replica was doing when (the lanes), and
 * checks after every step that the replicas in the ring hold bit-identical state.
 */
import type { TrainBackend } from "./backend.ts";
import type { RecoveryCosts } from "./clock.ts";
import { EVAL_EVERY } from "./config.ts";
import type { DataSet } from "./data.ts";
import type { Evaluation, Floats } from "./mlp.ts";
import { type Layout, tensorAt } from "./model.ts";
import { type Failure, type LrPolicy, type ReplicaState, rolesAt, scaledLr } from "./plan.ts";
import { compareStep, referenceStep } from "./stepCheck.ts";

/** DiLoCo mode's runs: DDP with AdamW (no failures), DiLoCo without failures and with them. */
export type RunKind = "baseline" | "ft" | "sync" | "ddp" | "diloco-clean" | "diloco";

export interface RunSpec {
  id: string;
  kind: RunKind;
  policy: LrPolicy;
}

export interface LossPoint {
  /** Steps completed (1 after the first). */
  step: number;
  /** Simulated seconds at the end of the step. */
  t: number;
  loss: number;
}

export interface EvalPoint extends Evaluation {
  step: number;
  t: number;
}

/** DiLoCo adds the outer sync and a healthy replica waiting for the next round. */
export type LaneState = ReplicaState | "stall" | "redo" | "sync" | "idle";

export interface Segment {
  replica: number;
  state: LaneState;
  t0: number;
  t1: number;
}

export interface RunChecks {
  /** Steps after which every ring member's state hash was compared. */
  compared: number;
  /** Steps where they differed (must stay 0). */
  mismatches: number;
  catchUps: number;
  /** Catch-ups whose replica matched its peer bit for bit right after the copy. */
  catchUpsIdentical: number;
  rollbacks: number;
  rollbacksIdentical: number;
  /** Steps recomputed in float64 from the run's own state (stepCheck.ts), and the worst |error| ÷ bound. */
  referenceSteps: number;
  referenceWorst: number;
  /** The first step whose state left its bound: which step, which tensor, by how much. */
  referenceFailure: string | null;
  /** The first time replicas that must be bit-identical were not: when, who, which tensor. */
  identicalFailure: string | null;
}

/** What the per-step reference check needs: the model's shape and the data every step reads. */
export interface StepVerification {
  layout: Layout;
  data: DataSet;
}

export const sci = (x: number) => (x === 0 ? "0" : x.toExponential(2));

/** The first element where two states differ, named ("layer 2 weights [3, 17]"), or null. */
export function firstDifference(
  layout: Layout,
  a: Floats,
  b: Floats,
  prefixes?: readonly string[],
): string | null {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (x !== y && !(Number.isNaN(x) && Number.isNaN(y)))
      return `${tensorAt(layout, i, prefixes)} (${sci(x)} vs ${sci(y)})`;
  }
  return null;
}

export interface RunSnapshot {
  spec: RunSpec;
  points: LossPoint[];
  evals: EvalPoint[];
  segments: Segment[];
  checks: RunChecks;
  /** Steps completed (the sync run's counter goes back at a rollback). */
  step: number;
  t: number;
  done: boolean;
}

/** What the session steps and reads, whichever kind of run it is (TrainRun, DilocoRun). */
export interface LiveRun {
  readonly spec: RunSpec;
  readonly backend: { destroy(): void };
  readonly checks: RunChecks;
  readonly done: boolean;
  readonly currentStep: number;
  allReduceMs: number;
  totalMs: number;
  tick(): Promise<void>;
  snapshot(): RunSnapshot;
}

/** A fresh run's checks: nothing compared yet. */
export function noChecks(): RunChecks {
  return {
    compared: 0,
    mismatches: 0,
    catchUps: 0,
    catchUpsIdentical: 0,
    rollbacks: 0,
    rollbacksIdentical: 0,
    referenceSteps: 0,
    referenceWorst: 0,
    referenceFailure: null,
    identicalFailure: null,
  };
}

export class TrainRun implements LiveRun {
  private step = 0;
  private t = 0;
  private readonly points: LossPoint[] = [];
  private readonly evals: EvalPoint[] = [];
  private readonly segments: Segment[] = [];
  private readonly lastSegment = new Map<number, Segment>();
  readonly checks: RunChecks = noChecks();
  /** The state the next step starts from, as read from the trainer (null: read it first). */
  private before: Floats | null = null;
  /** sync, when verifying: the checkpoint's state, to name what a bad restore got wrong. */
  private checkpointState: Floats | null = null;
  /** sync: failures already suffered (a replayed step does not fail again). */
  private readonly fired = new Set<Failure>();
  private checkpoint: { step: number; hash: string } | null = null;
  /** sync: steps below this are being redone after a rollback. */
  private redoUntil = 0;
  allReduceMs = 0;
  totalMs = 0;

  constructor(
    readonly spec: RunSpec,
    readonly backend: TrainBackend,
    /** Shared with the other runs: a Kill adds to it while they train. */
    readonly failures: Failure[],
    private readonly steps: number,
    private readonly lr: number,
    private readonly checkpointEvery: number,
    private readonly costs: RecoveryCosts,
    /** When given, every step is checked against float64 (stepCheck.ts). */
    private readonly verify: StepVerification | null = null,
  ) {}

  private noteIdentical(what: string): void {
    this.checks.identicalFailure ??= what;
  }

  get done(): boolean {
    return this.step >= this.steps;
  }

  get currentStep(): number {
    return this.step;
  }

  private lane(replica: number, state: LaneState, t0: number, t1: number): void {
    if (t1 <= t0) return;
    const last = this.lastSegment.get(replica);
    if (last && last.state === state && last.t1 === t0) last.t1 = t1;
    else {
      const seg = { replica, state, t0, t1 };
      this.segments.push(seg);
      this.lastSegment.set(replica, seg);
    }
  }

  private stall(seconds: number, states: (r: number) => LaneState): void {
    for (let r = 0; r < this.backend.replicas; r++) this.lane(r, states(r), this.t, this.t + seconds);
    this.t += seconds;
  }

  /** One step (or, for sync, a failure's rollback). Returns the step's roles' losses, if it trained. */
  async tick(): Promise<void> {
    if (this.done) return;
    if (this.spec.kind === "sync") return this.syncTick();
    const fs = this.spec.kind === "baseline" ? [] : this.failures;
    const s = this.step;
    const roles = rolesAt(fs, this.backend.replicas, s);
    if (roles.failing.length > 0) {
      for (const r of roles.failing) this.backend.fail(r);
      this.stall(this.costs.ftFailureStall, (r) => (roles.failing.includes(r) ? "down" : "stall"));
    }
    if (roles.heal.length > 0) {
      const peer = roles.compute[0];
      if (peer === undefined) throw new Error(`no healthy peer to copy from at step ${s}`);
      const want = await this.backend.hash(peer);
      for (const h of roles.heal) {
        await this.backend.catchUp(peer, h);
        this.checks.catchUps++;
        if ((await this.backend.hash(h)) === want) this.checks.catchUpsIdentical++;
        else if (this.verify) {
          const d = firstDifference(
            this.verify.layout,
            await this.backend.state(h),
            await this.backend.state(peer),
          );
          this.noteIdentical(`catch-up before step ${s}: replica ${h} differs from its peer ${peer} in ${d}`);
        }
      }
      this.stall(this.costs.ftRejoinStall, (r) =>
        roles.heal.includes(r) || roles.compute.includes(r) ? "stall" : "down",
      );
    }
    const lr = scaledLr(this.spec.policy, this.lr, roles.compute.length, this.backend.replicas);
    await this.trainStep(roles, lr, (r) =>
      roles.compute.includes(r) ? "train" : roles.heal.includes(r) ? "heal" : "down",
    );
  }

  private async trainStep(
    roles: ReturnType<typeof rolesAt>,
    lr: number,
    state: (r: number) => LaneState,
  ): Promise<void> {
    const v = this.verify;
    const first = roles.compute[0];
    if (v && this.before === null && first !== undefined) this.before = await this.backend.state(first);
    const before = this.before;
    const out = await this.backend.step(this.step, roles, lr);
    this.allReduceMs += out.allReduceMs;
    this.totalMs += out.totalMs;
    if (out.hashes) {
      this.checks.compared++;
      if (new Set(out.hashes.values()).size !== 1) {
        this.checks.mismatches++;
        if (v) {
          const r0 = roles.ring[0] ?? 0;
          const a = await this.backend.state(r0);
          for (const r of roles.ring.slice(1)) {
            const d = firstDifference(v.layout, await this.backend.state(r), a);
            if (d) {
              this.noteIdentical(`after step ${this.step}: replica ${r} differs from replica ${r0} in ${d}`);
              break;
            }
          }
        }
      }
    }
    if (v && before) {
      const ref = referenceStep(v.layout, v.data, this.backend.replicas, this.step, roles, lr, before);
      const cmp = compareStep(ref, out.state);
      this.checks.referenceSteps++;
      this.checks.referenceWorst = Math.max(this.checks.referenceWorst, cmp.worst);
      if (cmp.miss && this.checks.referenceFailure === null) {
        const m = cmp.miss;
        this.checks.referenceFailure = `step ${this.step}: ${tensorAt(v.layout, m.index)} is ${sci(m.got)}, the float64 step gives ${sci(m.want)} (off by ${sci(Math.abs(m.got - m.want))}, bound ${sci(m.bound)})`;
      }
    }
    this.before = v ? out.state : null;
    this.stall(this.costs.stepSeconds, state);
    this.step++;
    const loss = out.losses.reduce((a, b) => a + b, 0) / out.losses.length;
    this.points.push({ step: this.step, t: this.t, loss });
    if (this.step % EVAL_EVERY === 0 || this.step === this.steps) {
      const who = roles.compute[0] ?? 0;
      this.evals.push({ step: this.step, t: this.t, ...(await this.backend.evaluate(who)) });
    }
  }

  private async syncTick(): Promise<void> {
    const s = this.step;
    const R = this.backend.replicas;
    const hit = this.failures.find((f) => f.step === s && !this.fired.has(f));
    if (hit) {
      // Everyone stops; the job restarts from the last checkpoint.
      this.fired.add(hit);
      this.backend.fail(hit.replica);
      this.stall(this.costs.syncFailureStall, (r) => (r === hit.replica ? "down" : "stall"));
      const c = this.checkpoint;
      if (!c) throw new Error("synchronous run has no checkpoint");
      await this.backend.restoreCheckpoint();
      this.before = null;
      this.checks.rollbacks++;
      let same = true;
      for (let r = 0; r < R; r++) {
        const ok = (await this.backend.hash(r)) === c.hash;
        same &&= ok;
        if (!ok && this.verify && this.checkpointState) {
          const d = firstDifference(this.verify.layout, await this.backend.state(r), this.checkpointState);
          this.noteIdentical(
            `rollback at step ${s}: replica ${r} differs from the checkpoint of step ${c.step} in ${d}`,
          );
        }
      }
      if (same) this.checks.rollbacksIdentical++;
      this.redoUntil = Math.max(this.redoUntil, s);
      this.step = c.step;
      // Points of the lost steps stay: the chart shows the loss going back.
      return;
    }
    if (s % this.checkpointEvery === 0 && this.checkpoint?.step !== s) {
      await this.backend.saveCheckpoint(0);
      this.checkpoint = { step: s, hash: await this.backend.hash(0) };
      if (this.verify) this.checkpointState = await this.backend.state(0);
      this.stall(this.costs.checkpointWrite, () => "stall");
    }
    const all = Array.from({ length: R }, (_, r) => r);
    const roles = { compute: all, heal: [], failing: [], ring: all, divisor: R };
    const redo = s < this.redoUntil;
    await this.trainStep(roles, this.lr, () => (redo ? "redo" : "train"));
  }

  snapshot(): RunSnapshot {
    return {
      spec: this.spec,
      points: [...this.points],
      evals: [...this.evals],
      segments: this.segments.map((x) => ({ ...x })),
      checks: { ...this.checks },
      step: this.step,
      t: this.t,
      done: this.done,
    };
  }
}
