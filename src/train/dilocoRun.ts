/**
 * A DiLoCo-mode run, a step at a time: DDP with AdamW (every step's gradients averaged by the
 * ring all-reduce), or DiLoCo (H inner AdamW steps per replica, then the outer sync), with or
 * without the session's failures. A replica struck mid-round loses its round and, once back,
 * waits idle for the next round, where it heals from a participant; one struck in the sync
 * (a failure at a round's boundary step) discards the round for every participant, which
 * restore θ ← θ_outer. Every step is checked against float64 (dilocoCheck.ts) when verifying.
 */
import type { RecoveryCosts } from "./clock.ts";
import { type DilocoConfig, EVAL_EVERY } from "./config.ts";
import { roundRoles, syncAt } from "./diloco.ts";
import { DILOCO_TENSORS, type DilocoBackend, SYNC_TENSORS } from "./dilocoBackend.ts";
import { referenceAdamw, referenceSync } from "./dilocoCheck.ts";
import { LaneLog } from "./laneLog.ts";
import type { Floats } from "./mlp.ts";
import { tensorAt } from "./model.ts";
import type { Failure } from "./plan.ts";
import {
  type EvalPoint,
  firstDifference,
  type LaneState,
  type LiveRun,
  type LossPoint,
  noChecks,
  type RunSnapshot,
  type RunSpec,
  type StepVerification,
  sci,
} from "./run.ts";
import { stateHash } from "./stateHash.ts";
import { compareStep, type StepReference } from "./stepCheck.ts";

export class DilocoRun implements LiveRun {
  private step = 0;
  private readonly points: LossPoint[] = [];
  private readonly evals: EvalPoint[] = [];
  private readonly lanes: LaneLog;
  readonly checks = noChecks();
  /** Each replica's AdamW step count (its bias corrections); a healed replica takes its peer's. */
  private readonly adamSteps: number[];
  /** Replicas whose θ_outer is the committed one (all at the start; a failure takes one out). */
  private readonly current = new Set<number>();
  private readonly fired = new Set<Failure>();
  /** When verifying: each replica's θ‖m‖v before its next AdamW step, as the trainer holds them. */
  private readonly before = new Map<number, Floats>();
  allReduceMs = 0;
  totalMs = 0;

  constructor(
    readonly spec: RunSpec,
    readonly backend: DilocoBackend,
    /** Shared with the other runs: a Kill adds to it while they train. */
    private readonly failures: Failure[],
    private readonly steps: number,
    private readonly d: DilocoConfig,
    private readonly costs: RecoveryCosts,
    private readonly verify: StepVerification | null = null,
  ) {
    this.lanes = new LaneLog(backend.replicas);
    this.adamSteps = Array.from({ length: backend.replicas }, () => 0);
    for (let r = 0; r < backend.replicas; r++) this.current.add(r);
  }

  get done(): boolean {
    return this.step >= this.steps;
  }

  get currentStep(): number {
    return this.step;
  }

  private get fs(): readonly Failure[] {
    return this.spec.kind === "diloco" ? this.failures : [];
  }

  private get P(): number {
    return this.verify?.layout.count ?? 0;
  }

  private noteIdentical(what: string): void {
    this.checks.identicalFailure ??= what;
  }

  private noteReference(where: string, ref: StepReference, got: Floats, prefixes: readonly string[]): void {
    const v = this.verify;
    if (!v) return;
    const cmp = compareStep(ref, got);
    this.checks.referenceWorst = Math.max(this.checks.referenceWorst, cmp.worst);
    if (cmp.miss && this.checks.referenceFailure === null) {
      const m = cmp.miss;
      this.checks.referenceFailure = `${where}: ${tensorAt(v.layout, m.index, prefixes)} is ${sci(m.got)}, the float64 step gives ${sci(m.want)} (off by ${sci(Math.abs(m.got - m.want))}, bound ${sci(m.bound)})`;
    }
  }

  /** θ‖m‖v of `r` before its next step: kept from its last step, or read back. */
  private async beforeOf(r: number): Promise<Floats> {
    const kept = this.before.get(r);
    if (kept) return kept;
    const s = (await this.backend.state(r)).slice(0, 3 * this.P);
    this.before.set(r, s);
    return s;
  }

  private strike(r: number): void {
    this.backend.fail(r);
    this.current.delete(r);
    this.before.delete(r);
  }

  async tick(): Promise<void> {
    if (this.done) return;
    if (this.spec.kind === "ddp") return this.ddpTick();
    const s = this.step;
    const H = this.d.every;
    // A failure before this step that no sync met: the replica dies (mid-round: its round is lost).
    for (const f of this.fs)
      if (f.step === s && !this.fired.has(f)) {
        this.fired.add(f);
        this.strike(f.replica);
      }
    const roles = roundRoles(this.fs, this.backend.replicas, s, H);
    if (s % H === 0) await this.heal(roles.train);
    await this.innerStep(roles.train);
    if (this.step % H === 0 || this.step === this.steps) await this.sync(this.step);
  }

  /** At a round's start, a participant that lost the committed state heals from one that has it. */
  private async heal(participants: readonly number[]): Promise<void> {
    const source = participants.find((r) => this.current.has(r));
    for (const r of participants) {
      if (this.current.has(r)) continue;
      if (source === undefined)
        throw new Error(`no DiLoCo replica holds the outer weights at step ${this.step}`);
      await this.backend.catchUp(source, r);
      this.adamSteps[r] = this.adamSteps[source] ?? 0;
      this.current.add(r);
      this.before.delete(r);
      this.checks.catchUps++;
      if ((await this.backend.hash(r)) === (await this.backend.hash(source))) this.checks.catchUpsIdentical++;
      else if (this.verify) {
        const diff = firstDifference(
          this.verify.layout,
          await this.backend.state(r),
          await this.backend.state(source),
          DILOCO_TENSORS,
        );
        this.noteIdentical(
          `catch-up before step ${this.step}: replica ${r} differs from its peer ${source} in ${diff}`,
        );
      }
    }
  }

  private async innerStep(who: readonly number[]): Promise<void> {
    const v = this.verify;
    const s = this.step;
    const befores = v ? await Promise.all(who.map((r) => this.beforeOf(r))) : [];
    const t = who.map((r) => {
      this.adamSteps[r] = (this.adamSteps[r] ?? 0) + 1;
      return this.adamSteps[r] as number;
    });
    const out = await this.backend.inner(s, who, this.d.innerLr, t, false, v !== null);
    this.allReduceMs += out.allReduceMs;
    this.totalMs += out.totalMs;
    if (v && out.states) {
      this.checks.referenceSteps++;
      who.forEach((r, i) => {
        const ref = referenceAdamw(
          v.layout,
          v.data,
          this.backend.replicas,
          s,
          r,
          null,
          befores[i] as Floats,
          this.d.innerLr,
          t[i] as number,
        );
        this.noteReference(
          `inner step ${s}, replica ${r}`,
          ref,
          out.states?.get(r) as Floats,
          DILOCO_TENSORS,
        );
      });
      for (const [r, st] of out.states) this.before.set(r, st);
    }
    this.lanes.pass(this.costs.stepSeconds, (r) =>
      who.includes(r) ? "train" : this.isDownAt(r, s) ? "down" : "idle",
    );
    this.step++;
    const loss = out.losses.reduce((a, b) => a + b, 0) / Math.max(1, out.losses.length);
    this.points.push({ step: this.step, t: this.lanes.t, loss });
  }

  /** The sync that ends the round before step `b`. */
  private async sync(b: number): Promise<void> {
    const R = this.backend.replicas;
    const { participants, struck, discard } = syncAt(this.fs, R, b, this.d.every);
    for (const f of this.fs)
      if (f.step === b && !this.fired.has(f)) {
        this.fired.add(f);
        this.strike(f.replica);
      }
    if (participants.length === 0) return;
    const busy = (r: number): LaneState =>
      participants.includes(r) ? "sync" : this.isDownAt(r, b) ? "down" : "idle";
    if (discard) {
      // The all-reduce fails on every participant: nobody commits, everyone restores θ_outer.
      this.lanes.pass(this.costs.outerSync, busy);
      this.lanes.pass(this.costs.ftFailureStall, (r) =>
        struck.includes(r) || this.isDownAt(r, b) ? "down" : "stall",
      );
      const survivors = participants.filter((r) => !struck.includes(r));
      for (const r of survivors) {
        await this.backend.restore(r);
        this.before.delete(r);
        this.checks.rollbacks++;
        const st = await this.backend.state(r);
        const n = st.length / 5;
        const w = st.subarray(0, n);
        const o = st.subarray(3 * n, 4 * n);
        if (w.every((x, i) => Object.is(x, o[i]))) this.checks.rollbacksIdentical++;
        else {
          const diff = this.verify ? firstDifference(this.verify.layout, w, o) : "some element";
          this.noteIdentical(
            `round discarded before step ${b}: replica ${r}'s weights are not its outer weights in ${diff}`,
          );
        }
      }
      const who = survivors[0];
      if (who !== undefined)
        this.evals.push({ step: b, t: this.lanes.t, ...(await this.backend.evaluate(who)) });
      return;
    }
    const v = this.verify;
    const P = this.P;
    const thetas = v
      ? await Promise.all(participants.map(async (r) => (await this.beforeOf(r)).subarray(0, P)))
      : [];
    const first = participants[0] as number;
    const outer = v ? (await this.backend.state(first)).slice(3 * P, 5 * P) : null;
    const out = await this.backend.sync(participants, this.d.outerLr, this.d.outerMomentum, v !== null);
    this.allReduceMs += out.allReduceMs;
    this.totalMs += out.totalMs;
    this.checks.compared++;
    if (new Set(out.hashes.values()).size !== 1) {
      this.checks.mismatches++;
      this.noteIdentical(
        `after the outer step before step ${b}: the participants' weights or outer state differ`,
      );
    }
    if (v && outer && out.state) {
      this.checks.referenceSteps++;
      this.noteReference(
        `outer step before step ${b}`,
        referenceSync(thetas, outer, this.d.outerLr, this.d.outerMomentum),
        out.state,
        SYNC_TENSORS,
      );
      const diff = firstDifference(v.layout, out.state.subarray(P, 2 * P), out.state.subarray(2 * P, 3 * P));
      if (diff)
        this.noteIdentical(
          `after the outer step before step ${b}: replica ${first}'s weights are not its outer weights in ${diff}`,
        );
      // θ is now θ_outer; the moments stay.
      for (const r of participants) {
        const kept = this.before.get(r);
        if (!kept) continue;
        const next = kept.slice();
        next.set(out.state.subarray(P, 2 * P), 0);
        this.before.set(r, next);
      }
    }
    this.lanes.pass(this.costs.outerSync, busy);
    this.evals.push({ step: b, t: this.lanes.t, ...(await this.backend.evaluate(first)) });
  }

  private isDownAt(r: number, s: number): boolean {
    return this.fs.some((f) => f.replica === r && s >= f.step && s < f.step + f.down);
  }

  /** DDP: every replica's gradient averaged by the ring all-reduce, then the same AdamW step on each. */
  private async ddpTick(): Promise<void> {
    const v = this.verify;
    const s = this.step;
    const all = Array.from({ length: this.backend.replicas }, (_, r) => r);
    const before = v ? await this.beforeOf(0) : null;
    const t = all.map((r) => {
      this.adamSteps[r] = (this.adamSteps[r] ?? 0) + 1;
      return this.adamSteps[r] as number;
    });
    const out = await this.backend.inner(s, all, this.d.innerLr, t, true, v !== null);
    this.allReduceMs += out.allReduceMs;
    this.totalMs += out.totalMs;
    if (out.states) {
      this.checks.compared++;
      const hashes = new Set([...out.states.values()].map((x) => stateHash(Float32Array.from(x))));
      if (hashes.size !== 1) {
        this.checks.mismatches++;
        const a = out.states.get(0) as Floats;
        for (const r of all.slice(1)) {
          const diff = v ? firstDifference(v.layout, out.states.get(r) as Floats, a, DILOCO_TENSORS) : null;
          if (diff) {
            this.noteIdentical(`after step ${s}: replica ${r} differs from replica 0 in ${diff}`);
            break;
          }
        }
      }
      for (const [r, st] of out.states) this.before.set(r, st);
    }
    if (v && before && out.states) {
      this.checks.referenceSteps++;
      const ref = referenceAdamw(
        v.layout,
        v.data,
        this.backend.replicas,
        s,
        0,
        all,
        before,
        this.d.innerLr,
        t[0] as number,
      );
      this.noteReference(`step ${s}`, ref, out.states.get(0) as Floats, DILOCO_TENSORS);
    }
    this.lanes.pass(this.costs.stepSeconds, () => "train");
    this.step++;
    const loss = out.losses.reduce((a, b) => a + b, 0) / out.losses.length;
    this.points.push({ step: this.step, t: this.lanes.t, loss });
    if (this.step % EVAL_EVERY === 0 || this.step === this.steps)
      this.evals.push({ step: this.step, t: this.lanes.t, ...(await this.backend.evaluate(0)) });
  }

  snapshot(): RunSnapshot {
    return {
      spec: this.spec,
      points: [...this.points],
      evals: [...this.evals],
      segments: this.lanes.copy(),
      checks: { ...this.checks },
      step: this.step,
      t: this.lanes.t,
      done: this.done,
    };
  }
}
