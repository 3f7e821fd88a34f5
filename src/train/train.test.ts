import { describe, expect, it } from "vitest";
import { DEFAULT_SCENARIO } from "../sim/scenario/index.ts";
import { recoveryCosts } from "./clock.ts";
import {
  checkTrainConfig,
  DEFAULT_TRAIN,
  decodeTrainParam,
  encodeTrainParam,
  LINK_BASE,
  TrainConfigError,
} from "./config.ts";
import { CpuTrainer } from "./cpuTrainer.ts";
import { makeDataSet } from "./data.ts";
import { lossAndGradient } from "./mlp.ts";
import { initialParams, layoutFor } from "./model.ts";
import { failureProblem, rolesAt, scaledLr } from "./plan.ts";
import { TrainRun } from "./run.ts";

const data = makeDataSet(3);

describe("the MLP's gradient", () => {
  it("matches central finite differences of the float64 loss", () => {
    const layout = layoutFor(32);
    const w = Float64Array.from(initialParams(layout, 5));
    const g = new Float64Array(layout.count);
    lossAndGradient(layout, w, data.train, 100, 16, g);
    const scratch = new Float64Array(layout.count);
    const lossAt = (p: Float64Array) => lossAndGradient(layout, p, data.train, 100, 16, scratch);
    // Every layer's weights and biases, a spread of indices in each.
    const picks = layout.layers.flatMap((L) => [L.w, L.w + 7, L.b - 1, L.b, L.b + L.fanOut - 1]);
    for (const i of picks) {
      const h = 1e-6;
      const p = w.slice();
      p[i] = (w[i] as number) + h;
      const up = lossAt(p);
      p[i] = (w[i] as number) - h;
      const down = lossAt(p);
      const fd = (up - down) / (2 * h);
      expect(Math.abs(fd - (g[i] as number))).toBeLessThan(1e-7 + 1e-5 * Math.abs(fd));
    }
  });
});

describe("lr policies", () => {
  it("scale the learning rate by healthy/R, its square root, or not at all", () => {
    expect(scaledLr("none", 0.2, 3, 4)).toBe(0.2);
    expect(scaledLr("linear", 0.2, 3, 4)).toBeCloseTo(0.15, 15);
    expect(scaledLr("sqrt", 0.2, 3, 4)).toBeCloseTo(0.2 * Math.sqrt(0.75), 15);
    for (const p of ["none", "linear", "sqrt"] as const) expect(scaledLr(p, 0.2, 4, 4)).toBe(0.2);
  });
});

describe("the catch-up rule", () => {
  const fs = [{ replica: 1, step: 10, down: 5 }];
  it("drops the replica for k steps, then lets it heal with a zero gradient that is not counted", () => {
    expect(rolesAt(fs, 4, 9)).toMatchObject({ compute: [0, 1, 2, 3], heal: [], failing: [], divisor: 4 });
    expect(rolesAt(fs, 4, 10)).toMatchObject({
      compute: [0, 2, 3],
      failing: [1],
      ring: [0, 2, 3],
      divisor: 3,
    });
    expect(rolesAt(fs, 4, 14)).toMatchObject({ compute: [0, 2, 3], failing: [], divisor: 3 });
    expect(rolesAt(fs, 4, 15)).toMatchObject({
      compute: [0, 2, 3],
      heal: [1],
      ring: [0, 1, 2, 3],
      divisor: 3,
    });
    expect(rolesAt(fs, 4, 16)).toMatchObject({ compute: [0, 1, 2, 3], heal: [], divisor: 4 });
  });

  it("refuses a failure of a replica that is already out, or one that leaves nobody training", () => {
    expect(failureProblem(fs, { replica: 1, step: 12, down: 3 }, 4, 100)).toMatch(/already down/);
    expect(
      failureProblem([{ replica: 0, step: 5, down: 5 }], { replica: 1, step: 6, down: 2 }, 2, 100),
    ).toMatch(/no replica would be left/);
    expect(failureProblem(fs, { replica: 2, step: 12, down: 3 }, 4, 100)).toBeNull();
  });

  it("keeps the healed replica bit-identical to its peers (float32 CPU, the lab's ring)", async () => {
    const layout = layoutFor(32);
    const init = initialParams(layout, 2);
    const trainer = new CpuTrainer(layout, data, 4, init, "float32");
    const run = new TrainRun(
      { id: "ft", kind: "ft", policy: "linear" },
      trainer,
      fs,
      20,
      0.3,
      5,
      recoveryCosts(DEFAULT_SCENARIO),
    );
    while (!run.done) await run.tick();
    expect(run.checks).toMatchObject({ compared: 20, mismatches: 0, catchUps: 1, catchUpsIdentical: 1 });
    // And the replica really lost its memory: before the copy it was NaN.
    const w = await trainer.weights(1);
    expect(w.every((x) => Number.isFinite(x))).toBe(true);
    expect(await trainer.hash(1)).toBe(await trainer.hash(0));
  });

  it("a zero-gradient healer changes nothing: the ring's average equals the computing replicas' average", async () => {
    const layout = layoutFor(32);
    const init = initialParams(layout, 2);
    const withHealer = new CpuTrainer(layout, data, 3, init, "float64");
    const without = new CpuTrainer(layout, data, 3, init, "float64");
    const roles = rolesAt([{ replica: 2, step: 0, down: 0 }], 3, 0);
    // A healer at step 0 (down 0 steps) versus the same two replicas alone.
    const heal = { ...roles, compute: [0, 1], heal: [2], ring: [0, 1, 2], divisor: 2 };
    const alone = { compute: [0, 1], heal: [], failing: [], ring: [0, 1], divisor: 2 };
    await withHealer.step(0, heal, 0.1);
    await without.step(0, alone, 0.1);
    expect(await withHealer.weights(2)).toEqual(await without.weights(0));
    expect(await withHealer.weights(0)).toEqual(await without.weights(0));
  });
});

describe("synchronous rollback", () => {
  it("restores the checkpoint and replays to the same weights as a run without the failure", async () => {
    const layout = layoutFor(32);
    const init = initialParams(layout, 4);
    const costs = recoveryCosts(DEFAULT_SCENARIO);
    const sync = new TrainRun(
      { id: "s", kind: "sync", policy: "none" },
      new CpuTrainer(layout, data, 2, init, "float64"),
      [{ replica: 1, step: 13, down: 4 }],
      20,
      0.3,
      5,
      costs,
    );
    const base = new TrainRun(
      { id: "b", kind: "baseline", policy: "none" },
      new CpuTrainer(layout, data, 2, init, "float64"),
      [],
      20,
      0.3,
      5,
      costs,
    );
    while (!sync.done) await sync.tick();
    while (!base.done) await base.tick();
    expect(sync.checks).toMatchObject({ rollbacks: 1, rollbacksIdentical: 1 });
    expect(await sync.backend.weights(0)).toEqual(await base.backend.weights(0));
    // 20 steps, 3 redone (10, 11, 12), one restart.
    expect(sync.snapshot().t).toBe(23 * costs.stepSeconds + costs.syncFailureStall);
  });
});

describe("the training link", () => {
  it("round-trips every setting", () => {
    const c = {
      ...DEFAULT_TRAIN,
      hidden: 32,
      replicas: 6,
      lr: 0.05,
      seed: 9,
      policies: ["sqrt" as const],
      failures: [
        { replica: 5, step: 30, down: 7 },
        { replica: 0, step: 31, down: 2 },
      ],
    };
    expect(decodeTrainParam(encodeTrainParam(c))).toEqual(c);
    expect(decodeTrainParam(encodeTrainParam(DEFAULT_TRAIN))).toEqual(DEFAULT_TRAIN);
  });

  it("keeps a shortened link's meaning when the view's defaults change: missing fields take LINK_BASE's", () => {
    // Links written before the defaults moved to h64, lr 0.1 read as they did then.
    expect(decodeTrainParam("r6")).toEqual({ ...LINK_BASE, replicas: 6 });
    expect(decodeTrainParam("r6")).toMatchObject({ hidden: 128, lr: 0.3 });
    expect(DEFAULT_TRAIN).toMatchObject({ hidden: 64, lr: 0.1 });
  });

  it("names the bad field", () => {
    expect(() => decodeTrainParam("r9")).toThrow(/replicas must be an integer in \[2, 8\]/);
    expect(() => decodeTrainParam("lr2")).toThrow(/lr must be a number in \(0, 1\]/);
    expect(() => decodeTrainParam("f1@x")).toThrow(TrainConfigError);
    expect(() =>
      checkTrainConfig({ ...DEFAULT_TRAIN, failures: [{ replica: 4, step: 5, down: 1 }] }),
    ).toThrow(/replica must be an integer in \[0, 3\]/);
  });
});
