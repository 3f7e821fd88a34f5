/**
 * A second, deliberately plain reading of docs/model.md §1 and §3 (cluster model version 2),
 * written without looking at the engine's policy code. Tests run it beside the engine on the same
 * failures: where the two disagree, one of them misreads the spec. Each policy is one loop that
 * walks from instant to instant: at each instant it first settles everything due (the pool, phase
 * ends, checkpoints, repeatedly, so zero-length phases chain), then lets a failure at that instant
 * strike, and only then moves on. Clarity over speed — it is never used by the app.
 */
import type { FailureTrace } from "../../sim/failureTrace.ts";
import { derived, type Scenario } from "../../sim/scenario.ts";
import {
  type Failure,
  failuresOfTrace,
  ftDetectSeconds,
  hostsStruck,
  type Knobs,
  replicaOfHost,
  syncDetectSeconds,
  v1Knobs,
} from "./failures.ts";
import {
  allServed,
  newPool,
  nextPoolEvent,
  poolEmpty,
  type Request,
  settlePool,
  strike,
  unserved,
} from "./spares.ts";

/** The per-run figures both readings produce (docs/model.md "Metrics" and §3 "New metrics"). */
export interface ReferenceMetrics {
  ettr: number;
  usefulSeconds: number;
  failures: number;
  stallSeconds: number;
  lostWorkSeconds: number;
  checkpoints: number;
  degradedSeconds: number;
  /** FT-HSDP only: seconds with exactly k replicas in one of the recovery phases (sync: empty). */
  secondsWithKDown: number[];
  jobRestarts: number;
  /** Synchronous: wall seconds in waitSpare; FT-HSDP: replica-seconds in waitSpare. */
  spareWaitSeconds: number;
  /** The longest single stay in waitSpare (one replica's, for FT-HSDP). */
  longestSpareWaitSeconds: number;
  poolEmptySeconds: number;
  /** Per cause of knobs.causes: failures, and the failure stall attributed to it (see below). */
  perCause: { count: number; stallSeconds: number }[];
  /** §4 "Where the time goes": seconds of wall time lost to each category (÷ horizon = share). */
  badput: Badput;
}

/** §4's badput categories, in seconds; useful + Σ = the horizon. */
export interface Badput {
  detection: number;
  recovery: number;
  spareWait: number;
  rejoin: number;
  checkpointWrite: number;
  rolledBack: number;
  degraded: number;
  overhead: number;
  /** §6: training at a slow host's pace. */
  slow: number;
}

export const noBadput = (): Badput => ({
  detection: 0,
  recovery: 0,
  spareWait: 0,
  rejoin: 0,
  checkpointWrite: 0,
  rolledBack: 0,
  degraded: 0,
  overhead: 0,
  slow: 0,
});

const INF = Number.POSITIVE_INFINITY;

/** Longest-stay bookkeeping for waitSpare, shared by both policies. */
class SpareWaits {
  total = 0;
  longest = 0;
  close(since: number, t: number): void {
    this.longest = Math.max(this.longest, t - since);
  }
}

/**
 * Synchronous training: train, write a checkpoint (blocking), or recover = detect → waitSpare →
 * restart. Any failure restarts the recovery from its own detection and rolls back to the last
 * completed checkpoint. `pending` is training not yet covered by a completed checkpoint.
 */
export function referenceSynchronousV2(
  s: Scenario,
  k: Knobs,
  failures: readonly Failure[],
): ReferenceMetrics {
  const { horizonSeconds: H } = derived(s);
  const interval = s.sync.checkpointMinutes * 60;
  const write = s.sync.checkpointWriteSeconds;
  // checkpointMinutes = 0: "a checkpoint at every step at no cost (no rollback)".
  const everyStep = interval === 0;
  const pool = newPool(k);
  const waits = new SpareWaits();
  const perCause = k.causes.map(() => ({ count: 0, stallSeconds: 0 }));

  let t = 0;
  let state: "train" | "write" | "detect" | "waitSpare" | "restart" = "train";
  let stateEnd = everyStep ? INF : interval; // next checkpoint due (train), or end of write/detect/restart
  let waitSince = 0;
  let waitFor: Request[] = []; // the requests already made when waitSpare began
  let owner = -1; // the cause of the failure that last (re)started the recovery
  let pending = 0;
  let trained = 0;
  let lost = 0;
  let stall = 0;
  let poolEmptySeconds = 0;
  let checkpoints = 0;
  let i = 0;
  const badput = noBadput();

  for (;;) {
    for (let changed = true; changed; ) {
      changed = settlePool(pool, t);
      if (state === "train" && stateEnd <= t) {
        state = "write";
        stateEnd = t + write;
        changed = true;
      } else if (state === "write" && stateEnd <= t) {
        checkpoints++;
        pending = 0;
        state = "train";
        stateEnd = t + interval;
        changed = true;
      } else if (state === "detect" && stateEnd <= t) {
        state = "waitSpare";
        waitSince = t;
        waitFor = unserved(pool, () => true);
        changed = true;
      } else if (state === "waitSpare" && allServed(pool, waitFor)) {
        waits.close(waitSince, t);
        state = "restart";
        stateEnd = t + s.sync.restartSeconds;
        changed = true;
      } else if (state === "restart" && stateEnd <= t) {
        state = "train";
        stateEnd = everyStep ? INF : t + interval;
        changed = true;
      }
    }
    const f = failures[i];
    if (f !== undefined && f.time <= t) {
      // A failure: everything not yet checkpointed rolls back (a write in flight is lost too).
      const detect = syncDetectSeconds(s, f);
      strike(pool, t, hostsStruck(k, f), f.newHost, t + detect, f.repair);
      if (state === "waitSpare") waits.close(waitSince, t);
      lost += pending;
      pending = 0;
      state = "detect";
      stateEnd = t + detect;
      owner = f.cause;
      if (f.cause >= 0) perCause[f.cause]!.count++;
      i++;
      continue;
    }
    if (t >= H) break;
    const next = Math.min(f?.time ?? INF, state === "waitSpare" ? INF : stateEnd, nextPoolEvent(pool), H);
    const dt = next - t;
    if (state === "detect") badput.detection += dt;
    else if (state === "waitSpare") badput.spareWait += dt;
    else if (state === "restart") badput.recovery += dt;
    else if (state === "write") badput.checkpointWrite += dt;
    if (state === "train") {
      trained += dt;
      if (!everyStep) pending += dt;
    } else if (state !== "write") {
      stall += dt;
      if (owner >= 0) perCause[owner]!.stallSeconds += dt;
      if (state === "waitSpare") waits.total += dt;
    }
    if (poolEmpty(pool)) poolEmptySeconds += dt;
    t = next;
  }
  if (state === "waitSpare") waits.close(waitSince, H);
  const useful = trained - lost;
  return {
    ettr: useful / H,
    usefulSeconds: useful,
    failures: failures.length,
    stallSeconds: stall,
    lostWorkSeconds: lost,
    checkpoints,
    degradedSeconds: 0,
    secondsWithKDown: [],
    jobRestarts: failures.length,
    spareWaitSeconds: waits.total,
    longestSpareWaitSeconds: waits.longest,
    poolEmptySeconds,
    perCause,
    badput: { ...badput, rolledBack: lost },
  };
}

/** detectQuiet: §4 `ft.restrike = "quiet"`, the detect of a replica struck outside the quorum (down). */
type Phase = "healthy" | "detect" | "detectQuiet" | "waitSpare" | "restart" | "catchUp" | "rejoin";

/**
 * FT-HSDP: each replica walks detect(+reconfigure) → waitSpare → restart → catch-up → rejoin; a
 * job-scope failure cancels them all for a job restart (detect + sync restart) with rollback to
 * FT-HSDP's last completed checkpoint. Training advances at healthy/R unless something stalls.
 */
export function referenceFtHsdpV2(s: Scenario, k: Knobs, failures: readonly Failure[]): ReferenceMetrics {
  const { horizonSeconds: H } = derived(s);
  const R = s.cluster.replicas;
  const { reconfigureSeconds, replicaRestartSeconds, catchUpSeconds, rejoinSeconds, minReplicas } = s.ft;
  const blocking = s.ft.catchUp === "blocking";
  // §4: FTAR's step overhead slows every instant of training by 1 + o/100.
  const slowdown = 1 + s.ft.stepOverheadPercent / 100;
  const quiet = s.ft.restrike === "quiet";
  const interval = k.ftCheckpointMinutes * 60;
  const checkpointsOn = interval > 0;
  const pool = newPool(k);
  const waits = new SpareWaits();
  const perCause = k.causes.map(() => ({ count: 0, stallSeconds: 0 }));
  const mine = (r: number) => (host: number) => replicaOfHost(s, k, host) === r;

  const phase: Phase[] = new Array(R).fill("healthy");
  const phaseEnd: number[] = new Array(R).fill(INF);
  const waitSince: number[] = new Array(R).fill(0);
  // The failure (index) that started each replica's running sequence, for per-cause stall.
  const phaseOwner: number[] = new Array(R).fill(-1);
  const lastStrike: number[] = new Array(R).fill(-1);
  const waitFor: Request[][] = Array.from({ length: R }, () => []);
  let jobRestart = false;
  let jobEnd = INF;
  let jobDetectEnd = INF; // a job restart is detect (detection) then sync restart (recovery)
  let jobOwner = -1;
  let writing = false;
  let writeEnd = INF;
  let writeSaves = 0;
  let clock = 0; // time at rate > 0 since the last checkpoint or job restart
  let progress = 0;
  let saved = 0;
  let lost = 0;
  let stall = 0;
  let degraded = 0;
  let poolEmptySeconds = 0;
  let checkpoints = 0;
  let jobRestarts = 0;
  const kDown = new Array<number>(R + 1).fill(0);
  const badput = noBadput();
  let t = 0;
  let i = 0;

  const global = (p: Phase) => p === "detect" || p === "rejoin" || (blocking && p === "catchUp");
  const enter = (r: number, p: Phase, length: number) => {
    phase[r] = p;
    phaseEnd[r] = t + length;
    if (p === "waitSpare") {
      waitSince[r] = t;
      waitFor[r] = unserved(pool, mine(r));
    }
  };
  const leave = (r: number) => {
    if (phase[r] === "waitSpare") waits.close(waitSince[r]!, t);
  };

  for (;;) {
    for (let changed = true; changed; ) {
      changed = settlePool(pool, t);
      for (let r = 0; r < R; r++) {
        const p = phase[r]!;
        if (p === "waitSpare") {
          if (allServed(pool, waitFor[r]!)) {
            leave(r);
            enter(r, "restart", replicaRestartSeconds);
            changed = true;
          }
        } else if (p !== "healthy" && phaseEnd[r]! <= t) {
          if (p === "detect" || p === "detectQuiet") enter(r, "waitSpare", INF);
          else if (p === "restart") enter(r, "catchUp", catchUpSeconds);
          else if (p === "catchUp") enter(r, "rejoin", rejoinSeconds);
          else enter(r, "healthy", INF);
          changed = true;
        }
      }
      if (jobRestart && jobEnd <= t) {
        // Replicas whose lost hosts are still unreplaced go on from waitSpare, without a new detect.
        jobRestart = false;
        clock = 0;
        // They continue the recovery of the failure that last struck them (its cause owns the stall).
        for (let r = 0; r < R; r++) {
          if (unserved(pool, mine(r)).length > 0) {
            enter(r, "waitSpare", INF);
            phaseOwner[r] = lastStrike[r]!;
          }
        }
        changed = true;
      }
      if (writing && writeEnd <= t) {
        writing = false;
        checkpoints++;
        saved = writeSaves;
        clock = 0;
        changed = true;
      }
      if (checkpointsOn && !writing && !jobRestart && clock >= interval) {
        writing = true;
        writeEnd = t + k.ftCheckpointWriteSeconds;
        writeSaves = progress;
        changed = true;
      }
    }
    const f = failures[i];
    if (f !== undefined && f.time <= t) {
      const detect = ftDetectSeconds(s, k, f);
      const hosts = hostsStruck(k, f);
      strike(pool, t, hosts, f.newHost, t + detect, f.repair);
      if (f.cause >= 0) perCause[f.cause]!.count++;
      const struck = new Set(hosts.map((h) => replicaOfHost(s, k, h)));
      for (const r of struck) lastStrike[r] = i;
      if (f.scope === "job" || jobRestart) {
        // A job restart (or a failure during one, which starts it again): no replica phases.
        for (let r = 0; r < R; r++) {
          leave(r);
          enter(r, "healthy", INF);
        }
        if (f.scope === "job") {
          if (checkpointsOn) {
            lost += progress - saved;
            progress = saved;
          }
          writing = false;
          writeEnd = INF;
        }
        clock = 0;
        jobRestart = true;
        jobDetectEnd = t + detect;
        jobEnd = t + detect + s.sync.restartSeconds;
        jobOwner = i;
        jobRestarts++;
      } else {
        for (const r of struck) {
          const p = phase[r]!;
          // §4 restrike "quiet": a replica outside the quorum (not in a global-stall phase, not
          // healthy) starts over with a detect that is down time only, without reconfigure.
          const outside =
            p === "waitSpare" || p === "restart" || p === "detectQuiet" || (p === "catchUp" && !blocking);
          leave(r);
          if (quiet && outside) enter(r, "detectQuiet", detect);
          else enter(r, "detect", detect + reconfigureSeconds);
          phaseOwner[r] = i;
        }
      }
      i++;
      continue;
    }
    if (t >= H) break;
    let next = Math.min(f?.time ?? INF, nextPoolEvent(pool), H);
    for (let r = 0; r < R; r++) if (phase[r] !== "waitSpare") next = Math.min(next, phaseEnd[r]!);
    if (jobRestart) next = Math.min(next, jobEnd, jobDetectEnd > t ? jobDetectEnd : INF);
    if (writing) next = Math.min(next, writeEnd);

    let down = 0;
    let waiting = 0;
    let anyGlobal = false;
    let detecting = false;
    let rejoining = false;
    for (const p of phase) {
      if (p !== "healthy") down++;
      if (p === "waitSpare") waiting++;
      if (global(p)) anyGlobal = true;
      if (p === "detect") detecting = true;
      if (p === "rejoin" || (blocking && p === "catchUp")) rejoining = true;
    }
    const healthy = R - down;
    const failureStall = jobRestart || anyGlobal || healthy < minReplicas;
    const training = !failureStall && !writing;
    let checkpointDue = false;
    if (training && checkpointsOn && t + (interval - clock) <= next) {
      next = t + (interval - clock);
      checkpointDue = true;
    }
    const dt = next - t;
    kDown[down] = kDown[down]! + dt;
    waits.total += dt * waiting;
    if (poolEmpty(pool)) poolEmptySeconds += dt;
    // §4: a stalled instant goes to the first stall active in the order recovery, spareWait,
    // detection, rejoin, checkpointWrite; below minReplicas with none of them, to degraded.
    if (failureStall || writing) {
      if (jobRestart && t >= jobDetectEnd) badput.recovery += dt;
      else if (jobRestart || detecting) badput.detection += dt;
      else if (rejoining) badput.rejoin += dt;
      else if (writing) badput.checkpointWrite += dt;
      else badput.degraded += dt;
    } else {
      badput.degraded += (down / R) * dt;
      badput.overhead += (healthy / R) * (1 - 1 / slowdown) * dt;
    }
    if (failureStall) {
      stall += dt;
      // Overlapping stalls are charged once, to the earliest failure among those stalling now.
      let first = jobRestart ? jobOwner : INF;
      for (let r = 0; r < R; r++) {
        const p = phase[r]!;
        if (global(p) || (healthy < minReplicas && p !== "healthy")) first = Math.min(first, phaseOwner[r]!);
      }
      const cause = failures[first]?.cause ?? -1;
      if (cause >= 0) perCause[cause]!.stallSeconds += dt;
    } else if (training) {
      progress += (healthy / R / slowdown) * dt;
      clock = checkpointDue ? interval : clock + dt;
      if (down > 0) degraded += dt;
    }
    t = next;
  }
  for (let r = 0; r < R; r++) if (phase[r] === "waitSpare") waits.close(waitSince[r]!, H);
  return {
    ettr: progress / H,
    usefulSeconds: progress,
    failures: failures.length,
    stallSeconds: stall,
    lostWorkSeconds: lost,
    checkpoints,
    degradedSeconds: degraded,
    secondsWithKDown: kDown,
    jobRestarts,
    spareWaitSeconds: waits.total,
    longestSpareWaitSeconds: waits.longest,
    poolEmptySeconds,
    perCause,
    badput: { ...badput, rolledBack: lost },
  };
}

/** Version 1 (§1): a v1 scenario on a v1 failure trace. */
export function referenceSynchronous(s: Scenario, f: FailureTrace): ReferenceMetrics {
  return referenceSynchronousV2(s, v1Knobs(s), failuresOfTrace(f));
}

/** Version 1 (§1): a v1 scenario on a v1 failure trace. */
export function referenceFtHsdp(s: Scenario, f: FailureTrace): ReferenceMetrics {
  return referenceFtHsdpV2(s, v1Knobs(s), failuresOfTrace(f));
}
