/**
 * The reference's answers on the hand-placed §3 situations (./handPlaced.ts), worked out by hand
 * from docs/model.md §3 — the timelines are in the comments. These pin the reference itself;
 * ./independent.test.ts then holds the engine to the reference on the same situations.
 */
import { describe, expect, it } from "vitest";
import { HAND_SCENARIO, SITUATIONS, type Situation } from "./handPlaced.ts";
import { type ReferenceMetrics, referenceFtHsdpV2, referenceSynchronousV2 } from "./independent.ts";

const H = 8640;
type Expected = Partial<Omit<ReferenceMetrics, "perCause">> & { usefulSeconds: number };

function check(m: ReferenceMetrics, expected: Expected): void {
  for (const [key, value] of Object.entries(expected)) {
    const got = m[key as keyof Expected];
    if (Array.isArray(value)) {
      expect(got, key).toHaveLength(value.length);
      for (const [j, v] of value.entries()) expect((got as number[])[j], `${key}[${j}]`).toBeCloseTo(v, 6);
    } else expect(got, key).toBeCloseTo(value as number, 6);
  }
}

function run(situation: Situation) {
  return {
    sync: referenceSynchronousV2(HAND_SCENARIO, situation.knobs, situation.failures),
    ft: referenceFtHsdpV2(HAND_SCENARIO, situation.knobs, situation.failures),
  };
}

describe("reference on hand-placed §3 situations", () => {
  it(SITUATIONS.rackStriped!.name, () => {
    // Rack 0 = hosts 0, 1 → replicas 0 and 1 (h mod 3). Both: detect 1000–1015 (stall), restart
    // 1015–1055 and catch-up 1055–1075 (rate 1/3), rejoin 1075–1085 (stall).
    const { sync, ft } = run(SITUATIONS.rackStriped!);
    check(ft, {
      usefulSeconds: H - 25 - (60 * 2) / 3,
      stallSeconds: 25,
      degradedSeconds: 60,
      secondsWithKDown: [H - 85, 0, 85, 0],
      jobRestarts: 0,
    });
    check(sync, { usefulSeconds: H - 60, stallSeconds: 60, jobRestarts: 1 });
  });

  it(SITUATIONS.rackPacked!.name, () => {
    const { ft } = run(SITUATIONS.rackPacked!);
    check(ft, { usefulSeconds: H - 25 - 60 / 3, stallSeconds: 25, secondsWithKDown: [H - 85, 85, 0, 0] });
  });

  it(SITUATIONS.jobDuringCatchUp!.name, () => {
    // Replica 0: detect 1000–1015, restart 1015–1055, catch-up from 1055 — cut at 1060 by the job
    // failure: job restart 1060–1120 (10 + 50), then everyone healthy. No FT checkpoints: no rollback.
    const { sync, ft } = run(SITUATIONS.jobDuringCatchUp!);
    check(ft, {
      usefulSeconds: H - 15 - 60 - 45 / 3,
      stallSeconds: 75,
      degradedSeconds: 45,
      lostWorkSeconds: 0,
      jobRestarts: 1,
      secondsWithKDown: [H - 60, 60, 0, 0],
    });
    check(sync, { usefulSeconds: H - 120, stallSeconds: 120, jobRestarts: 2 });
    expect(ft.perCause.map((c) => c.count)).toEqual([1, 0, 0, 1, 0]);
    expect(ft.perCause[0]!.stallSeconds).toBeCloseTo(15, 9);
    expect(ft.perCause[3]!.stallSeconds).toBeCloseTo(60, 9);
    expect(sync.perCause[0]!.stallSeconds).toBeCloseTo(60, 9);
    expect(sync.perCause[3]!.stallSeconds).toBeCloseTo(60, 9);
  });

  it(SITUATIONS.spareDuringDetection!.name, () => {
    // One spare. Host 0 fails at 1000: its request (1010) takes the spare; host 0 is back at 1360,
    // during the detection of host 2's failure (1355–1365), whose request at 1365 is served at once.
    // The shelf is empty 1010–1360 and 1365–1715 (host 2 back).
    const { sync, ft } = run(SITUATIONS.spareDuringDetection!);
    check(ft, {
      usefulSeconds: H - 50 - 120 / 3,
      stallSeconds: 50,
      spareWaitSeconds: 0,
      longestSpareWaitSeconds: 0,
      poolEmptySeconds: 700,
    });
    check(sync, { usefulSeconds: H - 120, stallSeconds: 120, spareWaitSeconds: 0, poolEmptySeconds: 700 });
  });

  it(SITUATIONS.restartWhileWaiting!.name, () => {
    // No spares; host 0 back at 1360. Replica 0: detect 1000–1015, waitSpare 1015–1100, cut by the
    // job failure: job restart 1100–1160, then waitSpare again (its request is unserved) 1160–1360,
    // restart 1360–1400, catch-up 1400–1420, rejoin 1420–1430.
    const { sync, ft } = run(SITUATIONS.restartWhileWaiting!);
    check(ft, {
      usefulSeconds: H - 85 - 345 / 3,
      stallSeconds: 85,
      degradedSeconds: 345,
      spareWaitSeconds: 85 + 200,
      longestSpareWaitSeconds: 200,
      poolEmptySeconds: H,
      jobRestarts: 1,
      secondsWithKDown: [H - 370, 370, 0, 0],
    });
    // Sync: detect 1000–1010, waitSpare 1010–1100; again from the job failure: detect 1100–1110,
    // waitSpare 1110–1360 (the request made at 1010 is still unserved), restart 1360–1410.
    check(sync, {
      usefulSeconds: H - 410,
      stallSeconds: 410,
      spareWaitSeconds: 90 + 250,
      longestSpareWaitSeconds: 250,
      jobRestarts: 2,
    });
    // The rejoin after the job restart (1420–1430) continues host 0's recovery: its cause owns it.
    expect(ft.perCause[0]!.stallSeconds).toBeCloseTo(15 + 10, 9);
    expect(ft.perCause[3]!.stallSeconds).toBeCloseTo(60, 9);
  });

  it(SITUATIONS.checkpointLostInWrite!.name, () => {
    // FT checkpoints every 600 s of training, 30 s writes: 600–630 saves 600; 1230–1260 would save
    // 1200 but the job failure at 1250 aborts it and rolls back to 600 (600 s lost). Job restart
    // 1250–1310; then writes start at 1910 + 630 j, j = 0 … 10 (the last ends at 8240).
    const { sync, ft } = run(SITUATIONS.checkpointLostInWrite!);
    check(ft, {
      usefulSeconds: 8200 - 600,
      lostWorkSeconds: 600,
      checkpoints: 12,
      stallSeconds: 60,
      jobRestarts: 1,
    });
    check(sync, { usefulSeconds: H - 60, lostWorkSeconds: 0 });
  });

  it(SITUATIONS.repairServeStrike!.name, () => {
    // At 1360: host 0 comes back, the request of 1010 is served, then slot 0 is struck again and
    // breaks the new host: a new request at 1370, served when it is back at 1720. Replica 0:
    // detect 1000–1015, waitSpare 1015–1360, detect 1360–1375, waitSpare 1375–1720, restart
    // 1720–1760, catch-up 1760–1780, rejoin 1780–1790.
    const { sync, ft } = run(SITUATIONS.repairServeStrike!);
    check(ft, {
      usefulSeconds: H - 40 - 750 / 3,
      stallSeconds: 40,
      spareWaitSeconds: 690,
      longestSpareWaitSeconds: 345,
      secondsWithKDown: [H - 790, 790, 0, 0],
    });
    // Sync: detect 1000–1010, waitSpare 1010–1360, detect 1360–1370, waitSpare 1370–1720, restart 1720–1770.
    check(sync, {
      usefulSeconds: H - 770,
      stallSeconds: 770,
      spareWaitSeconds: 700,
      longestSpareWaitSeconds: 350,
    });
  });

  it(SITUATIONS.hangTimeout!.name, () => {
    // FT-HSDP drops the hung member after 30 s: detect 1000–1035, restart –1075, catch-up –1095,
    // rejoin 1095–1105. The synchronous job waits for the 100 s watchdog, then restarts 50 s.
    const { sync, ft } = run(SITUATIONS.hangTimeout!);
    check(ft, { usefulSeconds: H - 45 - 60 / 3, stallSeconds: 45 });
    check(sync, { usefulSeconds: H - 150, stallSeconds: 150 });
  });

  it(SITUATIONS.fcfsTie!.name, () => {
    // Hosts 4 (replica 2) and 2 (replica 1) fail at 1000; both requests at 1010, one spare: host 2
    // gets it. Replica 1: detect 1000–1015, restart –1055, catch-up –1075, rejoin 1075–1085; struck
    // again at 1100 (software, no new host): detect 1100–1115, restart –1155, catch-up –1175, rejoin
    // 1175–1185. Replica 2: detect 1000–1015, waitSpare 1015–1360, restart –1400, catch-up –1420,
    // rejoin 1420–1430. (Serving host 4 first would keep replica 1 down until 1430 instead.)
    const { ft } = run(SITUATIONS.fcfsTie!);
    check(ft, {
      usefulSeconds: H - 60 - (60 * 2) / 3 - 15 / 3 - (60 * 2) / 3 - 235 / 3,
      stallSeconds: 60,
      degradedSeconds: 370,
      spareWaitSeconds: 345,
      poolEmptySeconds: 350,
      secondsWithKDown: [H - 430, 260, 170, 0],
    });
  });

  it(SITUATIONS.lateRequestWhileWaiting!.name, () => {
    // No spares. Host 0 hangs at 1000 (found at 1100); host 1 of the same replica dies at 1010:
    // detect 1010–1025, then waitSpare for the requests already made: host 1's (1020). Host 0's,
    // made at 1100 while the replica waits, does not hold it back (§3 "Rules at the edges").
    // First come first served: host 0 back at 1360 serves host 1's request; the replica restarts
    // 1360–1400, catches up –1420, rejoins 1420–1430 (host 1 back at 1370 serves host 0's).
    const { sync, ft } = run(SITUATIONS.lateRequestWhileWaiting!);
    check(ft, {
      usefulSeconds: H - 35 - 395 / 3,
      stallSeconds: 35,
      spareWaitSeconds: 335,
      longestSpareWaitSeconds: 335,
      poolEmptySeconds: H,
    });
    // Sync: detect 1010–1020, waitSpare 1020–1360 (host 1's request only), restart 1360–1410.
    check(sync, { usefulSeconds: H - 410, stallSeconds: 410, spareWaitSeconds: 340 });
  });
});
