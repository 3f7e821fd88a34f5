import { describe, expect, it } from "vitest";
import { DEFAULT_SCENARIO } from "../sim/scenario/index.ts";
import { recoveryCosts } from "./clock.ts";
import { decodeTrainParam, type TrainConfig } from "./config.ts";
import { CpuDiloco } from "./cpuDiloco.ts";
import { CpuTrainer } from "./cpuTrainer.ts";
import { makeDataSet } from "./data.ts";
import { initialParams, layoutFor } from "./model.ts";
import { runTraining, type TrainControl, type TrainProgress } from "./session.ts";

const never: TrainControl = { pendingKill: () => null, stopped: () => false };
type Args = ConstructorParameters<typeof CpuDiloco>;

function train(
  cfg: TrainConfig,
  make: (...a: Args) => CpuDiloco = (...a) => new CpuDiloco(...a),
  control = never,
): Promise<TrainProgress> {
  const layout = layoutFor(cfg.hidden);
  const data = makeDataSet(cfg.seed);
  const init = initialParams(layout, cfg.seed);
  const unused = () => new CpuTrainer(layout, data, cfg.replicas, init, "float64");
  return runTraining(
    cfg,
    recoveryCosts(DEFAULT_SCENARIO),
    async () => unused(),
    unused,
    { layout, data },
    () => {},
    control,
    150,
    {
      test: async () => make(layout, data, cfg.replicas, init, "float32"),
      reference: () => new CpuDiloco(layout, data, cfg.replicas, init, "float64"),
    },
  );
}

/** Replica 1 dies mid-round (step 13), replica 2 in the sync that ends the second round (step 20). */
const short = decodeTrainParam("h32.r4.n40.s2.pn.f1@13+4,2@20+3.d10,0.02,0.7,0.9");

/** AdamW without its bias correction of the first moment. */
class NoBiasCorrection extends CpuDiloco {
  override inner(
    step: number,
    who: readonly number[],
    lr: number,
    t: readonly number[],
    reduce: boolean,
    read: boolean,
  ) {
    // 1 − β₁ᵗ taken as 1: the update is 10× too small at t = 1.
    return super.inner(step, who, lr / 10, t, reduce, read);
  }
}

/** The averaging divides the pseudo-gradients' sum by R, not by the round's participants. */
class DividesByAll extends CpuDiloco {
  protected override async average(who: readonly number[]) {
    await super.average(who);
    const k = who.length / this.replicas;
    if (k !== 1)
      for (const r of who)
        this.rep(r).g.forEach((x, i, g) => {
          g[i] = x * k;
        });
  }
}

/** The outer step uses plain momentum (θ ← θ − lr·b), not Nesterov's look-ahead. */
class PlainMomentum extends CpuDiloco {
  override sync(who: readonly number[], lr: number, momentum: number, read: boolean) {
    return super.sync(who, lr / (1 + momentum), momentum, read);
  }
}

/** A discarded round keeps the replicas' inner steps (θ is not restored to θ_outer). */
class KeepsDiscardedRound extends CpuDiloco {
  override async restore() {}
}

describe("a DiLoCo session", { timeout: 90_000 }, () => {
  it("verifies the float32 CPU trainer through a lost round, a discarded round and two catch-ups", async () => {
    const p = await train(decodeTrainParam("h32.r4.n100.s1.pn.f1@13+4,2@20+3.d10,0.02,0.7,0.9"));
    expect(p.runs.map((r) => r.spec.id)).toEqual(["ddp", "diloco-clean", "diloco"]);
    expect(p.verdict.identical).toMatchObject({ ok: true, mismatches: 0, catchUps: 2, catchUpsIdentical: 2 });
    // The discarded round: replicas 0, 1 (back since step 17, but idle: not a participant) … only 0 and 3 restore.
    expect(p.verdict.identical).toMatchObject({ rollbacks: 2, rollbacksIdentical: 2 });
    expect(p.verdict.reference).toMatchObject({ ok: true, failure: null });
    expect(p.verdict.reference.worst).toBeLessThanOrEqual(1);
    expect(p.verdict.endState).toMatchObject({ ok: true });
    expect(p.verdict.verified).toBe(true);
    // DDP 100 steps; DiLoCo without failures 200 inner steps and 20 syncs; with them 100 and 9 (one discarded).
    expect(p.verdict.reference.steps).toBe(100 + 200 + 20 + 100 + 9);
    const q = p.q;
    expect(q?.final).toBe(true);
    expect(q?.target).toBe(p.runs[0]?.evals.at(-1)?.loss);
    if (q?.reachedAt) expect(q.q).toBe(100 / q.reachedAt);
  });

  it("catches an AdamW step that is off, naming the run, step, replica and tensor", async () => {
    const p = await train(short, (...a) => new NoBiasCorrection(...a));
    expect(p.verdict.verified).toBe(false);
    expect(p.verdict.reference.failure).toMatch(
      /^DDP \(AdamW\), no failures, step 0: layer \d (weights \[\d+, \d+\]|biases \[\d+\]) is .*, the float64 step gives .* \(off by .*, bound .*\)$/,
    );
  });

  it("catches an average of the pseudo-gradients that divides by every replica, at the first round that commits without every replica", async () => {
    const p = await train(short, (...a) => new DividesByAll(...a));
    expect(p.verdict.reference.failure).toMatch(
      /^DiLoCo, outer step before step 30: averaged pseudo-gradient of layer \d/,
    );
  });

  it("catches an outer step that is not Nesterov's, at the first sync", async () => {
    const p = await train(short, (...a) => new PlainMomentum(...a));
    expect(p.verdict.reference.failure).toMatch(
      /^DiLoCo, no failures, outer step before step 10: (outer weights of )?layer \d/,
    );
  });

  it("catches a discarded round that was kept, naming the replica", async () => {
    const p = await train(short, (...a) => new KeepsDiscardedRound(...a));
    expect(p.verdict.identical.ok).toBe(false);
    expect(p.verdict.identical.failure).toMatch(
      /^DiLoCo, round discarded before step 20: replica 0's weights are not its outer weights in layer \d/,
    );
  });

  it("applies a Kill to the DiLoCo run with failures only, and refuses one that would leave no round's committer", async () => {
    let asked = false;
    const p = await train(decodeTrainParam("h32.r2.n40.s2.pn.f.d10,0.02,0.7,0.9"), undefined, {
      pendingKill: () => {
        if (asked) return null;
        asked = true;
        return 1;
      },
      stopped: () => false,
    });
    expect(p.failures).toEqual([{ replica: 1, step: 1, down: 20 }]);
    expect(p.verdict.identical.catchUps).toBe(1);
    const lanes = (id: string) => p.runs.find((r) => r.spec.id === id)?.segments ?? [];
    expect(lanes("diloco").some((s) => s.replica === 1 && s.state === "down")).toBe(true);
    expect(lanes("diloco-clean").some((s) => s.state === "down")).toBe(false);
  });

  it("refuses a Kill once the DiLoCo run with failures has finished, while DiLoCo without failures trains on", async () => {
    let calls = 0;
    const p = await train(short, undefined, {
      pendingKill: () => (++calls === short.steps + 5 ? 1 : null),
      stopped: () => false,
    });
    expect(calls).toBeGreaterThan(short.steps + 5);
    expect(p.notice).toBe(
      "Kill of replica 1 not applied: the DiLoCo run with failures has finished (DiLoCo without failures trains on, for q)",
    );
    expect(p.failures).toEqual(short.failures);
  });
});
