import { describe, expect, it } from "vitest";
import { monteCarlo } from "../sim/monteCarlo/monteCarlo.ts";
import { parseScenario } from "../sim/scenario/index.ts";
import { V3_POLICIES } from "../testing/scenario.arbitrary.ts";
import { parallelMonteCarlo, prestartWorkers, sliceRuns } from "./parallelMonteCarlo.ts";

// Slices of 5 runs, so 40 seeds make 8 slices shared between the workers.
const s = parseScenario({
  seed: 4_294_967_290, // seeds wrap past 2^32 − 1 inside the run
  cluster: { gpus: 4096, replicas: 8 },
  training: { days: 2 },
  failures: { perHostDay: 10, hangFraction: 0.2 },
  sync: { checkpointMinutes: 30, checkpointWriteSeconds: 20 },
});

describe("parallelMonteCarlo", { timeout: 120_000 }, () => {
  it("gives monteCarlo's numbers bit for bit in-process, on 1 worker, on 2 workers (one of them prestarted), and with the main thread helping", async () => {
    expect(sliceRuns(s)).toBeLessThan(8);
    const reference = monteCarlo(s, 40);
    const progress: number[] = [];
    const oneWorker = await parallelMonteCarlo(s, 40, { workers: 1, mainThreadWorks: false });
    const twoWorkers = await parallelMonteCarlo(s, 40, {
      workers: 2,
      mainThreadWorks: false,
      onProgress: (done) => progress.push(done),
    });
    const helped = await parallelMonteCarlo(s, 40, { workers: 1 });
    const inProcess = await parallelMonteCarlo(s, 40, { workers: 0 });
    // Started before the scenario was known (as the CLI's entry does), and taken with a new one.
    prestartWorkers(1);
    const prestarted = await parallelMonteCarlo(s, 40, { workers: 2, mainThreadWorks: false });
    for (const r of [oneWorker, twoWorkers, helped, inProcess, prestarted])
      expect(r).toStrictEqual(reference);
    // Progress counts seeds added in order, up to all of them.
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(40);
  });

  it("adds a cause mix's counts and stalls and every policy's badput from the threads' packed rows bit for bit", async () => {
    // Each thread's slice comes back packed; the main thread adds it without unpacking, so every
    // column of the row (causes, four policies) must land where monteCarlo puts it.
    const mixed = parseScenario({
      cluster: { gpus: 4096, replicas: 8, hostsPerRack: 4 },
      training: { days: 2 },
      failures: {
        perHostDay: 10,
        causes: [
          { name: "gpu", share: 0.7, scope: "host", hang: false, newHost: true },
          { name: "switch", share: 0.2, scope: "rack", hang: true, newHost: false },
          { name: "storage", share: 0.1, scope: "job", hang: false, newHost: false },
        ],
      },
      spares: { pool: "limited", hosts: 6, repairHours: 4 },
      policies: [...V3_POLICIES],
    });
    expect(sliceRuns(mixed)).toBeLessThan(6);
    const reference = monteCarlo(mixed, 16);
    expect(await parallelMonteCarlo(mixed, 16, { workers: 1 })).toStrictEqual(reference);
  });
});
