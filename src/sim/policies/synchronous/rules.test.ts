/**
 * Each rule of docs/model.md §1 on a hand-placed failure trace, with the answer worked out by
 * hand in the comment next to it. Base cluster: 4 hosts of 8 GPUs, 4 replicas of one host each,
 * a 3-hour horizon (10,800 s), detection 60 s (fail-stop) / 600 s (hang), sync restart 540 s,
 * FT-HSDP: replica restart 420 s, rejoin 120 s, no reconfigure, no catch-up, minReplicas 1.
 */
import { describe, expect, it } from "vitest";
import { legacyTrace } from "../../../testing/legacyTrace.ts";
import { runOnTrace } from "../../engine.ts";
import { failureTraceOf } from "../../failures/failureTrace.ts";
import { parseScenario, type ScenarioInput } from "../../scenario/index.ts";
import { FtPhase, SyncState } from "../../types.ts";
import { MAX_RECORDED_WRITES } from "./synchronous.ts";

const H = 10_800;

function scenario(overrides: ScenarioInput = {}) {
  return parseScenario({
    cluster: { gpus: 32, gpusPerHost: 8, replicas: 4, ...overrides.cluster },
    training: { days: H / 86_400, ...overrides.training },
    failures: { perHostDay: 0, ...overrides.failures },
    detection: { failStopSeconds: 60, hangSeconds: 600, ...overrides.detection },
    sync: { restartSeconds: 540, checkpointMinutes: 0, checkpointWriteSeconds: 0, ...overrides.sync },
    ft: {
      reconfigureSeconds: 0,
      replicaRestartSeconds: 420,
      catchUp: "nonBlocking",
      catchUpSeconds: 0,
      rejoinSeconds: 120,
      minReplicas: 1,
      ...overrides.ft,
    },
  });
}

type Row = { time: number; host: number; hang?: boolean };
function run(rows: Row[], overrides: ScenarioInput = {}) {
  const s = scenario(overrides);
  return runOnTrace(s, failureTraceOf(s, rows), true);
}

function ftRows(r: ReturnType<typeof run>, replica: number) {
  const ft = legacyTrace(r.trace!).ft;
  const rows: [number, number, number][] = [];
  for (let i = 0; i < ft.replica.length; i++) {
    if (ft.replica[i] === replica) rows.push([ft.phase[i]!, ft.start[i]!, ft.end[i]!]);
  }
  return rows;
}

function syncRows(r: ReturnType<typeof run>, state: SyncState) {
  const sync = legacyTrace(r.trace!).sync;
  const rows: [number, number][] = [];
  for (let i = 0; i < sync.state.length; i++) {
    if (sync.state[i] === state) rows.push([sync.start[i]!, sync.end[i]!]);
  }
  return rows;
}

describe("detection", () => {
  it("a fail-stop is detected after failStopSeconds, a hang after hangSeconds", () => {
    const failStop = run([{ time: 1000, host: 0 }]);
    // sync: 60 + 540 stopped; FT: 60 + 120 stalled, 420 s on 3 of 4 replicas.
    expect(failStop.synchronous!.stallSeconds).toBe(600);
    expect(failStop.synchronous!.usefulSeconds).toBe(H - 600);
    expect(failStop.ftHsdp!.stallSeconds).toBe(180);
    expect(failStop.ftHsdp!.usefulSeconds).toBe(H - 180 - 420 / 4);

    const hang = run([{ time: 1000, host: 0, hang: true }]);
    expect(hang.synchronous!.stallSeconds).toBe(1140);
    expect(hang.ftHsdp!.stallSeconds).toBe(720);
    expect(hang.ftHsdp!.usefulSeconds).toBe(H - 720 - 420 / 4);
    expect(hang.trace!.failures.detectSeconds[0]).toBe(600);
    expect(ftRows(hang, 0)).toEqual([
      [FtPhase.detect, 1000, 1600],
      [FtPhase.restart, 1600, 2020],
      [FtPhase.rejoin, 2020, 2140],
    ]);
  });

  it("FTAR reconfiguration lengthens the detection stall", () => {
    const r = run([{ time: 1000, host: 0 }], { ft: { reconfigureSeconds: 30 } });
    expect(r.ftHsdp!.stallSeconds).toBe(210);
    expect(ftRows(r, 0)[0]).toEqual([FtPhase.detect, 1000, 1090]);
  });
});

describe("synchronous: a failure during recovery restarts the recovery", () => {
  it("from the new failure, with its own detection delay", () => {
    // 1000: recovery to 1600; hit at 1300: recovery again, to 1900.
    const r = run([
      { time: 1000, host: 0 },
      { time: 1300, host: 3 },
    ]);
    expect(r.synchronous!.stallSeconds).toBe(900);
    expect(r.synchronous!.usefulSeconds).toBe(H - 900);
    expect(Array.from(legacyTrace(r.trace!).failures.syncStallSeconds)).toEqual([300, 600]);
    expect(syncRows(r, SyncState.recovering)).toEqual([
      [1000, 1300],
      [1300, 1900],
    ]);
  });

  it("even when the new recovery ends sooner than the one it replaced", () => {
    // A hang at 1000 would recover until 2140; a fail-stop at 1100 restarts it: done at 1700.
    const r = run([
      { time: 1000, host: 0, hang: true },
      { time: 1100, host: 1 },
    ]);
    expect(r.synchronous!.stallSeconds).toBe(700);
  });
});

describe("FT-HSDP: a failure during a replica's recovery restarts its phase sequence", () => {
  it("during the restart phase", () => {
    // Replica 0: detect [1000,1060], restart from 1060, hit at 1200: detect [1200,1260],
    // restart [1260,1680], rejoin [1680,1800]. Stalled 60 + 60 + 120; degraded 140 + 420.
    const r = run([
      { time: 1000, host: 0 },
      { time: 1200, host: 0 },
    ]);
    expect(ftRows(r, 0)).toEqual([
      [FtPhase.detect, 1000, 1060],
      [FtPhase.restart, 1060, 1200],
      [FtPhase.detect, 1200, 1260],
      [FtPhase.restart, 1260, 1680],
      [FtPhase.rejoin, 1680, 1800],
    ]);
    expect(r.ftHsdp!.stallSeconds).toBe(240);
    expect(r.ftHsdp!.degradedSeconds).toBe(560);
    expect(r.ftHsdp!.usefulSeconds).toBe(H - 240 - 560 / 4);
  });

  it("during the rejoin phase", () => {
    // Rejoin [1480,1600] cut at 1500; the sequence starts over: done at 2100.
    const r = run([
      { time: 1000, host: 0 },
      { time: 1500, host: 0 },
    ]);
    expect(ftRows(r, 0)).toEqual([
      [FtPhase.detect, 1000, 1060],
      [FtPhase.restart, 1060, 1480],
      [FtPhase.rejoin, 1480, 1500],
      [FtPhase.detect, 1500, 1560],
      [FtPhase.restart, 1560, 1980],
      [FtPhase.rejoin, 1980, 2100],
    ]);
    expect(r.ftHsdp!.stallSeconds).toBe(60 + 20 + 60 + 120);
  });

  it("at the very instant a phase ends: the new sequence starts, and no empty phase is drawn", () => {
    const r = run([
      { time: 1000, host: 0 },
      { time: 1060, host: 0 },
    ]);
    expect(ftRows(r, 0)).toEqual([
      [FtPhase.detect, 1000, 1060],
      [FtPhase.detect, 1060, 1120],
      [FtPhase.restart, 1120, 1540],
      [FtPhase.rejoin, 1540, 1660],
    ]);
    expect(r.ftHsdp!.stallSeconds).toBe(120 + 120);
  });

  it("a failure of another replica leaves the first one's phases alone", () => {
    const r = run([
      { time: 1000, host: 0 },
      { time: 1200, host: 1 },
    ]);
    expect(ftRows(r, 0)).toEqual([
      [FtPhase.detect, 1000, 1060],
      [FtPhase.restart, 1060, 1480],
      [FtPhase.rejoin, 1480, 1600],
    ]);
  });
});

describe("checkpoints (10 min interval, 30 s write: a 630 s cycle)", () => {
  const ckpt: ScenarioInput = { sync: { checkpointMinutes: 10, checkpointWriteSeconds: 30 } };

  it("a failure rolls back the training since the last completed checkpoint", () => {
    // Failure at 2000: 3 checkpoints done (by 1890), 110 s of training since then is lost.
    // Restart at 2600; 8,200 s left: 13 cycles and 10 s pending, which counts at the horizon.
    const r = run([{ time: 2000, host: 0 }], ckpt);
    const m = r.synchronous;
    expect(m!.lostWorkSeconds).toBe(110);
    expect(m!.checkpoints).toBe(16);
    expect(m!.checkpointSeconds).toBe(16 * 30);
    expect(m!.usefulSeconds).toBe(3 * 600 + 13 * 600 + 10);
    expect(m!.usefulSeconds + m!.lostWorkSeconds + m!.stallSeconds + m!.checkpointSeconds).toBe(H);
    expect(syncRows(r, SyncState.rolledBack)).toEqual([[1890, 2000]]);
    expect(legacyTrace(r.trace!).failures.syncLostSeconds[0]).toBe(110);
  });

  it("a failure during a write loses that checkpoint too", () => {
    // Failure at 1880, 20 s into the third write (1860–1890): back to the second checkpoint
    // (1260): 600 s lost. Then 8,320 s: 13 cycles, 130 s pending.
    const r = run([{ time: 1880, host: 0 }], ckpt);
    const m = r.synchronous;
    expect(m!.lostWorkSeconds).toBe(600);
    expect(m!.checkpoints).toBe(2 + 13);
    expect(m!.checkpointSeconds).toBe(2 * 30 + 20 + 13 * 30);
    expect(m!.usefulSeconds).toBe(2 * 600 + 13 * 600 + 130);
    expect(syncRows(r, SyncState.rolledBack)).toEqual([[1260, 1860]]);
    expect(syncRows(r, SyncState.checkpointing).slice(0, 3)).toEqual([
      [600, 630],
      [1230, 1260],
      [1860, 1880],
    ]);
  });

  it("checkpointMinutes = 0: nothing is rolled back and nothing is written", () => {
    const r = run([{ time: 2000, host: 0 }], { sync: { checkpointMinutes: 0, checkpointWriteSeconds: 300 } });
    expect(r.synchronous!.lostWorkSeconds).toBe(0);
    expect(r.synchronous!.checkpointSeconds).toBe(0);
    expect(r.synchronous!.usefulSeconds).toBe(H - 600);
  });

  it("a failure during recovery rolls nothing back (nothing was trained)", () => {
    const r = run(
      [
        { time: 2000, host: 0 },
        { time: 2100, host: 0 },
      ],
      ckpt,
    );
    expect(r.synchronous!.lostWorkSeconds).toBe(110);
  });
});

describe("catch-up", () => {
  it("non-blocking: the replica stays down, the others train; blocking: everyone waits", () => {
    const rows = [{ time: 1000, host: 0 }];
    const free = run(rows, { ft: { catchUpSeconds: 300, catchUp: "nonBlocking" } }).ftHsdp;
    expect(free!.stallSeconds).toBe(180);
    expect(free!.degradedSeconds).toBe(720);
    expect(free!.usefulSeconds).toBe(H - 180 - 720 / 4);

    const blocking = run(rows, { ft: { catchUpSeconds: 300, catchUp: "blocking" } }).ftHsdp;
    expect(blocking!.stallSeconds).toBe(480);
    expect(blocking!.degradedSeconds).toBe(420);
    expect(blocking!.usefulSeconds).toBe(H - 480 - 420 / 4);
  });
});

describe("minReplicas", () => {
  it("with minReplicas = R, any replica down stops training", () => {
    const r = run([{ time: 1000, host: 0 }], { ft: { minReplicas: 4 } });
    expect(r.ftHsdp!.stallSeconds).toBe(600);
    expect(r.ftHsdp!.degradedSeconds).toBe(0);
    expect(r.ftHsdp!.usefulSeconds).toBe(H - 600);
  });

  it("training stops while fewer than minReplicas are healthy", () => {
    // Replica 0 down 1000–1600, replica 1 down 1100–1700. minReplicas 3: stalled 1000–1060
    // (detect) and 1100–1700 (two down, then replica 1's rejoin); 3/4 rate for 1060–1100.
    const rows = [
      { time: 1000, host: 0 },
      { time: 1100, host: 1 },
    ];
    const three = run(rows, { ft: { minReplicas: 3 } });
    expect(three.ftHsdp!.stallSeconds).toBe(660);
    expect(three.ftHsdp!.usefulSeconds).toBe(H - 660 - 40 + 40 * (3 / 4));
    expect(Array.from(legacyTrace(three.trace!).ftStalls.start)).toEqual([1000, 1100]);
    expect(Array.from(legacyTrace(three.trace!).ftStalls.end)).toEqual([1060, 1700]);

    // minReplicas 1: stalled 1000–1060, 1100–1160, 1480–1700; 3/4 rate for 1060–1100, 2/4 for 1160–1480.
    const one = run(rows).ftHsdp;
    expect(one!.stallSeconds).toBe(340);
    expect(one!.usefulSeconds).toBe(H - 340 - 40 - 320 + 40 * (3 / 4) + 320 * (2 / 4));
  });
});

describe("stalls of different replicas overlap", () => {
  it("two replicas failing together stall once, and run on half the cluster meanwhile", () => {
    const r = run([
      { time: 1000, host: 0 },
      { time: 1000, host: 1 },
    ]);
    expect(r.ftHsdp!.stallSeconds).toBe(180);
    expect(r.ftHsdp!.usefulSeconds).toBe(H - 180 - 420 * (2 / 4));
    expect(r.ftHsdp!.secondsWithKDown[2]).toBe(600);
    expect(r.ftHsdp!.secondsWithKDown[0]).toBe(H - 600);
  });

  it("each stalled second is owed to the earliest failure stalling then", () => {
    // A (replica 0) at 1000: stalls 1000–1060 and 1480–1600. B (replica 1) at 1030: 1030–1090
    // and 1510–1630. A: 60 + 120; B: only what A does not cover, 30 + 30.
    const r = run([
      { time: 1000, host: 0 },
      { time: 1030, host: 1 },
    ]);
    expect(Array.from(legacyTrace(r.trace!).failures.ftStallSeconds)).toEqual([180, 60]);
    expect(r.ftHsdp!.stallSeconds).toBe(240);
  });
});

describe("the horizon", () => {
  it("cuts a recovery in progress, and counts the training pending before it", () => {
    const r = run([{ time: H - 100, host: 0 }], {
      sync: { checkpointMinutes: 10, checkpointWriteSeconds: 30 },
    });
    expect(r.synchronous!.stallSeconds).toBe(100);
    expect(r.ftHsdp!.stallSeconds).toBe(60);
    // FT: 40 s on 3 of 4 replicas before the horizon.
    expect(r.ftHsdp!.usefulSeconds).toBe(H - 100 + 40 * (3 / 4));
    expect(legacyTrace(r.trace!).ft.end.every((e) => e <= H)).toBe(true);
  });
});

describe("recording", () => {
  it("leaves out individual checkpoint writes when there would be too many, and changes no metric", () => {
    // A 0.7 s cycle (the shortest interval a scenario allows, 0.01 min, + 0.1 s) over half a day:
    // 61,714 writes.
    const overrides: ScenarioInput = {
      training: { days: 0.5 },
      sync: { checkpointMinutes: 0.01, checkpointWriteSeconds: 0.1 },
    };
    expect(43_200 / 0.7).toBeGreaterThan(MAX_RECORDED_WRITES);
    const s = scenario(overrides);
    const rows = [{ time: 5000.2, host: 0 }];
    const recorded = runOnTrace(s, failureTraceOf(s, rows), true);
    const plain = runOnTrace(s, failureTraceOf(s, rows), false);
    expect(recorded.synchronous).toEqual(plain.synchronous);
    expect(recorded.synchronous!.checkpoints).toBeGreaterThan(MAX_RECORDED_WRITES);
    const t = legacyTrace(recorded.trace!);
    expect(t.sync.state.length).toBeLessThan(10);
    expect(t.progress.synchronous.t.length).toBeLessThan(20);
    expect(t.progress.synchronous.useful.at(-1)).toBe(plain.synchronous!.usefulSeconds);
  });
});
