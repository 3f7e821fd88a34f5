/**
 * FT-HSDP checkpoints (docs/model.md §3) at their edges, on hand-placed traces with the answer
 * worked out by hand beside each: what stallSeconds counts while a write runs, a write ending
 * exactly at the horizon, and a checkpoint falling due at the instant a global stall begins.
 * Cluster: 4 hosts of 8 GPUs, 4 replicas of one host, a 3-hour horizon (10,800 s), fail-stop
 * detection 60 s, replica restart 420 s, rejoin 120 s, no catch-up, minReplicas 1, sync restart
 * 540 s; FT checkpoints every 10 min (600 s of training) with a 30 s write unless said otherwise.
 */
import { describe, expect, it } from "vitest";
import { legacyTrace } from "../../../testing/legacyTrace.ts";
import { runOnTrace } from "../../engine.ts";
import { failureTraceOf, type PlacedFailure } from "../../failures/failureTrace.ts";
import { parseScenario, type ScenarioInput } from "../../scenario/index.ts";
import { FtJobState } from "../../types.ts";

const H = 10_800;
const HOST_FAILURE = { name: "host", share: 1, scope: "host", hang: false, newHost: true } as const;
const JOB_FAILURE = { name: "job", share: 1, scope: "job", hang: false, newHost: false } as const;

function run(rows: PlacedFailure[], overrides: ScenarioInput = {}) {
  const s = parseScenario({
    cluster: { gpus: 32, gpusPerHost: 8, replicas: 4 },
    training: { days: H / 86_400 },
    failures: { perHostDay: 0, hangFraction: 0, causes: [HOST_FAILURE, JOB_FAILURE] },
    detection: { failStopSeconds: 60, hangSeconds: 600 },
    sync: { restartSeconds: 540, checkpointMinutes: 0, checkpointWriteSeconds: 0, ...overrides.sync },
    ft: {
      reconfigureSeconds: 0,
      replicaRestartSeconds: 420,
      catchUp: "nonBlocking",
      catchUpSeconds: 0,
      rejoinSeconds: 120,
      minReplicas: 1,
      checkpointMinutes: 10,
      checkpointWriteSeconds: 30,
      ...overrides.ft,
    },
  });
  return runOnTrace(s, failureTraceOf(s, rows), true);
}

function writes(r: ReturnType<typeof run>): [number, number][] {
  const job = legacyTrace(r.trace!).ftJob;
  const rows: [number, number][] = [];
  for (let i = 0; i < job.state.length; i++) {
    if (job.state[i] === FtJobState.checkpointing) rows.push([job.start[i]!, job.end[i]!]);
  }
  return rows;
}

describe("FT-HSDP stallSeconds: failures only; a write is checkpointSeconds", () => {
  it("with no failures, writes stall training but count no stall", () => {
    // Writes 600–630, 1230–1260, …, the k-th ending at 630k ≤ 10,800: 17 of them.
    const m = run([]).ftHsdp;
    expect(m!.checkpoints).toBe(17);
    expect(m!.checkpointSeconds).toBe(17 * 30);
    expect(m!.stallSeconds).toBe(0);
    expect(m!.usefulSeconds).toBe(H - 17 * 30);
  });

  it("a write overlapping a failure's stall: the overlap is failure stall, the rest is the write's", () => {
    // Write 600–630; host 0 fails at 610: detect 610–670 (stall), restart 670–1090 (down, the
    // other three train at 3/4), rejoin 1090–1210 (stall). The host failure does not abort the
    // write. Interval restarts at 630: 420 s of training by 1090, 180 more from 1210 → write
    // 1390–1420, then every 630 s: 1390 + 630k ends ≤ 10,800 for k = 0 … 14. 16 writes in all.
    // Failure stall 60 + 120 = 180 (610–630 of the write lies in it); write-only 10 + 15 × 30.
    const r = run([{ time: 610, host: 0, cause: 0 }]);
    const m = r.ftHsdp;
    expect(m!.checkpoints).toBe(16);
    expect(m!.checkpointSeconds).toBe(16 * 30);
    expect(m!.stallSeconds).toBe(180);
    expect(Array.from(m!.causeStallSeconds)).toEqual([180, 0]);
    expect(m!.degradedSeconds).toBe(420);
    // Wall minus time stalled by anything (70 + 120 + 450) minus the degraded loss 420/4.
    expect(m!.usefulSeconds).toBe(H - 640 - 105);
    // The recorded stall spans are the failure's; the writes are on the job track.
    const { start, end } = legacyTrace(r.trace!).ftStalls;
    expect([Array.from(start), Array.from(end)]).toEqual([
      [610, 1090],
      [670, 1210],
    ]);
    expect(writes(r).slice(0, 2)).toEqual([
      [600, 630],
      [1390, 1420],
    ]);
  });
});

describe("a write that ends exactly at the horizon completes", () => {
  it("as the synchronous job's does", () => {
    // 600 s of training + 75 s write = 675 s cycle; 16 cycles = 10,800: the 16th write ends at H.
    const r = run([], {
      sync: { checkpointMinutes: 10, checkpointWriteSeconds: 75 },
      ft: { checkpointWriteSeconds: 75 },
    });
    expect(r.ftHsdp!.checkpoints).toBe(16);
    expect(r.synchronous!.checkpoints).toBe(16);
    expect(r.ftHsdp!.checkpointSeconds).toBe(16 * 75);
    expect(r.ftHsdp!.stallSeconds).toBe(0);
    expect(r.ftHsdp!.usefulSeconds).toBe(H - 16 * 75);
    expect(writes(r).at(-1)).toEqual([H - 75, H]);
  });

  it("a zero-length write due at the horizon too", () => {
    // Due every 600 s of training, no write time: the 18th falls due at 10,800 = H.
    const r = run([], {
      sync: { checkpointMinutes: 10, checkpointWriteSeconds: 0 },
      ft: { checkpointWriteSeconds: 0 },
    });
    expect(r.ftHsdp!.checkpoints).toBe(18);
    expect(r.synchronous!.checkpoints).toBe(18);
  });

  it("one that would end after it does not", () => {
    // 76 s writes: the 16th starts at 15 × 676 + 600 = 10,740 and would end at 10,816 > H.
    const r = run([], { ft: { checkpointWriteSeconds: 76 } });
    expect(r.ftHsdp!.checkpoints).toBe(15);
    expect(r.ftHsdp!.checkpointSeconds).toBe(15 * 76 + 60);
  });
});

describe("a checkpoint due at the instant a global stall begins starts at that instant", () => {
  // Host 0 fails at 180: detect 180–240, restart 240–660 (the others train), rejoin 660–780.
  // Training time: 180 + 420 = 600 at 660, so the checkpoint falls due as the rejoin begins.
  it("rather than after the stall: it saves the progress reached then", () => {
    // Write 660–690, inside the rejoin (no write-only stall). The interval restarts at 690 but
    // counts from 780: next write 1380–1410, then every 630 s, ending ≤ 10,800 for 15 of them.
    const r = run([{ time: 180, host: 0, cause: 0 }]);
    const m = r.ftHsdp;
    expect(writes(r).slice(0, 2)).toEqual([
      [660, 690],
      [1380, 1410],
    ]);
    expect(m!.checkpoints).toBe(16);
    expect(m!.stallSeconds).toBe(60 + 120);
    expect(Array.from(m!.causeStallSeconds)).toEqual([180, 0]);
    // Wall minus stalls (180 + 15 × 30 write-only) minus the degraded loss 420/4.
    expect(m!.usefulSeconds).toBe(H - 180 - 450 - 105);
  });

  it("so a job failure after it rolls back nothing trained before the stall", () => {
    // Progress at 660 is 180 + 420 × 3/4 = 495, saved by the write 660–690. The job failure at
    // 700 (cancelling the rejoin) rolls back to 495: nothing lost (no training since 660). Job
    // restart 700–1300 (60 + 540); the interval counts from 1300: writes 1900 + 630k, 15 of them.
    const r = run([
      { time: 180, host: 0, cause: 0 },
      { time: 700, scope: "job", cause: 1 },
    ]);
    const m = r.ftHsdp;
    expect(m!.lostWorkSeconds).toBe(0);
    expect(m!.jobRestarts).toBe(1);
    expect(m!.checkpoints).toBe(16);
    // Stall: detect 60, rejoin until the job failure 40, job restart 600.
    expect(m!.stallSeconds).toBe(700);
    expect(Array.from(m!.causeStallSeconds)).toEqual([100, 600]);
    expect(m!.usefulSeconds).toBe(495 + (H - 1300 - 15 * 30));
  });
});
