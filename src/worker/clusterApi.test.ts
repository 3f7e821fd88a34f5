import { describe, expect, it } from "vitest";
import { derived } from "../sim/derived.ts";
import { monteCarlo } from "../sim/monteCarlo.ts";
import { parseScenario } from "../sim/scenario.ts";
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
