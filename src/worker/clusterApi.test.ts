import { describe, expect, it } from "vitest";
import { runScenario } from "../sim/engine.ts";
import { monteCarlo } from "../sim/monteCarlo/monteCarlo.ts";
import { buildRecoveryIndex, primeRecoveryIndex } from "../sim/recovery/recoveryIndex.ts";
import { recoveryWaterfall } from "../sim/recovery/recoveryWaterfall.ts";
import { derived } from "../sim/scenario/derived.ts";
import { parseScenario } from "../sim/scenario/index.ts";
import { everyV2Part } from "../testing/everyV2Part.ts";
import { clusterApi } from "./clusterApi.ts";

describe("the worker's Monte Carlo", () => {
  it("ticks after every run of a large scenario (the watchdog and a newer request never wait long), with the numbers of monteCarlo()", async () => {
    // About 60,000 failures a run: past one slice's 50,000, so a slice is one run.
    const big = parseScenario({
      cluster: { gpus: 786_432 },
      failures: { perHostDay: 0.5 },
      training: { days: 1.2 },
    });
    expect(derived(big).expectedFailures).toBeGreaterThan(50_000);
    const ticks: number[] = [];
    const mc = await clusterApi.clusterMonteCarlo(big, 4, (done) => ticks.push(done));
    expect(ticks).toEqual([1, 2, 3, 4]);
    expect(mc).toEqual(monteCarlo(big, 4));
  });

  it("ticks every 25 runs of a small one", async () => {
    const small = parseScenario({ training: { days: 1 } });
    const ticks: number[] = [];
    await clusterApi.clusterMonteCarlo(small, 60, (done) => ticks.push(done));
    expect(ticks).toEqual([25, 50, 60]);
  });

  it("sends, when asked, the summary of the runs so far: the first k seeds' own Monte Carlo", async () => {
    const small = parseScenario({ training: { days: 1 } });
    const soFar: [number, unknown][] = [];
    await clusterApi.clusterMonteCarlo(
      small,
      60,
      (done, _total, partial) => soFar.push([done, partial]),
      true,
    );
    expect(soFar.map(([done]) => done)).toEqual([25, 50, 60]);
    expect(soFar[0]![1]).toEqual(monteCarlo(small, 25));
    expect(soFar[1]![1]).toEqual(monteCarlo(small, 50));
    expect(soFar[2]![1]).toBeUndefined(); // the last tick: the result itself follows
  });
});

describe("the worker's recorded run", () => {
  it("carries its trace's recovery lookups: every failure's recovery reads the same with them as with the page's own", () => {
    // Every v2 part: job-scope failures (job restarts, rollbacks), rack failures, hangs, a spare pool.
    const s = parseScenario(
      everyV2Part({ gpus: 8192, replicas: 128, perHostDay: 0.2, days: 3, spareHosts: 4 }),
    );
    const sent = clusterApi.clusterRun(s, true);
    const trace = sent.trace;
    const index = sent.recoveryIndex;
    if (!trace || !index) throw new Error("a recorded run carries its trace and its recovery lookups");
    expect(index.jobRestarts.ftHsdp?.jobStart.length).toBeGreaterThan(10);
    // The page's own: the same run recorded again, its lookups built where they are first read.
    const own = runScenario(s, { record: true }).trace;
    if (!own) throw new Error("recorded");
    expect(index).toEqual(buildRecoveryIndex(own));
    primeRecoveryIndex(trace, index);
    const R = s.cluster.replicas;
    const n = trace.failures.time.length;
    expect(n).toBeGreaterThan(100);
    let jobRestarts = 0;
    for (let i = 0; i < n; i++) {
      const w = recoveryWaterfall(trace, i, R);
      if (w.policies.some((p) => p.recovery.kind === "jobRestart")) jobRestarts++;
      expect(w).toEqual(recoveryWaterfall(own, i, R));
    }
    expect(jobRestarts).toBeGreaterThan(10);
  });
});
