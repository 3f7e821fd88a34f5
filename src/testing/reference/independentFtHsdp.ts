/**
 * The reference's FT-HSDP (docs/model.md §1 "FT-HSDP", §3 "FT-HSDP, version 2", §4's own costs,
 * §6's pace), a plain loop written from the spec, as ./independent.ts says. Clarity over speed.
 */
import type { FailureTrace } from "../../sim/failures/failureTrace.ts";
import { derived, type Scenario } from "../../sim/scenario/index.ts";
import {
  type Failure,
  failuresOfTrace,
  ftDetectSeconds,
  hostsStruck,
  type Knobs,
  replicaOfHost,
  v1Knobs,
} from "./failures.ts";
import { INF, noBadput, type ReferenceMetrics, SpareWaits } from "./metrics.ts";
import { type SlowRun, SlowWalk } from "./slow.ts";
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

/** detectQuiet: §4 `ft.restrike = "quiet"`, the detect of a replica struck outside the quorum (down). */
type Phase = "healthy" | "detect" | "detectQuiet" | "waitSpare" | "restart" | "catchUp" | "rejoin";

/**
 * FT-HSDP: each replica walks detect(+reconfigure) → waitSpare → restart → catch-up → rejoin; a
 * job-scope failure cancels them all for a job restart (detect + sync restart) with rollback to
 * FT-HSDP's last completed checkpoint. Training advances at healthy/R unless something stalls.
 */
export function referenceFtHsdpV2(
  s: Scenario,
  k: Knobs,
  failures: readonly Failure[],
  slow: SlowRun | null = null,
): ReferenceMetrics {
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
  // §6: the ring runs at its slowest member's pace, 1/factor while a healthy replica holds a slow
  // host (a slow host in a replica that is down slows nobody).
  const walk = new SlowWalk(slow, H, R, (host) => replicaOfHost(s, k, host));
  const factor = slow?.factor ?? 1;

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
    walk.advance(t);
    let next = Math.min(f?.time ?? INF, nextPoolEvent(pool), H, walk.next());
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
    let pace = 1;
    for (let r = 0; r < R; r++) if (phase[r] === "healthy" && walk.slowIn(r)) pace = 1 / factor;
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
      // §6 then §4: the slow share first, FTAR's overhead on what is left.
      badput.slow += (healthy / R) * (1 - pace) * dt;
      badput.overhead += (healthy / R) * pace * (1 - 1 / slowdown) * dt;
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
      progress += (healthy / R / slowdown) * pace * dt;
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
export function referenceFtHsdp(s: Scenario, f: FailureTrace): ReferenceMetrics {
  return referenceFtHsdpV2(s, v1Knobs(s), failuresOfTrace(f));
}
