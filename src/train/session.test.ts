import { describe, expect, it } from "vitest";
import { DEFAULT_SCENARIO } from "../sim/scenario.ts";
import { recoveryCosts } from "./clock.ts";
import { decodeTrainParam } from "./config.ts";
import { CpuTrainer } from "./cpuTrainer.ts";
import { makeDataSet } from "./data.ts";
import { initialParams, layoutFor } from "./model.ts";
import type { StepRoles } from "./plan.ts";
import { runTraining } from "./session.ts";

const cfg = decodeTrainParam("h32.r4.n40.lr0.3.k10.s2.pl.f1@12+6");
const layout = layoutFor(cfg.hidden);
const data = makeDataSet(cfg.seed);
const init = initialParams(layout, cfg.seed);
const never = { pendingKill: () => null, stopped: () => false };
const reference = () => new CpuTrainer(layout, data, cfg.replicas, init, "float64");

/** A trainer with torchft's rule broken: it divides by everyone in the ring, healer included. */
class DividesByRing extends CpuTrainer {
  override step(step: number, roles: StepRoles, lr: number) {
    return super.step(step, { ...roles, divisor: roles.ring.length }, lr);
  }
}

describe("a training session", () => {
  it("verifies the float32 CPU trainer against the float64 reference", async () => {
    const p = await runTraining(
      cfg,
      recoveryCosts(DEFAULT_SCENARIO),
      async () => new CpuTrainer(layout, data, cfg.replicas, init, "float32"),
      reference,
      () => {},
      never,
    );
    expect(p.verdict.identical).toMatchObject({ ok: true, catchUps: 1, catchUpsIdentical: 1, rollbacks: 1 });
    expect(p.verdict.reference.ok).toBe(true);
    expect(p.runs.map((r) => r.spec.id)).toEqual(["baseline", "ft-linear", "sync"]);
  });

  it("catches a gradient average that counts the healer", async () => {
    const p = await runTraining(
      cfg,
      recoveryCosts(DEFAULT_SCENARIO),
      async () => new DividesByRing(layout, data, cfg.replicas, init, "float32"),
      reference,
      () => {},
      never,
    );
    expect(p.verdict.reference.ok).toBe(false);
    expect(p.verdict.verified).toBe(false);
  });

  it("applies a Kill at the step the runs have reached, to every run", async () => {
    let asked = false;
    const p = await runTraining(
      cfg,
      recoveryCosts(DEFAULT_SCENARIO),
      async () => new CpuTrainer(layout, data, cfg.replicas, init, "float32"),
      reference,
      () => {},
      {
        pendingKill: () => {
          if (asked) return null;
          asked = true;
          return 3;
        },
        stopped: () => false,
      },
    );
    expect(p.failures).toContainEqual({ replica: 3, step: 1, down: 6 });
    expect(p.verdict.identical.catchUps).toBe(2);
    expect(p.verdict.verified).toBe(p.verdict.converges.ok);
  });
});
