/**
 * Hand-placed version-2 situations, one per rule of docs/model.md §3 that failures can collide on,
 * on a small cluster whose numbers are easy to follow by hand: 6 hosts, 3 replicas of 2 hosts,
 * a horizon of 8,640 s; fail-stop found in 10 s, a hang in 100 s; sync restart 50 s; FT-HSDP
 * reconfigure 5 s, replica restart 40 s, catch-up 20 s (non-blocking), rejoin 10 s.
 * The reference's expectations are worked out in ./handPlaced.test.ts; the engine is compared
 * with the reference on the same situations.
 */
import { parseScenario, type Scenario, type ScenarioInput } from "../../sim/scenario/index.ts";
import { type Cause, type Failure, type Knobs, v1Knobs } from "./failures.ts";

export const HAND_SCENARIO: Scenario = parseScenario({
  cluster: { gpus: 48, gpusPerHost: 8, replicas: 3 },
  training: { days: 0.1 },
  failures: { perHostDay: 0.001 },
  detection: { failStopSeconds: 10, hangSeconds: 100 },
  sync: { restartSeconds: 50 },
  ft: { reconfigureSeconds: 5, replicaRestartSeconds: 40, catchUpSeconds: 20, rejoinSeconds: 10 },
});

/** One cause per kind of failure the situations need (their indices are the `cause` below). */
export const HAND_CAUSES: readonly Cause[] = [
  { name: "GPU", share: 4, scope: "host", hang: false, newHost: true },
  { name: "software on one host", share: 1, scope: "host", hang: false, newHost: false },
  { name: "ToR switch", share: 1, scope: "rack", hang: false, newHost: true },
  { name: "bad dependency", share: 1, scope: "job", hang: false, newHost: false },
  { name: "NVLink hang", share: 1, scope: "host", hang: true, newHost: true },
];

export const host = (time: number, target: number): Failure => ({
  time,
  scope: "host",
  target,
  hang: false,
  newHost: true,
  cause: 0,
});
export const softHost = (time: number, target: number): Failure => ({
  ...host(time, target),
  newHost: false,
  cause: 1,
});
export const rack = (time: number, target: number): Failure => ({
  ...host(time, target),
  scope: "rack",
  cause: 2,
});
export const job = (time: number): Failure => ({
  time,
  scope: "job",
  target: -1,
  hang: false,
  newHost: false,
  cause: 3,
});
export const hang = (time: number, target: number): Failure => ({
  ...host(time, target),
  hang: true,
  cause: 4,
});

export interface Situation {
  name: string;
  knobs: Knobs;
  failures: Failure[];
}

const knobs = (over: Partial<Knobs>): Knobs => ({ ...v1Knobs(HAND_SCENARIO), causes: HAND_CAUSES, ...over });
/** A shelf of `spareHosts` spares; a broken host is back after 360 s. */
const limited = (spareHosts: number, over: Partial<Knobs> = {}): Knobs =>
  knobs({ pool: "limited", spareHosts, repairHours: 0.1, ...over });

export const SITUATIONS: Record<string, Situation> = {
  rackStriped: {
    name: "a rack strikes two replicas (striped)",
    knobs: knobs({ hostsPerRack: 2, placement: "striped" }),
    failures: [rack(1000, 0)],
  },
  rackPacked: {
    name: "the same rack strikes one replica (packed)",
    knobs: knobs({ hostsPerRack: 2, placement: "packed" }),
    failures: [rack(1000, 0)],
  },
  jobDuringCatchUp: {
    name: "a job failure during a replica's catch-up",
    knobs: knobs({}),
    failures: [host(1000, 0), job(1060)],
  },
  spareDuringDetection: {
    name: "a spare arrives (repaired) during a later failure's detection",
    knobs: limited(1),
    failures: [host(1000, 0), host(1355, 2)],
  },
  restartWhileWaiting: {
    name: "a job restart while a replica waits for spares",
    knobs: limited(0),
    failures: [host(1000, 0), job(1100)],
  },
  checkpointLostInWrite: {
    name: "an FT-HSDP checkpoint lost to a job failure during its write",
    knobs: knobs({ ftCheckpointMinutes: 10, ftCheckpointWriteSeconds: 30 }),
    failures: [job(1250)],
  },
  repairServeStrike: {
    name: "repair, serve and strike at one instant",
    knobs: limited(0),
    failures: [host(1000, 0), host(1360, 0)],
  },
  hangTimeout: {
    name: "a hang FTAR drops after its 30 s timeout (the watchdog takes 100 s)",
    knobs: knobs({ hangTimeoutSeconds: 30 }),
    failures: [hang(1000, 0)],
  },
  fcfsTie: {
    name: "two requests at one instant, one spare: the lower host is served",
    knobs: limited(1),
    failures: [host(1000, 4), host(1000, 2), softHost(1100, 3)],
  },
  lateRequestWhileWaiting: {
    name: "a slower detection's request, made while the replica already waits, does not hold it back",
    knobs: limited(0),
    failures: [hang(1000, 0), host(1010, 1)],
  },
};

/**
 * Version-3 situations (docs/model.md §4), one per new rule, on the same small cluster with all
 * four policies selected. `over` sets the §4 groups (and `sync` checkpoints, which hotSpare writes):
 * in-memory restart 100 s, migrations 30 s. Worked out by hand in ./handPlacedV3.test.ts.
 */
export interface V3Situation extends Situation {
  over: ScenarioInput;
}

/** The hand-placed scenario with a situation's §3 knobs and §4 settings. */
export function v3ScenarioOf(situation: V3Situation): Scenario {
  const k = situation.knobs;
  const b = HAND_SCENARIO;
  const o = situation.over;
  return parseScenario({
    ...b,
    policies: ["synchronous", "ftHsdp", "inMemory", "hotSpare"],
    cluster: { ...b.cluster, hostsPerRack: k.hostsPerRack, placement: k.placement },
    failures: { ...b.failures, causes: [...k.causes] },
    sync: { ...b.sync, ...o.sync },
    ft: { ...b.ft, ...o.ft },
    spares: { pool: k.pool, hosts: k.spareHosts, repairHours: k.repairHours },
    inMemory: { ...b.inMemory, restartSeconds: 100, ...o.inMemory },
    hotSpare: { ...b.hotSpare, migrateSeconds: 30, ...o.hotSpare },
  });
}

export const V3_SITUATIONS: Record<string, V3Situation> = {
  inMemoryWriteLost: {
    name: "a failure during an in-memory write",
    knobs: knobs({}),
    over: { inMemory: { checkpointMinutes: 10, writeSeconds: 30 } },
    failures: [host(1250, 3)],
  },
  jobDuringMemoryRecovery: {
    name: "a job failure during a memory recovery, then a memory recovery after the storage one",
    knobs: knobs({}),
    over: { inMemory: { checkpointMinutes: 10, writeSeconds: 0, persistEvery: 3 } },
    failures: [host(2500, 3), job(2550), host(3000, 1)],
  },
  rackShortOfStandbys: {
    name: "a rack failure needing more standbys than are ready; then a host failure migrates",
    knobs: knobs({ hostsPerRack: 2 }),
    over: { hotSpare: { standbys: 1, refillMinutes: 10 } },
    failures: [rack(1000, 1), host(2000, 4)],
  },
  failureDuringMigration: {
    name: "a failure during a migration with no standby left: the recovery turns full and rolls back",
    knobs: knobs({}),
    over: { hotSpare: { standbys: 1 }, sync: { checkpointMinutes: 10 } },
    failures: [host(1000, 0), host(1020, 5)],
  },
  migrationGoesOn: {
    name: "a failure during a migration with a standby ready: the migration starts over",
    knobs: knobs({}),
    over: { hotSpare: { standbys: 2 }, sync: { checkpointMinutes: 10 } },
    failures: [host(1000, 0), host(1020, 5)],
  },
  standbyRefilledDuringRecovery: {
    name: "a standby refilled during a later (full) recovery is not taken by it",
    knobs: knobs({}),
    over: { hotSpare: { standbys: 1, refillMinutes: 10 } },
    failures: [host(1000, 0), host(1600, 1), host(1650, 2), host(3000, 3)],
  },
  sameSlotDuringMigration: {
    name: "the slot a standby just took over is struck again: that breaks the standby, a second one is needed",
    knobs: knobs({}),
    over: { hotSpare: { standbys: 1 } },
    failures: [host(1000, 0), host(1005, 0)],
  },
  quietInWaitSpare: {
    name: 'restrike "quiet" on a replica in waitSpare (and again during its quiet detect)',
    knobs: limited(0),
    over: { ft: { restrike: "quiet" } },
    failures: [host(1000, 0), host(1100, 1), host(1105, 1)],
  },
  stallInWaitSpare: {
    name: 'the same failures with restrike "stall" (§1)',
    knobs: limited(0),
    over: { ft: { restrike: "stall" } },
    failures: [host(1000, 0), host(1100, 1), host(1105, 1)],
  },
  overheadAndJobRestart: {
    name: "a 25 % step overhead with a job restart and FT checkpoints",
    knobs: knobs({ ftCheckpointMinutes: 10, ftCheckpointWriteSeconds: 30 }),
    over: { ft: { stepOverheadPercent: 25, checkpointMinutes: 10, checkpointWriteSeconds: 30 } },
    failures: [host(1000, 0), job(1250)],
  },
};
