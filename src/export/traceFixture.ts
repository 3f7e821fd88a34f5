/** A small hand-built trace (2 replicas, 2 failures, 1 hour) shared by the export and view tests. */
import { parseScenario, type Scenario } from "../sim/scenario.ts";
import { FtPhase, SyncState, type Trace } from "../sim/types.ts";

export const fixtureScenario: Scenario = parseScenario({
  name: "fixture",
  cluster: { gpus: 32, gpusPerHost: 8, replicas: 2 },
  training: { days: 1 / 24 },
  failures: { perHostDay: 1 },
  sync: { checkpointMinutes: 10, checkpointWriteSeconds: 5 },
});

const f64 = (xs: number[]) => Float64Array.from(xs);

/** Failure 0 at 600 s on host 1 (replica 0, fail-stop); failure 1 at 2000 s on host 3 (replica 1, hang). */
export function fixtureTrace(): Trace {
  return {
    failures: {
      time: f64([600, 2000]),
      host: Int32Array.from([1, 3]),
      replica: Int32Array.from([0, 1]),
      hang: Uint8Array.from([0, 1]),
      detectSeconds: f64([60, 600]),
      ftStallSeconds: f64([180, 720]),
      syncStallSeconds: f64([600, 1140]),
      syncLostSeconds: f64([0, 395]),
    },
    ft: {
      replica: Int32Array.from([0, 0, 0, 1, 1, 1]),
      phase: Uint8Array.from([
        FtPhase.detect,
        FtPhase.restart,
        FtPhase.rejoin,
        FtPhase.detect,
        FtPhase.restart,
        FtPhase.rejoin,
      ]),
      start: f64([600, 660, 1080, 2000, 2600, 3020]),
      end: f64([660, 1080, 1200, 2600, 3020, 3140]),
    },
    ftStalls: { start: f64([600, 1080, 2000, 3020]), end: f64([660, 1200, 2600, 3140]) },
    sync: {
      state: Uint8Array.from([
        SyncState.recovering,
        SyncState.checkpointing,
        SyncState.rolledBack,
        SyncState.recovering,
      ]),
      start: f64([600, 1800, 1805, 2000]),
      end: f64([1200, 1805, 2000, 3140]),
    },
    progress: {
      synchronous: {
        t: f64([0, 600, 1200, 2000, 2000, 3140, 3600]),
        useful: f64([0, 600, 600, 1395, 1000, 1000, 1460]),
      },
      ftHsdp: { t: f64([0, 600, 660, 1080, 1200, 3600]), useful: f64([0, 600, 600, 810, 810, 2300]) },
    },
  };
}
