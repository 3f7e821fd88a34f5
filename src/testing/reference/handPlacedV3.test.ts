/**
 * The reference's answers on the hand-placed §4 situations (./handPlaced.ts V3_SITUATIONS), worked
 * out by hand from docs/model.md §4, timelines in the comments. These pin the reference itself;
 * ./independentV3.test.ts holds the engine to the reference on the same situations.
 * Cluster: 6 hosts, 3 replicas of 2 (packed), H = 8,640 s; fail-stop found in 10 s; sync restart
 * 50 s; in-memory restart 100 s; migration 30 s; FT-HSDP reconfigure 5, restart 40, catch-up 20
 * (non-blocking), rejoin 10.
 */
import { describe, expect, it } from "vitest";
import { V3_SITUATIONS, type V3Situation, v3ScenarioOf } from "./handPlaced.ts";
import { type Badput, type ReferenceMetrics, referenceFtHsdpV2 } from "./independent.ts";
import { referenceHotSpare, referenceInMemory } from "./independentV3.ts";

const H = 8640;
type Expected = Partial<Omit<ReferenceMetrics, "perCause" | "badput">> & {
  usefulSeconds: number;
  badput?: Partial<Badput>;
};

function check(m: ReferenceMetrics, expected: Expected): void {
  for (const [key, value] of Object.entries(expected)) {
    if (key === "badput") {
      for (const [c, v] of Object.entries(value as Partial<Badput>))
        expect(m.badput[c as keyof Badput], `badput.${c}`).toBeCloseTo(v, 6);
      continue;
    }
    const got = m[key as keyof ReferenceMetrics];
    if (Array.isArray(value)) {
      expect(got, key).toHaveLength(value.length);
      for (const [j, v] of value.entries()) expect((got as number[])[j], `${key}[${j}]`).toBeCloseTo(v, 6);
    } else expect(got, key).toBeCloseTo(value as number, 6);
  }
  // §4: wall time splits exactly into useful time and the badput categories.
  const total = m.usefulSeconds + Object.values(m.badput).reduce((a, b) => a + b, 0);
  expect(total).toBeCloseTo(H, 6);
}

function run(situation: V3Situation) {
  const s = v3ScenarioOf(situation);
  const { knobs: k, failures: f } = situation;
  return {
    inMemory: referenceInMemory(s, k, f),
    hotSpare: referenceHotSpare(s, k, f),
    ft: referenceFtHsdpV2(s, k, f),
  };
}

describe("reference on hand-placed §4 situations", () => {
  it(V3_SITUATIONS.inMemoryWriteLost!.name, () => {
    // C = 600, W = 30: checkpoint 1 written 600–630 (saves 600); the second write runs 1230–1260
    // and the host failure at 1250 loses it: back to 600 (600 lost, 20 s of write wasted). Detect
    // 1250–1260, in-memory restart 1260–1360. Then 7,280 s = 11 cycles of 630 + 350 pending.
    const { inMemory } = run(V3_SITUATIONS.inMemoryWriteLost!);
    check(inMemory, {
      usefulSeconds: 600 + 11 * 600 + 350,
      lostWorkSeconds: 600,
      checkpoints: 12,
      stallSeconds: 110,
      jobRestarts: 1,
      badput: { detection: 10, recovery: 100, checkpointWrite: 30 + 20 + 11 * 30, rolledBack: 600 },
    });
  });

  it(V3_SITUATIONS.jobDuringMemoryRecovery!.name, () => {
    // C = 600, W = 0, every 3rd durable: checkpoints at 600…2400, #3 (1800) durable. Host at 2500:
    // back to 2400 (100 lost), detect –2510, in-memory restart 2510–2610. Job failure at 2550: a
    // storage recovery, back to 1800 (600 lost), detect –2560, sync restart 2560–2610; the memory
    // copies are now the 1800 checkpoint's. Host at 3000 (390 s trained, no checkpoint yet): a
    // memory recovery back to 1800 — no further (390 lost), 3000–3110. Then 5,530 s, 9 checkpoints.
    const { inMemory } = run(V3_SITUATIONS.jobDuringMemoryRecovery!);
    check(inMemory, {
      usefulSeconds: 1800 + 5530,
      lostWorkSeconds: 100 + 600 + 390,
      checkpoints: 4 + 9,
      stallSeconds: 220,
      jobRestarts: 3,
      badput: { detection: 30, recovery: 40 + 50 + 100, rolledBack: 1090, checkpointWrite: 0 },
    });
  });

  it(V3_SITUATIONS.rackShortOfStandbys!.name, () => {
    // Rack 1 = hosts 2, 3: two broken, one standby: a full recovery, detect 10 + restart 50. The
    // host at 2000 finds the standby ready: detect 10 + migrate 30, no job restart.
    const { hotSpare } = run(V3_SITUATIONS.rackShortOfStandbys!);
    check(hotSpare, {
      usefulSeconds: H - 100,
      stallSeconds: 100,
      jobRestarts: 1,
      badput: { detection: 20, recovery: 80, rolledBack: 0 },
    });
  });

  it(V3_SITUATIONS.failureDuringMigration!.name, () => {
    // Sync checkpoints every 600 s (W = 0): one at 600. Host 0 at 1000: a migration (400 s pending
    // kept), detect –1010, migrate 1010–1040. Host 5 at 1020: 2 broken > 0 ready + 1 taken: full,
    // the 400 s roll back, detect –1030, restart 1030–1080. Then 7,560 s: 12 checkpoints + 360.
    const { hotSpare } = run(V3_SITUATIONS.failureDuringMigration!);
    check(hotSpare, {
      usefulSeconds: 600 + 7560,
      lostWorkSeconds: 400,
      checkpoints: 13,
      stallSeconds: 80,
      jobRestarts: 1,
      badput: { detection: 20, recovery: 60, rolledBack: 400 },
    });
  });

  it(V3_SITUATIONS.migrationGoesOn!.name, () => {
    // Two standbys: at 1020, 2 broken ≤ 1 ready + 1 taken: the migration starts over, detect
    // 1020–1030, migrate 1030–1060. Nothing rolls back; the interval restarts at 1060, so the
    // next checkpoint is at 1660 (it saves the 400 s pending since 600), then every 600 s.
    const { hotSpare } = run(V3_SITUATIONS.migrationGoesOn!);
    check(hotSpare, {
      usefulSeconds: H - 60,
      lostWorkSeconds: 0,
      checkpoints: 1 + 12,
      stallSeconds: 60,
      jobRestarts: 0,
      badput: { detection: 20, recovery: 40 },
    });
  });

  it(V3_SITUATIONS.standbyRefilledDuringRecovery!.name, () => {
    // One standby, refilled 600 s after its migration (1000–1040): ready at 1640. Host 1 at 1600
    // finds none: full, 1600–1660. Host 2 at 1650: the standby is ready, but a full recovery stays
    // full: 1650–1710. Host 3 at 3000 migrates with it: 3000–3040.
    const { hotSpare } = run(V3_SITUATIONS.standbyRefilledDuringRecovery!);
    check(hotSpare, {
      usefulSeconds: H - 190,
      stallSeconds: 40 + 50 + 60 + 40,
      jobRestarts: 2,
      badput: { detection: 40, recovery: 30 + 40 + 50 + 30 },
    });
  });

  it(V3_SITUATIONS.sameSlotDuringMigration!.name, () => {
    // §4's n = "the hosts broken so far in this recovery", read as the engine reads it: standbys are
    // taken when the recovery starts, so at 1005 slot 0 holds the standby and the strike breaks it
    // (n = 2 > 0 ready + 1 taken): full, detect 1005–1015, restart 1015–1065. (The pool's own count
    // would say the slot, still waiting for its request of 1010, breaks nothing: a migration.)
    const { hotSpare } = run(V3_SITUATIONS.sameSlotDuringMigration!);
    check(hotSpare, {
      usefulSeconds: H - 65,
      stallSeconds: 65,
      jobRestarts: 1,
      badput: { detection: 15, recovery: 50 },
    });
  });

  it(V3_SITUATIONS.quietInWaitSpare!.name, () => {
    // No spares, repairs in 360 s. Host 0 (replica 0) at 1000: detect + reconfigure 1000–1015
    // (stall), waitSpare from 1015 (request at 1010). Host 1 (replica 0) at 1100: quiet detect
    // 1100–1110, down only; struck again at 1105 (its slot still waits: no new request): quiet
    // detect 1105–1115. waitSpare 1115 until both requests are served: host 0 back at 1360 serves
    // 1010's, host 1 back at 1460 serves 1110's. Restart 1460–1500, catch-up –1520, rejoin
    // 1520–1530 (stall). Down and not stalled 1015–1520.
    const { ft } = run(V3_SITUATIONS.quietInWaitSpare!);
    check(ft, {
      usefulSeconds: H - 25 - 505 / 3,
      stallSeconds: 25,
      degradedSeconds: 505,
      spareWaitSeconds: 85 + 345,
      longestSpareWaitSeconds: 345,
      poolEmptySeconds: H,
      secondsWithKDown: [H - 530, 530, 0, 0],
      badput: { detection: 15, rejoin: 10, degraded: 505 / 3, spareWait: 0 },
    });
  });

  it(V3_SITUATIONS.stallInWaitSpare!.name, () => {
    // §1's rule: host 1 at 1100 stalls everyone, detect 1100–1115, restarted at 1105 (a replica in
    // detect): 1105–1120. waitSpare 1120–1460; restart, catch-up, rejoin 1520–1530.
    const { ft } = run(V3_SITUATIONS.stallInWaitSpare!);
    check(ft, {
      usefulSeconds: H - 45 - 485 / 3,
      stallSeconds: 45,
      degradedSeconds: 485,
      spareWaitSeconds: 85 + 340,
      secondsWithKDown: [H - 530, 530, 0, 0],
      badput: { detection: 35, rejoin: 10, degraded: 485 / 3 },
    });
  });

  it(V3_SITUATIONS.overheadAndJobRestart!.name, () => {
    // Rate (healthy/3)/1.25. 0–600 at 0.8 (480), write 600–630 saves 480. Host 0 at 1000: detect
    // 1000–1015, restart and catch-up 1015–1075 at 2/3·0.8, rejoin 1075–1085. The checkpoint clock
    // (time at rate > 0) reaches 595 s by 1250, when the job failure rolls back to 480 (from 940:
    // 460 lost). Job restart: detect 1250–1260, sync restart 1260–1310. Writes at 1910 + 630 j,
    // j = 0…10, and 7,000 s of training at 0.8 after 1310.
    const { ft } = run(V3_SITUATIONS.overheadAndJobRestart!);
    check(ft, {
      usefulSeconds: 480 + 0.8 * 7000,
      lostWorkSeconds: 460,
      checkpoints: 12,
      stallSeconds: 85,
      jobRestarts: 1,
      degradedSeconds: 60,
      badput: {
        detection: 25,
        recovery: 50,
        rejoin: 10,
        checkpointWrite: 12 * 30,
        rolledBack: 460,
        degraded: 20,
        // 0.2 of full speed over 8,135 s at full strength, and of 2/3 over 60 s degraded.
        overhead: 0.2 * 8135 + 0.2 * (2 / 3) * 60,
      },
    });
  });
});
