/**
 * FT-HSDP (docs/model.md §1 "FT-HSDP", §3 "FT-HSDP, version 2"), event-driven: the only events
 * are failures, the ends of recovery phases, spare requests, job restarts and checkpoint writes,
 * so the cost grows with failures, never with steps, GPUs or replicas.
 *
 * Between two events the number of replicas down and in a global-stall phase is constant, hence
 * so is the training rate (healthy/R, or 0 when stalled or below minReplicas): useful time is a
 * sum of rate × duration. Each recovering replica has exactly one entry in an indexed heap,
 * keyed on the end of its current phase; a failure during its recovery re-keys that entry.
 * Version 1's arithmetic is kept operation for operation, so its numbers keep their bits.
 */

import type { FailureTrace } from "../../failures/failureTrace.ts";
import { Layout } from "../../failures/failureTrace.ts";
import { runSparePool } from "../../failures/spares.ts";
import { derived } from "../../scenario/derived.ts";
import type { Scenario } from "../../scenario/index.ts";
import { replicaSlowEvents } from "../../slow/slowEpisodes.ts";
import {
  Badput,
  type ClosedForms,
  type ClosedFormValue,
  FtJobState,
  FtPhase,
  type PolicyMetrics,
  ScopeCode,
} from "../../types.ts";
import { assembleMetrics, badputSeconds } from "../policyMetrics.ts";
import { FtRecorder, type FtRecording } from "./ftRecorder.ts";
import { DONE, HEALTHY, NEXT_PHASE, replicaState } from "./ftReplicaState.ts";
import { StallAttribution } from "./ftStallAttribution.ts";

export type { FtRecording };

/** §4: the §3 first-order form (base.ftFirstOrder), which already divides by FTAR's step overhead 1 + o/100. */
export function ftHsdpClosedForm(_s: Scenario, base: ClosedForms): ClosedFormValue {
  return base.ftFirstOrder;
}

export function runFtHsdp(
  s: Scenario,
  trace: FailureTrace,
  record: boolean,
): { metrics: PolicyMetrics; recording?: FtRecording } {
  const { horizonSeconds: H } = derived(s);
  const R = s.cluster.replicas;
  const { minReplicas, reconfigureSeconds, replicaRestartSeconds, catchUpSeconds, rejoinSeconds } = s.ft;
  const blocking = s.ft.catchUp === "blocking";
  const jobRestartSeconds = s.sync.restartSeconds;
  // checkpointMinutes = 0: a job restart loses nothing (optimistic, as sync with 0).
  const C = s.ft.checkpointMinutes * 60;
  const W = C > 0 ? s.ft.checkpointWriteSeconds : 0;
  // Indexed by phase code; detect's and waitSpare's lengths are set per failure and per replica.
  const duration = Float64Array.of(0, 0, replicaRestartSeconds, catchUpSeconds, rejoinSeconds, 0, 0);
  const stallsIn = Uint8Array.of(0, 1, 0, blocking ? 1 : 0, 1, 0, 0);
  // 1 for the detect phase: counted beside stallsIn, branch-free, so enter() stays small.
  const detectIn = Uint8Array.of(0, 1, 0, 0, 0, 0, 0);
  // §4: FTAR's per-step overhead slows training by 1 + o/100 (o = 0: a factor of exactly 1, so
  // version-2 numbers keep their bits); "quiet" restrikes leave the quorum alone.
  const speed = 1 / (1 + s.ft.stepOverheadPercent / 100);
  const quiet = s.ft.restrike === "quiet";
  const layout = new Layout(s);
  const pool = runSparePool(s, trace, trace.ftDetectSeconds, record);

  const { phase, phaseEnd, queue, waitUntil, waitStart, owed } = replicaState(R);
  if (pool) waitUntil.fill(Number.NEGATIVE_INFINITY, 0, R);
  const nCauses = s.failures.causes.length;
  const attr = record || nCauses > 0 ? new StallAttribution(R, trace.count) : null;
  const rec = record && attr ? new FtRecorder(R, trace.count, attr) : null;
  const kDown = new Float64Array(R + 1);
  // §6: the ring runs at its slowest member's pace: 1/factor while a healthy replica holds a slow
  // host. slowCount[r] counts r's active episodes; slowHealthy the healthy replicas with one.
  const slowEv = trace.slow ? replicaSlowEvents(s, trace.slow, H) : null;
  const slowCount = slowEv ? new Int32Array(R) : null;
  const slowMul = trace.slow ? 1 / trace.slow.factor : 1;
  let slowHealthy = 0;
  let slowAt = 0;

  let down = 0;
  let stallPhases = 0;
  /** Replicas in detect (a stall phase): the stalled time they share is detection, not rejoin. */
  let detectPhases = 0;
  /** ∫ down dt while training: (R − healthy)/R of it is degraded badput. */
  let downWhileTraining = 0;
  const bad = badputSeconds();
  /** When the current job restart's detection ends (its restart follows). */
  let jobDetectEnd = 0;
  let healthyTime = 0; // ∫ healthy dt over time that is not stalled
  let stall = 0;
  let degraded = 0;
  let healthySum = 0; // ∫ healthy dt
  // §3: job restarts, FT checkpoints and spare waits.
  let jobEnd = Number.POSITIVE_INFINITY;
  let jobOwner = -1;
  let jobPieceStart = 0;
  let jobRestarts = 0;
  let lost = 0;
  let writing = false;
  let writeStart = 0;
  let writeEnd = Number.POSITIVE_INFINITY;
  let saved = 0;
  let lastCheckpoint = 0; // healthyTime at the last completed checkpoint (or job restart)
  let lastCheckpointAt = 0; // wall time that progress was reached
  let sinceCheckpoint = 0;
  let checkpoints = 0;
  let checkpointSeconds = 0;
  let waitingReplicas = 0;
  let spareWait = 0;
  let request = 0;
  // The closures below take and return no doubles, and write none to a variable they share with
  // the loop: V8 boxes a double passed to or returned from a call it does not inline, or written
  // to a shared variable, a heap allocation each time. Whether it inlines them varies from
  // process to process (this function is large), so the doubles they need live in typed arrays:
  // the time of the event being handled in now[0], the end of a phase entered in phaseEnd[r].
  const now = new Float64Array(1);
  /** The longest wait for a spare so far. */
  const longestWait = new Float64Array(1);

  /** phaseEnd[r] := when phase p of replica r, entered now, ends. */
  const setEnd = (r: number, p: number) => {
    const start = now[0]!;
    phaseEnd[r] =
      p === FtPhase.waitSpare
        ? pool && waitUntil[r]! > start
          ? waitUntil[r]!
          : start
        : start + duration[p]!;
  };

  /** What only some runs track when a phase is entered: spare waits, the recording, stall owners. */
  const observe = pool !== null || rec !== null || attr !== null;
  const observeEnter = (r: number, p: number) => {
    if (p === FtPhase.waitSpare) {
      waitingReplicas++;
      waitStart[r] = now[0]!;
    }
    if (rec) rec.enter(r, p, now[0]!, phaseEnd[r]!, stallsIn[p] === 1);
    else if (attr) {
      if (stallsIn[p]) attr.stalling.upsert(r);
      else attr.stalling.remove(r);
    }
  };

  const healthyAgain = (r: number) => {
    phase[r] = HEALTHY;
    down--;
    if (slowCount !== null && slowCount[r]! > 0) slowHealthy++;
    queue.remove(r);
    attr?.healthy(r);
  };

  /**
   * Enter phase p now, ending at phaseEnd[r] (set by the caller); zero-length phases are passed
   * through. Kept small (the rest is in observeEnter, healthyAgain) so the optimiser can inline
   * it into the event loop. A replica that ends healthy leaves the queue whatever its key says.
   */
  const enter = (r: number, p: number) => {
    const start = now[0]!;
    while (phaseEnd[r]! <= start && p !== DONE) {
      p = NEXT_PHASE[p]!;
      if (p !== DONE) setEnd(r, p);
    }
    if (p === DONE) {
      healthyAgain(r);
      return;
    }
    phase[r] = p;
    queue.upsert(r);
    stallPhases += stallsIn[p]!;
    detectPhases += detectIn[p]!;
    if (observe) observeEnter(r, p);
  };

  /** The current phase of r ends (or is cancelled) now. */
  const leave = (r: number) => {
    stallPhases -= stallsIn[phase[r]!]!;
    detectPhases -= detectIn[phase[r]!]!;
    if (phase[r] === FtPhase.waitSpare) {
      waitingReplicas--;
      longestWait[0] = Math.max(longestWait[0]!, now[0]! - waitStart[r]!);
    }
    rec?.leave(r, now[0]!);
  };

  /** A job restart's end, now: replicas still owed a replacement resume at waitSpare (no new detect). */
  const resumeOwed = () => {
    while (owed.size > 0 && waitUntil[owed.top()]! <= now[0]!) owed.remove(owed.top());
    for (let k = 0; k < owed.size; k++) {
      const r = owed.at(k);
      down++;
      if (slowCount !== null && slowCount[r]! > 0) slowHealthy--;
      attr?.down.upsert(r);
      phaseEnd[r] = waitUntil[r]!;
      enter(r, FtPhase.waitSpare);
    }
  };

  const n = trace.count;
  const times = trace.time;
  let t = 0;
  let i = 0;
  // The state between two events, set after each: stalled (no training), stalled by failures
  // (stallSeconds; a write alone is checkpointSeconds, as for the synchronous job), and fewer
  // than minReplicas healthy. Flags, not closures, so the loop stays small enough to optimise.
  let wasStalled = false;
  let wasFailureStalled = false;
  let wasBelowMin = false;
  rec?.curve.point(0, 0);
  for (;;) {
    const nextFailure = i < n ? times[i]! : H;
    const nextPhaseEnd = queue.size > 0 ? phaseEnd[queue.top()]! : H;
    const nextRequest = pool && request < pool.count ? pool.madeAt[request]! : H;
    // A checkpoint falls due after C of training; one due at the instant a global stall begins
    // (a rejoin, a detect) starts at that instant, as one due at a failure's instant does (§3).
    const checkpointDue =
      C <= 0 || writing || jobOwner >= 0
        ? Number.POSITIVE_INFINITY
        : !wasStalled
          ? t + (C - sinceCheckpoint)
          : sinceCheckpoint >= C
            ? t
            : Number.POSITIVE_INFINITY;
    const nextJob = Math.min(jobEnd, writeEnd, checkpointDue, nextRequest);
    const nextSlow = slowEv !== null && slowAt < slowEv.count ? slowEv.time[slowAt]! : H;
    const next = Math.min(nextFailure, nextPhaseEnd, H, nextJob, nextSlow);
    const dt = next - t;
    if (dt > 0) {
      const healthy = R - down;
      kDown[down]! += dt;
      healthySum += healthy * dt;
      spareWait += waitingReplicas * dt;
      if (wasStalled) {
        if (wasFailureStalled) stall += dt;
        attr?.attribute(dt, stallPhases, wasBelowMin, jobOwner);
        // §4: a stalled instant goes to the first stall active, in the order recovery (a job
        // restart, whose detection comes first), detection, rejoin, checkpointWrite.
        if (jobOwner >= 0) {
          const detecting = jobDetectEnd > t ? Math.min(dt, jobDetectEnd - t) : 0;
          bad[Badput.detection]! += detecting;
          bad[Badput.recovery]! += dt - detecting;
        } else if (detectPhases > 0) bad[Badput.detection]! += dt;
        else if (stallPhases > 0) bad[Badput.rejoin]! += dt;
        else if (writing) bad[Badput.checkpointWrite]! += dt;
        else bad[Badput.degraded]! += dt;
      } else {
        if (slowHealthy > 0) {
          // §6: the slow share first, the step overhead on what is left.
          healthyTime += healthy * dt * speed * slowMul;
          bad[Badput.slow]! += ((healthy * dt) / R) * (1 - slowMul);
          bad[Badput.overhead]! += ((healthy * dt) / R) * slowMul * (1 - speed);
        } else {
          healthyTime += healthy * dt * speed;
          if (speed !== 1) bad[Badput.overhead]! += ((healthy * dt) / R) * (1 - speed);
        }
        // Exactly C when the checkpoint falls due now, so it is still due if a stall begins first.
        sinceCheckpoint = next === checkpointDue ? C : sinceCheckpoint + dt;
        if (down > 0) {
          degraded += dt;
          downWhileTraining += down * dt;
        }
      }
      t = next;
    }
    if (next >= H) break;
    now[0] = next;
    const rateBefore = wasStalled ? 0 : (R - down) * (slowHealthy > 0 ? slowMul : 1);

    if (slowEv !== null && nextSlow === next && slowAt < slowEv.count) {
      // §6: a host of replica r turns slow (+1) or recovers (−1); only healthy replicas set the pace.
      const r = slowEv.replica[slowAt]!;
      const before = slowCount![r]!;
      const after = before + slowEv.delta[slowAt]!;
      slowCount![r] = after;
      if (phase[r] === HEALTHY) slowHealthy += (after > 0 ? 1 : 0) - (before > 0 ? 1 : 0);
      slowAt++;
    } else if (nextRequest === next && pool) {
      // A request made now: its replica's restart waits for it (served at servedAt).
      const r = layout.replicaOf(pool.host[request]!);
      const served = pool.servedAt[request]!;
      if (served > waitUntil[r]!) {
        waitUntil[r] = served;
        owed.upsert(r);
      }
      request++;
    } else if (nextPhaseEnd <= nextFailure && nextPhaseEnd <= nextJob) {
      const r = queue.top();
      const p = phase[r]!;
      leave(r);
      const q = NEXT_PHASE[p]!;
      // One call site (with DONE, enter's loop does not run: phaseEnd[r] is now): each site the
      // optimiser inlines spends its budget.
      if (q !== DONE) setEnd(r, q);
      enter(r, q);
    } else if (jobEnd === next && jobEnd <= nextFailure) {
      rec?.job(FtJobState.jobRestart, jobPieceStart, next);
      jobOwner = -1;
      jobEnd = Number.POSITIVE_INFINITY;
      sinceCheckpoint = 0;
      lastCheckpointAt = next;
      if (pool) resumeOwed();
    } else if (writeEnd === next && writeEnd <= nextFailure) {
      // A write that ends at a failure's instant completes.
      writing = false;
      writeEnd = Number.POSITIVE_INFINITY;
      lastCheckpoint = saved;
      lastCheckpointAt = writeStart;
      sinceCheckpoint = 0;
      checkpoints++;
      checkpointSeconds += W;
      rec?.job(FtJobState.checkpointing, writeStart, next);
    } else if (checkpointDue === next && checkpointDue <= nextFailure) {
      // A checkpoint due at a failure's instant starts (and a job failure then loses it).
      saved = healthyTime;
      writeStart = next;
      sinceCheckpoint = 0;
      if (W > 0) {
        writing = true;
        writeEnd = next + W;
      } else {
        lastCheckpoint = saved;
        lastCheckpointAt = next;
        checkpoints++;
      }
    } else if (trace.scope[i] === ScopeCode.job || jobOwner >= 0) {
      // A job restart starts, or starts again: every replica's pending phases are cancelled.
      if (jobOwner < 0) {
        while (queue.size > 0) {
          const r = queue.top();
          leave(r);
          phase[r] = HEALTHY;
          queue.remove(r);
          attr?.healthy(r);
          if (slowCount !== null && slowCount[r]! > 0) slowHealthy++;
        }
        down = 0;
        if (writing) {
          writing = false;
          writeEnd = Number.POSITIVE_INFINITY;
          checkpointSeconds += next - writeStart;
          rec?.job(FtJobState.checkpointing, writeStart, next);
        }
        const rolledBack = healthyTime - lastCheckpoint;
        if (C > 0 && rolledBack > 0) {
          rec?.curve.point(next, healthyTime / R);
          rec?.job(FtJobState.rolledBack, lastCheckpointAt, next);
          healthyTime = lastCheckpoint;
          lost += rolledBack / R;
          if (rec) rec.lostPerFailure[i] = rolledBack / R;
        }
      } else rec?.job(FtJobState.jobRestart, jobPieceStart, next);
      jobOwner = i;
      jobPieceStart = next;
      jobDetectEnd = next + trace.ftDetectSeconds[i]!;
      jobEnd = next + trace.ftDetectSeconds[i]! + jobRestartSeconds;
      jobRestarts++;
      i++;
    } else {
      const first = trace.replica[i]!;
      const count = trace.replicaCount[i]!;
      for (let j = 0; j < count; j++) {
        const r = first + j < R ? first + j : (first + j) % R;
        const was = phase[r]!;
        if (was === HEALTHY) {
          down++;
          if (slowCount !== null && slowCount[r]! > 0) slowHealthy--;
        } else leave(r);
        if (attr) {
          attr.failureOf[r] = i;
          attr.stalling.remove(r);
          attr.down.upsert(r);
        }
        // §4 "quiet": a replica already outside the quorum starts over without stalling it. A
        // replica in a quiet detect is outside it too (the quorum dropped it before), so a second
        // strike there is quiet as well: §4 gives the reason, "the quorum does not contain it".
        if (
          quiet &&
          (was === FtPhase.waitSpare ||
            was === FtPhase.restart ||
            was === FtPhase.detectQuiet ||
            (was === FtPhase.catchUp && !blocking))
        ) {
          phaseEnd[r] = next + trace.ftDetectSeconds[i]!;
          enter(r, FtPhase.detectQuiet);
        } else {
          phaseEnd[r] = next + trace.ftDetectSeconds[i]! + reconfigureSeconds;
          enter(r, FtPhase.detect);
        }
      }
      i++;
    }

    const belowMin = R - down < minReplicas;
    const isFailureStalled = stallPhases > 0 || belowMin || jobOwner >= 0;
    const isStalled = isFailureStalled || writing;
    if (rec) {
      if (isFailureStalled !== wasFailureStalled) rec.stallTransition(isFailureStalled, t);
      if ((isStalled ? 0 : (R - down) * (slowHealthy > 0 ? slowMul : 1)) !== rateBefore)
        rec.curve.point(t, healthyTime / R);
    }
    wasStalled = isStalled;
    wasFailureStalled = isFailureStalled;
    wasBelowMin = belowMin;
  }
  if (rec) {
    if (jobOwner >= 0) rec.job(FtJobState.jobRestart, jobPieceStart, H);
    if (writing) rec.job(FtJobState.checkpointing, writeStart, H);
  }
  if (writing) checkpointSeconds += H - writeStart;
  // A write that ends exactly at the horizon completes (as the synchronous job's does); so does
  // a zero-length one falling due there.
  if (writing ? writeEnd <= H : C > 0 && W === 0 && jobOwner < 0 && sinceCheckpoint >= C) checkpoints++;
  for (let r = 0; r < R && pool; r++)
    if (phase[r] === FtPhase.waitSpare) longestWait[0] = Math.max(longestWait[0]!, H - waitStart[r]!);

  const causeStall = new Float64Array(nCauses);
  for (let f = 0; f < n && nCauses > 0; f++) {
    const c = trace.cause[f]!;
    if (c >= 0 && attr) causeStall[c]! += attr.stallPerFailure[f]!;
  }

  // §6: slow events cut the run into up to ~10⁶ pieces, whose sum can round a hair past the
  // horizon; capped there (runs without slow hosts keep their bits).
  const useful = slowEv !== null ? Math.min(healthyTime / R, H) : healthyTime / R;
  bad[Badput.rolledBack] = lost;
  bad[Badput.degraded]! += downWhileTraining / R;
  const metrics: PolicyMetrics = assembleMetrics(trace, {
    wallSeconds: H,
    usefulSeconds: useful,
    stallSeconds: stall,
    lostWorkSeconds: lost,
    checkpoints,
    checkpointSeconds,
    degradedSeconds: degraded,
    healthyReplicaSeconds: healthySum,
    secondsWithKDown: kDown,
    jobRestarts,
    spareWaitSeconds: spareWait,
    longestSpareWaitSeconds: longestWait[0]!,
    pool,
    causeStallSeconds: causeStall,
    badputSeconds: bad,
  });
  if (!rec) return { metrics };
  if (wasFailureStalled) rec.stallEnd.push(H);
  rec.curve.point(H, useful);
  return { metrics, recording: rec.build(H, pool) };
}
