import { describe, expect, it } from "vitest";
import { DEFAULT_SCENARIO } from "../sim/scenario/index.ts";
import { recoveryCosts } from "./clock.ts";
import { decodeTrainParam } from "./config.ts";
import { CpuTrainer } from "./cpuTrainer.ts";
import { makeDataSet } from "./data.ts";
import { initialParams, layoutFor } from "./model.ts";
import type { StepRoles } from "./plan.ts";
import { runTraining, type TrainControl, type TrainProgress } from "./session.ts";

const cfg = decodeTrainParam("h32.r4.n40.lr0.1.k10.s2.pl.f1@12+6");
const layout = layoutFor(cfg.hidden);
const data = makeDataSet(cfg.seed);
const init = initialParams(layout, cfg.seed);
const never: TrainControl = { pendingKill: () => null, stopped: () => false };
const reference = () => new CpuTrainer(layout, data, cfg.replicas, init, "float64");

function train(make: () => CpuTrainer, control = never): Promise<TrainProgress> {
  return runTraining(
    cfg,
    recoveryCosts(DEFAULT_SCENARIO),
    async () => make(),
    reference,
    { layout, data },
    () => {},
    control,
  );
}

/** torchft's rule broken: it divides by everyone in the ring, healer included. */
class DividesByRing extends CpuTrainer {
  override step(step: number, roles: StepRoles, lr: number) {
    return super.step(step, { ...roles, divisor: roles.ring.length }, lr);
  }
}

/** A wrong sign in the update: w ← w + lr·v. */
class WrongSign extends CpuTrainer {
  override step(step: number, roles: StepRoles, lr: number) {
    return super.step(step, roles, -lr);
  }
}

/** The all-reduce loses the last ring member's gradient (it sums zeros in its place). */
class DropsAGradient extends CpuTrainer {
  protected override allReduce(roles: StepRoles) {
    const last = roles.ring.at(-1);
    if (last !== undefined && roles.ring.length > 1) this.rep(last).g.fill(0);
    return super.allReduce(roles);
  }
}

/** The catch-up copies the peer's state as it was one step earlier. */
class StaleCatchUp extends CpuTrainer {
  private stale: { w: Float32Array; v: Float32Array } | null = null;
  override step(step: number, roles: StepRoles, lr: number) {
    const x = this.rep(roles.compute[0] ?? 0);
    this.stale = { w: Float32Array.from(x.w), v: Float32Array.from(x.v) };
    return super.step(step, roles, lr);
  }
  override async catchUp(from: number, to: number) {
    await super.catchUp(from, to);
    if (this.stale) {
      this.rep(to).w.set(this.stale.w);
      this.rep(to).v.set(this.stale.v);
    }
  }
}

const f32 =
  <T extends CpuTrainer>(K: new (...a: ConstructorParameters<typeof CpuTrainer>) => T) =>
  () =>
    new K(layout, data, cfg.replicas, init, "float32");

// Whole sessions of three runs, each step also recomputed in float64: seconds on a busy machine.
describe("a training session", { timeout: 60_000 }, () => {
  it("verifies the float32 CPU trainer: every step within its bound, the end where float64 ends", async () => {
    const p = await train(f32(CpuTrainer));
    expect(p.verdict.identical).toMatchObject({ ok: true, catchUps: 1, catchUpsIdentical: 1, rollbacks: 1 });
    // Every step of every run was recomputed: 40 per run, plus the sync run's redone steps.
    expect(p.verdict.reference.steps).toBeGreaterThanOrEqual(40 * p.runs.length);
    expect(p.verdict.reference).toMatchObject({ ok: true, failure: null });
    expect(p.verdict.reference.worst).toBeLessThanOrEqual(1);
    expect(p.verdict.endState).toMatchObject({ ok: true, failure: null });
    expect(p.runs.map((r) => r.spec.id)).toEqual(["baseline", "ft-linear", "sync"]);
  });

  it("catches a wrong sign in the update at the first step, naming the tensor", async () => {
    const p = await train(f32(WrongSign));
    expect(p.verdict.verified).toBe(false);
    expect(p.verdict.reference.ok).toBe(false);
    expect(p.verdict.reference.failure).toMatch(
      /^no failures, step 0: layer \d (weights \[\d+, \d+\]|biases \[\d+\]) is .*, the float64 step gives .* \(off by .*, bound .*\)$/,
    );
  });

  it("catches an all-reduce that drops a replica's gradient", async () => {
    const p = await train(f32(DropsAGradient));
    expect(p.verdict.verified).toBe(false);
    expect(p.verdict.reference.failure).toMatch(/^no failures, step 0: (momentum of )?layer \d/);
    // The replicas still agree with each other: only the reference sees it.
    expect(p.verdict.identical.mismatches).toBe(0);
  });

  it("catches a stale catch-up, naming the step, the replicas and the tensor", async () => {
    const p = await train(f32(StaleCatchUp));
    expect(p.verdict.verified).toBe(false);
    expect(p.verdict.identical.ok).toBe(false);
    expect(p.verdict.identical.failure).toMatch(
      /^FT-HSDP, lr linear, catch-up before step 18: replica 1 differs from its peer 0 in (momentum of )?layer \d/,
    );
  });

  it("catches a gradient average that counts the healer, at the healing step", async () => {
    const p = await train(f32(DividesByRing));
    expect(p.verdict.verified).toBe(false);
    expect(p.verdict.reference.failure).toMatch(/^FT-HSDP, lr linear, step 18: /);
  });

  it("applies a Kill at the step the runs have reached, to every run", async () => {
    let asked = false;
    const p = await train(f32(CpuTrainer), {
      pendingKill: () => {
        if (asked) return null;
        asked = true;
        return 3;
      },
      stopped: () => false,
    });
    expect(p.failures).toContainEqual({ replica: 3, step: 1, down: 6 });
    expect(p.verdict.identical.catchUps).toBe(2);
    expect(p.verdict.verified).toBe(p.verdict.converges.ok);
  });
});
