/**
 * One training run, a step at a time, on any backend: the baseline without failures, FT-HSDP with
 * an lr policy, or synchronous training with checkpoints and rollback, all on the same failure
 * schedule. It keeps the simulated wall clock, what each replica was doing when (the lanes), and
 * checks after every step that the replicas in the ring hold bit-identical state.
 */
import type { TrainBackend } from "./backend.ts";
import type { RecoveryCosts } from "./clock.ts";
import { EVAL_EVERY } from "./config.ts";
import type { Evaluation } from "./mlp.ts";
import { type Failure, type LrPolicy, type ReplicaState, rolesAt, scaledLr } from "./plan.ts";

export type RunKind = "baseline" | "ft" | "sync";

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

export type LaneState = ReplicaState | "stall" | "redo";

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

export class TrainRun {
  private step = 0;
  private t = 0;
  private readonly points: LossPoint[] = [];
  private readonly evals: EvalPoint[] = [];
  private readonly segments: Segment[] = [];
  private readonly lastSegment = new Map<number, Segment>();
  readonly checks: RunChecks = {
    compared: 0,
    mismatches: 0,
    catchUps: 0,
    catchUpsIdentical: 0,
    rollbacks: 0,
    rollbacksIdentical: 0,
  };
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
  ) {}

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
    const out = await this.backend.step(this.step, roles, lr);
    this.allReduceMs += out.allReduceMs;
    this.totalMs += out.totalMs;
    if (out.hashes) {
      this.checks.compared++;
      if (new Set(out.hashes.values()).size !== 1) this.checks.mismatches++;
    }
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
      this.checks.rollbacks++;
      let same = true;
      for (let r = 0; r < R; r++) same &&= (await this.backend.hash(r)) === c.hash;
      if (same) this.checks.rollbacksIdentical++;
      this.redoUntil = Math.max(this.redoUntil, s);
      this.step = c.step;
      // Points of the lost steps stay: the chart shows the loss going back.
      return;
    }
    if (s % this.checkpointEvery === 0 && this.checkpoint?.step !== s) {
      await this.backend.saveCheckpoint(0);
      this.checkpoint = { step: s, hash: await this.backend.hash(0) };
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
