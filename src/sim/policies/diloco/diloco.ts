/**
 * DiLoCo and Streaming DiLoCo (docs/model.md §7), event-driven: the events are failures, the ends
 * of recovery phases, spare requests, job restarts, slow hosts turning slow or well, and each
 * round's start, compute end and commit. The cost grows with failures and rounds, never with
 * steps inside a round, GPUs or (without slow hosts) replicas.
 *
 * Each round's participants are the replicas healthy at its start: a replica is one while it stays
 * healthy since then (healthySince ≤ the round's start), so a round begins in O(1). Participants
 * finish their H·s of compute together, except laggards (a slow host stretched theirs), which are
 * tracked one by one. Between two events every replica's state is constant, so each badput
 * category is a count of replicas × the time between them.
 *
 * At one instant, in this order: slow changes, spare requests, phase ends, a job restart's end,
 * a failed sync's stall end, a commit, compute ends, a round's start, then the failure.
 */
import { type FailureTrace, Layout } from "../../failures/failureTrace.ts";
import { runSparePool } from "../../failures/spares.ts";
import { derived } from "../../scenario/derived.ts";
import type { Scenario } from "../../scenario/index.ts";
import { replicaSlowEvents } from "../../slow/slowEpisodes.ts";
import { Badput, FtJobState, FtPhase, type PolicyMetrics, RoundOutcome, ScopeCode } from "../../types.ts";
import { assembleMetrics, badputSeconds } from "../policyMetrics.ts";
import { DilocoRecorder, type DilocoRecording } from "./dilocoRecorder.ts";
import { DONE, dilocoState, HEALTHY, NEXT_PHASE } from "./dilocoState.ts";

export type { DilocoRecording };

export function runDiloco(
  s: Scenario,
  trace: FailureTrace,
  record: boolean,
): { metrics: PolicyMetrics; recording?: DilocoRecording } {
  const { horizonSeconds: H } = derived(s);
  const R = s.cluster.replicas;
  const { syncEvery, syncSeconds: T, overlapSteps, stepEquivalence: q } = s.diloco;
  const step = s.training.stepSeconds;
  const Hs = syncEvery * step;
  const B = Math.max(0, T - overlapSteps * step);
  const minR = Math.max(1, s.ft.minReplicas);
  const { reconfigureSeconds, replicaRestartSeconds, catchUpSeconds } = s.ft;
  const jobRestartSeconds = s.sync.restartSeconds;
  const C = s.ft.checkpointMinutes * 60;
  const W = C > 0 ? s.ft.checkpointWriteSeconds : 0;
  const duration = Float64Array.of(0, 0, replicaRestartSeconds, catchUpSeconds, 0, 0, 0);
  const layout = new Layout(s);
  const pool = runSparePool(s, trace, trace.ftDetectSeconds, record);
  const slowEv = trace.slow ? replicaSlowEvents(s, trace.slow, H) : null;
  const slowMul = trace.slow ? 1 / trace.slow.factor : 1;
  const st = dilocoState(R);
  const { phase, phaseEnd, queue, healthySince, waitUntil, waitStart, owed, slowCount } = st;
  const { slowList, slowPos, lagId, lagRem, lagAt, lagSlow, lagDone, lagSlot } = st;
  if (pool) waitUntil.fill(Number.NEGATIVE_INFINITY, 0, R);
  const rec = record ? new DilocoRecorder(R, trace.count) : null;
  const n = trace.count;
  const stallOf = rec
    ? rec.stallPerFailure
    : n > 0 && s.failures.causes.length > 0
      ? new Float64Array(n)
      : null;
  const bad = badputSeconds();
  const kDown = new Float64Array(R + 1);
  const inPhase = new Int32Array(8);

  let t = 0;
  let i = 0;
  let down = 0;
  let slowN = 0;
  /** Replicas with a slow host now: slowList[0 .. slowSize). */
  let slowSize = 0;
  // The round computing now (cur*) and the one in its sync window (sync*).
  let curOn = false;
  let curStart = 0;
  let curCount = 0;
  let nonLag = 0;
  let lagN = 0;
  let lagLeft = 0;
  let lagSlowLeft = 0;
  let curRow = -1;
  let syncOn = false;
  let syncStart = 0;
  let syncCount = 0;
  let commitAt = Number.POSITIVE_INFINITY;
  let syncCkpt = false;
  let syncRow = -1;
  let nextDue = 0;
  /** Blocked time from here to nextDue is the checkpoint's write (after the sync's own B). */
  let ckptFrom = Number.POSITIVE_INFINITY;
  let stallEnd = 0;
  let stallFrom = 0;
  let stallOwner = -1;
  /** A failed sync's global stall is under way (until stallEnd, processed as its own event). */
  let stallOn = false;
  let jobOn = false;
  let jobEnd = Number.POSITIVE_INFINITY;
  let jobDetectEnd = 0;
  let jobPieceStart = 0;
  let jobOwner = -1;
  // Raw inner-step work (replica-seconds at full pace): committed, discarded.
  let committed = 0;
  let discarded = 0;
  let lastCkptWork = 0;
  let lastCkptAt = 0;
  let trainingSince = 0;
  let checkpoints = 0;
  let checkpointSeconds = 0;
  let jobRestarts = 0;
  let lost = 0;
  let stall = 0;
  let degraded = 0;
  let healthySum = 0;
  let spareWait = 0;
  let request = 0;
  let roundsCommitted = 0;
  let roundsDiscarded = 0;
  let roundsBegun = 0;
  let participantSum = 0;

  // The helpers below read only constants and arrays: a closure over one of the loop's mutable
  // counters would move it from a register into a heap context for the whole run (the loop runs
  // ~14,000 times on the default scenario), so the counters are updated by the callers.
  /** Laggard slot k's inner-step work so far in the current round, at time now. */
  const lagWork = (k: number, now: number): number => {
    if (lagDone[k]) return Hs;
    return Hs - (lagRem[k]! - (now - lagAt[k]!) * (lagSlow[k] ? slowMul : 1));
  };
  /** Every current participant's work so far: nonLag of them at the common pace, the laggards one by one. */
  const roundWork = (now: number, start: number, nonLagging: number, lagging: number): number => {
    let w = nonLagging * Math.min(Hs, now - start);
    for (let k = 0; k < lagging; k++) if (lagSlot[lagId[k]!] === k) w += lagWork(k, now);
    return w;
  };
  /** Frees the round's laggard slots 0 .. lagging (the caller zeroes its counts). */
  const freeLaggards = (lagging: number) => {
    for (let k = 0; k < lagging; k++) lagSlot[lagId[k]!] = -1;
  };
  /** Makes replica r laggard slot k; returns 1 when its host is slow now. */
  const makeLaggard = (k: number, r: number, now: number, remaining: number): number => {
    lagId[k] = r;
    lagSlot[r] = k;
    lagRem[k] = remaining;
    lagAt[k] = now;
    lagDone[k] = 0;
    lagSlow[k] = slowCount[r]! > 0 ? 1 : 0;
    return lagSlow[k]!;
  };
  const idleAll = (now: number) => {
    if (!rec) return;
    for (let r = 0; r < R; r++)
      if (phase[r] === HEALTHY && Number.isNaN(rec.idleSince[r]!)) rec.idleFrom(r, now);
  };

  // enter and leave run at every phase end and failure, and take and return no doubles: V8 boxes a
  // double passed to or returned from a call it does not inline (a heap allocation each time, and
  // whether it inlines them varies from process to process), so the time of the event being
  // handled is clock[0], set once a pass, a failure's detection time clock[1], and the longest
  // spare wait longest[0] (as ftHsdp.ts keeps its doubles).
  const clock = new Float64Array(2);
  const longest = new Float64Array(1);
  /**
   * Enter phase p at clock[0] (its end in phaseEnd[r] is set here; a detect lasts clock[1], and
   * NEXT_PHASE never leads to detect, so only a failure's caller sets it); zero-length phases
   * pass through. Returns 1 when the replica is healthy again (the caller counts it up).
   */
  const enter = (r: number, p: number): number => {
    const now = clock[0]!;
    for (;;) {
      if (p === DONE) {
        phase[r] = HEALTHY;
        healthySince[r] = now;
        queue.remove(r);
        rec?.idleFrom(r, now);
        return 1;
      }
      const end =
        p === FtPhase.detect
          ? now + clock[1]!
          : p === FtPhase.waitSpare
            ? pool && waitUntil[r]! > now
              ? waitUntil[r]!
              : now
            : now + duration[p]!;
      if (end > now) {
        phase[r] = p;
        phaseEnd[r] = end;
        inPhase[p]!++;
        queue.upsert(r);
        if (p === FtPhase.waitSpare) waitStart[r] = now;
        rec?.enter(r, p, now, end);
        return 0;
      }
      p = NEXT_PHASE[p]!;
    }
  };
  /** Leaves r's phase at clock[0]; a wait for a spare that ends is a candidate for the longest. */
  const leave = (r: number): void => {
    const now = clock[0]!;
    const p = phase[r]!;
    inPhase[p]!--;
    rec?.leave(r, now);
    if (p === FtPhase.waitSpare) longest[0] = Math.max(longest[0]!, now - waitStart[r]!);
  };

  rec?.curve.point(0, 0);
  for (;;) {
    const nextFailure = i < n ? trace.time[i]! : H;
    const nextPhaseEnd = queue.size > 0 ? phaseEnd[queue.top()]! : H;
    const nextRequest = pool && request < pool.count ? pool.madeAt[request]! : H;
    const nextSlow = slowEv !== null && slowN < slowEv.count ? slowEv.time[slowN]! : H;
    const stalled = stallOn;
    // The compute's next end: the common one (non-laggards), or a laggard's.
    let nextFinish = Number.POSITIVE_INFINITY;
    if (curOn) {
      if (nonLag > 0 && curStart + Hs > t) nextFinish = curStart + Hs;
      for (let k = 0; k < lagN; k++) {
        if (lagDone[k] || lagSlot[lagId[k]!] !== k) continue;
        const end = lagAt[k]! + (lagSlow[k] ? lagRem[k]! / slowMul : lagRem[k]!);
        if (end < nextFinish) nextFinish = end;
      }
    }
    const canStart = !curOn && !jobOn && !stalled && R - down >= minR;
    const nextStart = canStart ? Math.max(nextDue, t) : Number.POSITIVE_INFINITY;
    const nextCkpt = !curOn && ckptFrom > t ? ckptFrom : Number.POSITIVE_INFINITY;
    const next = Math.min(
      nextFailure,
      nextPhaseEnd,
      nextRequest,
      nextSlow,
      H,
      jobEnd,
      stalled ? stallEnd : Number.POSITIVE_INFINITY,
      commitAt,
      nextFinish,
      nextStart,
      nextCkpt,
    );
    const dt = next - t;
    if (dt > 0) {
      kDown[down]! += dt;
      const healthy = R - down;
      healthySum += healthy * dt;
      if (jobOn) {
        stall += dt;
        const detecting = jobDetectEnd > t ? Math.min(dt, jobDetectEnd - t) : 0;
        bad[Badput.detection]! += R * detecting;
        bad[Badput.recovery]! += R * (dt - detecting);
      } else {
        if (down > 0) {
          // Each recovery phase's badput category (catch-up is charged as rejoin; the rejoin phase
          // itself is never entered here: its duration is 0).
          const nDetect = inPhase[FtPhase.detect]!;
          const nRestart = inPhase[FtPhase.restart]!;
          const nCatchUp = inPhase[FtPhase.catchUp]!;
          const nWait = inPhase[FtPhase.waitSpare]!;
          if (nDetect > 0) bad[Badput.detection]! += nDetect * dt;
          if (nRestart > 0) bad[Badput.recovery]! += nRestart * dt;
          if (nCatchUp > 0) bad[Badput.rejoin]! += nCatchUp * dt;
          if (nWait > 0) bad[Badput.spareWait]! += nWait * dt;
          spareWait += nWait * dt;
        }
        if (stalled) {
          stall += dt;
          bad[Badput.detection]! += healthy * dt;
        } else {
          if (down > 0) degraded += dt;
          let computing = 0;
          let blocked = 0;
          if (curOn) {
            computing = (curStart + Hs > t ? nonLag : 0) + lagLeft;
            blocked = curCount - computing;
            if (lagSlowLeft > 0) bad[Badput.slow]! += lagSlowLeft * (1 - slowMul) * dt;
          } else if (syncOn && t < nextDue) blocked = syncCount;
          if (blocked > 0)
            bad[t >= ckptFrom && !curOn ? Badput.checkpointWrite : Badput.outerSync]! += blocked * dt;
          const idle = healthy - computing - blocked;
          if (idle > 0) bad[Badput.degraded]! += idle * dt;
        }
      }
      t = next;
    }
    if (next >= H) break;
    clock[0] = next;
    let startNow = false;

    if (nextSlow === next && slowEv !== null && slowN < slowEv.count) {
      const r = slowEv.replica[slowN]!;
      const before = slowCount[r]!;
      const after = before + slowEv.delta[slowN]!;
      slowCount[r] = after;
      slowN++;
      if (before === 0 && after > 0) {
        slowPos[r] = slowSize;
        slowList[slowSize++] = r;
      } else if (before > 0 && after === 0) {
        const at = slowPos[r]!;
        const last = slowList[--slowSize]!;
        slowList[at] = last;
        slowPos[last] = at;
        slowPos[r] = -1;
      }
      if (before > 0 !== after > 0 && curOn && phase[r] === HEALTHY && healthySince[r]! <= curStart) {
        const k = lagSlot[r]!;
        if (k < 0) {
          if (curStart + Hs > t) {
            lagSlowLeft += makeLaggard(lagN++, r, t, curStart + Hs - t);
            lagLeft++;
            nonLag--;
          }
        } else if (!lagDone[k]) {
          lagRem[k] = lagRem[k]! - (t - lagAt[k]!) * (lagSlow[k] ? slowMul : 1);
          lagAt[k] = t;
          lagSlowLeft -= lagSlow[k]!;
          lagSlow[k] = after > 0 ? 1 : 0;
          lagSlowLeft += lagSlow[k]!;
        }
      }
    } else if (nextRequest === next && pool) {
      const r = layout.replicaOf(pool.host[request]!);
      const served = pool.servedAt[request]!;
      if (served > waitUntil[r]!) {
        waitUntil[r] = served;
        owed.upsert(r);
      }
      request++;
    } else if (nextPhaseEnd === next && queue.size > 0) {
      const r = queue.top();
      const p = phase[r]!;
      leave(r);
      down -= enter(r, NEXT_PHASE[p]!);
    } else if (jobOn && jobEnd === next) {
      rec?.job(FtJobState.jobRestart, jobPieceStart, next);
      if (stallOf && jobOwner >= 0) stallOf[jobOwner]! += next - jobPieceStart;
      jobOn = false;
      jobEnd = Number.POSITIVE_INFINITY;
      trainingSince = 0;
      lastCkptAt = next;
      nextDue = next;
      idleAll(next);
      for (let r = 0; r < R; r++) healthySince[r] = next;
      if (pool) {
        while (owed.size > 0 && waitUntil[owed.top()]! <= next) owed.remove(owed.top());
        for (let k = 0; k < owed.size; k++) {
          const r = owed.at(k);
          down++;
          rec?.idleTo(r, next);
          down -= enter(r, FtPhase.waitSpare);
        }
      }
    } else if (stalled && stallEnd === next) {
      rec?.stall(stallFrom, next);
      if (stallOf && stallOwner >= 0) stallOf[stallOwner]! += next - stallFrom;
      stallOwner = -1;
      stallOn = false;
      nextDue = next;
    } else if (commitAt === next) {
      committed += syncCount * Hs;
      roundsCommitted++;
      rec?.resolve(syncRow, next, RoundOutcome.committed);
      if (syncCkpt) {
        checkpoints++;
        checkpointSeconds += W;
        lastCkptWork = committed;
        lastCkptAt = next;
        trainingSince = 0;
        rec?.job(FtJobState.checkpointing, next - W, next);
      }
      if (rec) {
        rec.curve.point(next, (q * (committed - syncCount * Hs)) / R);
        rec.curve.point(next, (q * committed) / R);
      }
      syncOn = false;
      commitAt = Number.POSITIVE_INFINITY;
      if (!curOn) ckptFrom = Number.POSITIVE_INFINITY;
      // The next round starts at this same instant when nothing holds it (a sync without overlap
      // ends as the blocked time does): the events that come before a start at one instant were
      // all taken before this commit, so it starts here rather than one pass of the loop later.
      startNow = !curOn && !jobOn && !stallOn && R - down >= minR && nextDue <= next;
    } else if (nextFinish === next && curOn) {
      // Laggards whose compute ends now; the common end needs nothing but the clock.
      for (let k = 0; k < lagN; k++) {
        if (lagDone[k] || lagSlot[lagId[k]!] !== k) continue;
        const end = lagAt[k]! + (lagSlow[k] ? lagRem[k]! / slowMul : lagRem[k]!);
        if (end <= next) {
          lagDone[k] = 1;
          lagLeft--;
          lagSlowLeft -= lagSlow[k]!;
        }
      }
    } else if (nextStart === next && canStart) {
      startNow = true;
    } else if (next === nextCkpt) {
      // Only the category of the blocked time changes (outer sync → checkpoint write).
    } else if (trace.scope[i] === ScopeCode.job || jobOn) {
      if (!jobOn) {
        // Every pending phase is cancelled; rounds in flight are lost, and the committed work since
        // the last checkpoint rolls back (checkpointMinutes 0: nothing committed rolls back).
        while (queue.size > 0) {
          const r = queue.top();
          leave(r);
          phase[r] = HEALTHY;
          queue.remove(r);
        }
        down = 0;
        if (rec) for (let r = 0; r < R; r++) rec.idleTo(r, next);
        const before = discarded;
        if (syncOn) {
          discarded += syncCount * Hs;
          roundsDiscarded++;
          rec?.resolve(syncRow, next, RoundOutcome.discarded);
          syncOn = false;
          commitAt = Number.POSITIVE_INFINITY;
          ckptFrom = Number.POSITIVE_INFINITY;
        }
        if (curOn) {
          discarded += roundWork(next, curStart, nonLag, lagN);
          roundsDiscarded++;
          rec?.resolve(curRow, next, RoundOutcome.discarded);
          curOn = false;
          freeLaggards(lagN);
          lagN = 0;
          lagLeft = 0;
          lagSlowLeft = 0;
        }
        if (stallOn) {
          rec?.stall(stallFrom, next);
          if (stallOf && stallOwner >= 0) stallOf[stallOwner]! += next - stallFrom;
          stallEnd = next;
          stallOwner = -1;
          stallOn = false;
        }
        const rolled = C > 0 ? committed - lastCkptWork : 0;
        if (rolled > 0) {
          if (rec) {
            rec.curve.point(next, (q * committed) / R);
            rec.job(FtJobState.rolledBack, lastCkptAt, next);
            rec.curve.point(next, (q * lastCkptWork) / R);
          }
          committed = lastCkptWork;
          lost += rolled;
        }
        if (rec) rec.lostPerFailure[i] = (discarded - before + Math.max(0, rolled)) / R;
      } else {
        rec?.job(FtJobState.jobRestart, jobPieceStart, next);
        if (stallOf && jobOwner >= 0) stallOf[jobOwner]! += next - jobPieceStart;
      }
      jobOn = true;
      jobOwner = i;
      jobPieceStart = next;
      jobDetectEnd = next + trace.ftDetectSeconds[i]!;
      jobEnd = jobDetectEnd + jobRestartSeconds;
      jobRestarts++;
      i++;
    } else {
      const first = trace.replica[i]!;
      const count = trace.replicaCount[i]!;
      const detect = trace.ftDetectSeconds[i]!;
      clock[1] = detect;
      const before = discarded;
      for (let j = 0; j < count; j++) {
        const r = first + j < R ? first + j : (first + j) % R;
        if (phase[r] !== HEALTHY) {
          leave(r);
          down -= enter(r, FtPhase.detect);
          continue;
        }
        if (syncOn && next < commitAt && healthySince[r]! <= syncStart) {
          // In the sync window: the all-reduce fails on every participant (and the next round's
          // steps taken inside the window go too); a global stall follows.
          if (rec) rec.discarded.push(-1, syncStart, next);
          if (syncOn) {
            discarded += syncCount * Hs;
            roundsDiscarded++;
            rec?.resolve(syncRow, next, RoundOutcome.discarded);
            syncOn = false;
            commitAt = Number.POSITIVE_INFINITY;
            ckptFrom = Number.POSITIVE_INFINITY;
          }
          if (curOn && rec) rec.discarded.push(-1, curStart, next);
          if (curOn) {
            discarded += roundWork(next, curStart, nonLag, lagN);
            roundsDiscarded++;
            rec?.resolve(curRow, next, RoundOutcome.discarded);
            curOn = false;
            freeLaggards(lagN);
            lagN = 0;
            lagLeft = 0;
            lagSlowLeft = 0;
          }
          const end = next + detect + reconfigureSeconds;
          if (!stallOn) {
            stallFrom = next;
            stallOwner = i;
            stallOn = true;
          }
          if (end > stallEnd) stallEnd = end;
          nextDue = stallEnd;
        } else if (curOn && healthySince[r]! <= curStart) {
          const k0 = lagSlot[r]!;
          const w = k0 < 0 ? Math.min(Hs, next - curStart) : lagWork(k0, next);
          discarded += w;
          if (rec && w > 0) rec.discarded.push(r, curStart, next);
          const k = lagSlot[r]!;
          if (k < 0) nonLag--;
          else {
            if (!lagDone[k]) {
              lagLeft--;
              lagSlowLeft -= lagSlow[k]!;
            }
            lagSlot[r] = -1;
          }
          curCount--;
          if (curCount === 0) {
            roundsDiscarded++;
            rec?.resolve(curRow, next, RoundOutcome.discarded);
            curOn = false;
            freeLaggards(lagN);
            lagN = 0;
            lagLeft = 0;
            lagSlowLeft = 0;
            nextDue = next;
          }
        }
        down++;
        rec?.idleTo(r, next);
        down -= enter(r, FtPhase.detect);
      }
      if (rec) rec.lostPerFailure[i] = (discarded - before) / R;
      i++;
    }

    if (startNow) {
      curOn = true;
      curStart = next;
      curCount = R - down;
      nonLag = curCount;
      roundsBegun++;
      participantSum += curCount;
      if (rec) {
        curRow = rec.round(next, curCount);
        for (let r = 0; r < R; r++) if (phase[r] === HEALTHY) rec.idleTo(r, next);
      }
      ckptFrom = Number.POSITIVE_INFINITY;
      for (let k = 0; k < slowSize; k++) {
        const r = slowList[k]!;
        if (phase[r] === HEALTHY) {
          lagSlowLeft += makeLaggard(lagN++, r, next, Hs);
          lagLeft++;
          nonLag--;
        }
      }
    }

    // A round whose every participant has finished its compute reaches its compute end now.
    if (curOn && curCount > 0 && lagLeft === 0 && (nonLag === 0 || curStart + Hs <= t)) {
      trainingSince += t - curStart;
      syncCkpt = C > 0 && trainingSince >= C;
      const w = syncCkpt ? W : 0;
      syncOn = true;
      syncStart = curStart;
      syncCount = curCount;
      syncRow = curRow;
      commitAt = t + T + w;
      nextDue = t + B + w;
      ckptFrom = syncCkpt ? t + B : Number.POSITIVE_INFINITY;
      rec?.computeEnd(curRow, t);
      curOn = false;
      freeLaggards(lagN);
      lagN = 0;
      lagLeft = 0;
      lagSlowLeft = 0;
    }
  }

  // The horizon: rounds under way count their participants' steps so far as committed (§1's
  // "pending progress counts"), and a sync that ends exactly there commits (as a write ending there
  // completes). Written so that every run takes the same operations, adding 0 where nothing is
  // under way (committed + 0 is committed): an operation only some runs reach has no type feedback
  // in the optimised code, and its deoptimisation there sent the next run through the
  // interpreter (76 deopts in 1,300 default runs, --trace-deopt). No round computes: lagN is 0.
  committed += (syncOn ? syncCount : 0) * Hs;
  committed += roundWork(H, curStart, curOn ? nonLag : 0, lagN);
  // commitAt is +∞ unless a sync is in flight.
  const commitsAtHorizon = commitAt <= H ? 1 : 0;
  roundsCommitted += commitsAtHorizon;
  checkpoints += syncCkpt ? commitsAtHorizon : 0;
  if (rec && commitsAtHorizon) rec.resolve(syncRow, H, RoundOutcome.committed);
  // The shared state as the next run expects it: no laggard, no slow replica.
  freeLaggards(lagN);
  for (let k = 0; k < slowSize; k++) {
    slowCount[slowList[k]!] = 0;
    slowPos[slowList[k]!] = -1;
  }
  if (rec) {
    if (jobOn) rec.job(FtJobState.jobRestart, jobPieceStart, H);
    if (stallOn) rec.stall(stallFrom, H);
  }
  if (stallOf && jobOn && jobOwner >= 0) stallOf[jobOwner]! += H - jobPieceStart;
  if (stallOf && stallOn && stallOwner >= 0) stallOf[stallOwner]! += H - stallFrom;
  if (pool)
    for (let r = 0; r < R; r++)
      if (phase[r] === FtPhase.waitSpare) longest[0] = Math.max(longest[0]!, H - waitStart[r]!);

  const nCauses = s.failures.causes.length;
  const causeStall = new Float64Array(nCauses);
  for (let f = 0; f < n && nCauses > 0 && stallOf; f++) {
    const c = trace.cause[f]!;
    if (c >= 0) causeStall[c]! += stallOf[f]!;
  }
  bad[Badput.rolledBack] = (discarded + lost) / R;
  bad[Badput.convergence] = ((1 - q) * committed) / R;
  for (let k = 0; k < bad.length; k++) if (k !== Badput.rolledBack && k !== Badput.convergence) bad[k]! /= R;
  const useful = (q * committed) / R;
  const metrics = assembleMetrics(trace, {
    wallSeconds: H,
    usefulSeconds: useful,
    stallSeconds: stall,
    lostWorkSeconds: (discarded + lost) / R,
    checkpoints,
    checkpointSeconds,
    degradedSeconds: degraded,
    healthyReplicaSeconds: healthySum,
    secondsWithKDown: kDown,
    jobRestarts,
    spareWaitSeconds: spareWait,
    longestSpareWaitSeconds: longest[0]!,
    pool,
    causeStallSeconds: causeStall,
    badputSeconds: bad,
    rounds: { committed: roundsCommitted, discarded: roundsDiscarded, participantSum, begun: roundsBegun },
  });
  if (!rec) return { metrics };
  rec.curve.point(H, useful);
  return { metrics, recording: rec.build(H, pool) };
}
