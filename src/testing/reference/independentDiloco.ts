/**
 * The reference's DiLoCo (docs/model.md §7), a plain loop written from the spec text, not from
 * src/sim/policies/diloco: every replica is an object that carries its own state and its own
 * round's work, every instant is settled to a fixed point in the spec's order, and every
 * replica's wall time is charged to its category one by one. Clarity over speed.
 */
import { derived, type Scenario } from "../../sim/scenario/index.ts";
import { type Failure, ftDetectSeconds, hostsStruck, type Knobs, replicaOfHost } from "./failures.ts";
import { type Badput, INF, noBadput, type ReferenceMetrics, SpareWaits } from "./metrics.ts";
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

type Phase = "healthy" | "detect" | "waitSpare" | "restart" | "catchUp";

interface Replica {
  phase: Phase;
  phaseEnd: number;
  waitSince: number;
  waitFor: Request[];
  /** Takes part in the round computing now, and its inner-step work in it (seconds at full pace). */
  inRound: boolean;
  work: number;
  /** Takes part in the round whose sync is under way. */
  inSync: boolean;
}

/** DiLoCo's figures beyond the shared ones: §7 "New metrics". */
export interface DilocoReferenceMetrics extends ReferenceMetrics {
  roundsCommitted: number;
  roundsDiscarded: number;
  meanParticipants: number;
}

const PHASE_CATEGORY: Record<Exclude<Phase, "healthy">, keyof Badput> = {
  detect: "detection",
  waitSpare: "spareWait",
  restart: "recovery",
  catchUp: "rejoin",
};

export function referenceDiloco(
  s: Scenario,
  k: Knobs,
  failures: readonly Failure[],
  slow: SlowRun | null = null,
): DilocoReferenceMetrics {
  const { horizonSeconds: H } = derived(s);
  const R = s.cluster.replicas;
  const H_steps = s.diloco.syncEvery;
  const s_step = s.training.stepSeconds;
  const roundWork = H_steps * s_step;
  const T = s.diloco.syncSeconds;
  const q = s.diloco.stepEquivalence;
  const block = Math.max(0, T - s.diloco.overlapSteps * s_step);
  const quorum = Math.max(1, s.ft.minReplicas);
  const interval = k.ftCheckpointMinutes * 60;
  const write = interval > 0 ? k.ftCheckpointWriteSeconds : 0;
  const pool = newPool(k);
  const waits = new SpareWaits();
  const perCause = k.causes.map(() => ({ count: 0, stallSeconds: 0 }));
  const mine = (r: number) => (host: number) => replicaOfHost(s, k, host) === r;
  const walk = new SlowWalk(slow, H, R, (host) => replicaOfHost(s, k, host));
  const factor = slow?.factor ?? 1;
  const reps: Replica[] = Array.from({ length: R }, () => ({
    phase: "healthy",
    phaseEnd: INF,
    waitSince: 0,
    waitFor: [],
    inRound: false,
    work: 0,
    inSync: false,
  }));

  let round: { start: number } | null = null;
  let sync: { commitAt: number; checkpoint: boolean; ckptFrom: number } | null = null;
  let nextDue = 0;
  let stallEnd = 0;
  let stallOwner = -1;
  let jobRestart = false;
  let jobEnd = INF;
  let jobDetectEnd = INF;
  let jobOwner = -1;
  let kept = 0; // committed inner-step work, replica-seconds
  let thrown = 0; // discarded inner-step work
  let savedAt = 0; // `kept` at the last completed checkpoint
  let rolled = 0;
  let clock = 0; // compute time of the rounds since the last checkpoint or job restart
  let checkpoints = 0;
  let stall = 0;
  let degraded = 0;
  let poolEmptySeconds = 0;
  let jobRestarts = 0;
  let committedRounds = 0;
  let discardedRounds = 0;
  let begun = 0;
  let participants = 0;
  const kDown = new Array<number>(R + 1).fill(0);
  const badput = noBadput();
  let t = 0;
  let i = 0;

  const enter = (r: number, p: Phase, length: number) => {
    const x = reps[r]!;
    x.phase = p;
    x.phaseEnd = t + length;
    if (p === "waitSpare") {
      x.waitSince = t;
      x.waitFor = unserved(pool, mine(r));
    }
  };
  const leave = (r: number) => {
    const x = reps[r]!;
    if (x.phase === "waitSpare") waits.close(x.waitSince, t);
  };
  const dropRound = () => {
    if (round === null) return;
    for (const x of reps) {
      if (x.inRound) thrown += x.work;
      x.inRound = false;
      x.work = 0;
    }
    round = null;
    discardedRounds++;
  };
  const dropSync = () => {
    if (sync === null) return;
    for (const x of reps) {
      if (x.inSync) thrown += roundWork;
      x.inSync = false;
    }
    sync = null;
    discardedRounds++;
  };
  const healthyCount = () => reps.filter((x) => x.phase === "healthy").length;
  const rate = (r: number) => (walk.slowIn(r) ? 1 / factor : 1);
  const finishAt = (r: number) => t + (roundWork - reps[r]!.work) / rate(r);

  for (;;) {
    walk.advance(t);
    for (let changed = true; changed; ) {
      changed = settlePool(pool, t);
      for (let r = 0; r < R; r++) {
        const x = reps[r]!;
        if (x.phase === "waitSpare") {
          if (allServed(pool, x.waitFor)) {
            leave(r);
            enter(r, "restart", s.ft.replicaRestartSeconds);
            changed = true;
          }
        } else if (x.phase !== "healthy" && x.phaseEnd <= t) {
          if (x.phase === "detect") enter(r, "waitSpare", INF);
          else if (x.phase === "restart") enter(r, "catchUp", s.ft.catchUpSeconds);
          else enter(r, "healthy", INF); // healed from a peer: idle until the next round
          changed = true;
        }
      }
      if (jobRestart && jobEnd <= t) {
        jobRestart = false;
        clock = 0;
        nextDue = t;
        for (let r = 0; r < R; r++) if (unserved(pool, mine(r)).length > 0) enter(r, "waitSpare", INF);
        changed = true;
      }
      if (stallEnd <= t && stallOwner >= 0) {
        stallOwner = -1;
        changed = true;
      }
      if (sync !== null && sync.commitAt <= t) {
        for (const x of reps) {
          if (x.inSync) kept += roundWork;
          x.inSync = false;
        }
        if (sync.checkpoint) {
          checkpoints++;
          savedAt = kept;
          clock = 0;
        }
        sync = null;
        committedRounds++;
        changed = true;
      }
      // Every participant done with its H steps: the round's compute ends, its sync begins.
      // (At the horizon itself it has not synced: its work counts as pending, below.)
      if (round !== null && t < H && reps.every((x) => !x.inRound || x.work >= roundWork)) {
        clock += t - round.start;
        const checkpoint = interval > 0 && clock >= interval;
        const w = checkpoint ? write : 0;
        for (const x of reps) {
          x.inSync = x.inRound;
          x.inRound = false;
          x.work = 0;
        }
        sync = { commitAt: t + T + w, checkpoint, ckptFrom: checkpoint ? t + block : INF };
        nextDue = t + block + w;
        round = null;
        changed = true;
      }
      // A round begins once everything else at this instant has settled (zero-length recovery
      // phases included), and never at the horizon itself: nothing of it would run.
      if (
        !changed &&
        round === null &&
        t < H &&
        !jobRestart &&
        stallEnd <= t &&
        nextDue <= t &&
        healthyCount() >= quorum
      ) {
        round = { start: t };
        begun++;
        for (const x of reps) {
          x.inRound = x.phase === "healthy";
          x.work = 0;
          if (x.inRound) participants++;
        }
        changed = true;
      }
    }
    const f = failures[i];
    if (f !== undefined && f.time <= t) {
      const detect = ftDetectSeconds(s, k, f);
      const hosts = hostsStruck(k, f);
      strike(pool, t, hosts, f.newHost, t + detect, f.repair);
      if (f.cause >= 0) perCause[f.cause]!.count++;
      if (f.scope === "job" || jobRestart) {
        if (!jobRestart) {
          dropSync();
          dropRound();
          if (interval > 0) {
            rolled += kept - savedAt;
            kept = savedAt;
          }
          stallEnd = Math.min(stallEnd, t);
          stallOwner = -1;
        }
        for (let r = 0; r < R; r++) {
          leave(r);
          enter(r, "healthy", INF);
        }
        jobRestart = true;
        jobDetectEnd = t + detect;
        jobEnd = t + detect + s.sync.restartSeconds;
        jobOwner = i;
        jobRestarts++;
      } else {
        const struck = [...new Set(hosts.map((h) => replicaOfHost(s, k, h)))];
        const inWindow = sync !== null && t < sync.commitAt;
        if (inWindow && struck.some((r) => reps[r]!.phase === "healthy" && reps[r]!.inSync)) {
          // The outer all-reduce fails on every participant: every one's round is lost, and so are
          // the next round's steps taken inside the window; everyone waits out the failure.
          dropSync();
          dropRound();
          if (stallEnd <= t) stallOwner = i;
          stallEnd = Math.max(stallEnd, t + detect + s.ft.reconfigureSeconds);
          nextDue = stallEnd;
        }
        for (const r of struck) {
          const x = reps[r]!;
          if (x.phase === "healthy" && x.inRound) {
            thrown += x.work;
            x.inRound = false;
            x.work = 0;
            if (round !== null && !reps.some((y) => y.inRound)) {
              round = null;
              discardedRounds++;
              nextDue = t;
            }
          }
          x.inSync = false;
          leave(r);
          enter(r, "detect", detect);
        }
      }
      i++;
      continue;
    }
    if (t >= H) break;

    // The next instant anything changes.
    let next = Math.min(f?.time ?? INF, nextPoolEvent(pool), H, walk.next());
    for (const x of reps)
      if (x.phase !== "healthy" && x.phase !== "waitSpare") next = Math.min(next, x.phaseEnd);
    if (jobRestart) next = Math.min(next, jobEnd, jobDetectEnd > t ? jobDetectEnd : INF);
    if (stallEnd > t) next = Math.min(next, stallEnd);
    if (sync !== null) next = Math.min(next, sync.commitAt, sync.ckptFrom > t ? sync.ckptFrom : INF);
    if (round === null && nextDue > t) next = Math.min(next, nextDue);
    const computing = (r: number) => round !== null && reps[r]!.inRound && reps[r]!.work < roundWork;
    for (let r = 0; r < R; r++) if (computing(r)) next = Math.min(next, finishAt(r));
    const dt = next - t;

    const down = reps.filter((x) => x.phase !== "healthy").length;
    kDown[down] = kDown[down]! + dt;
    if (poolEmpty(pool)) poolEmptySeconds += dt;
    waits.total += dt * reps.filter((x) => x.phase === "waitSpare").length;
    const stalled = stallEnd > t;
    if (jobRestart || stalled) stall += dt;
    if (!jobRestart && !stalled && down > 0) degraded += dt;
    const owner = jobRestart ? jobOwner : stalled ? stallOwner : -1;
    const cause = failures[owner]?.cause ?? -1;
    if (cause >= 0) perCause[cause]!.stallSeconds += dt;
    for (let r = 0; r < R; r++) {
      const x = reps[r]!;
      if (jobRestart) badput[t >= jobDetectEnd ? "recovery" : "detection"] += dt;
      else if (x.phase !== "healthy") badput[PHASE_CATEGORY[x.phase]] += dt;
      else if (stalled) badput.detection += dt;
      else if (computing(r)) {
        const v = rate(r);
        badput.slow += (1 - v) * dt;
        x.work = next === finishAt(r) ? roundWork : x.work + v * dt;
      } else if (round !== null && x.inRound) badput.outerSync += dt;
      else if (round === null && sync !== null && x.inSync && t < nextDue)
        badput[t >= sync.ckptFrom ? "checkpointWrite" : "outerSync"] += dt;
      else badput.degraded += dt;
    }
    t = next;
  }
  // At the horizon the rounds under way count their participants' steps so far (§1).
  for (const x of reps) kept += (x.inSync ? roundWork : 0) + (x.inRound ? x.work : 0);
  for (const x of reps) if (x.phase === "waitSpare") waits.close(x.waitSince, H);
  // Seconds of one replica's wall time, as the whole cluster's (÷ R).
  const perCluster = (v: number) => v / R;
  const cluster = Object.fromEntries(
    Object.entries(badput).map(([c, v]) => [c, perCluster(v)]),
  ) as unknown as Badput;
  return {
    ettr: (q * kept) / R / H,
    usefulSeconds: (q * kept) / R,
    failures: failures.length,
    stallSeconds: stall,
    lostWorkSeconds: (thrown + rolled) / R,
    checkpoints,
    degradedSeconds: degraded,
    secondsWithKDown: kDown,
    jobRestarts,
    spareWaitSeconds: waits.total,
    longestSpareWaitSeconds: waits.longest,
    poolEmptySeconds,
    perCause,
    badput: { ...cluster, rolledBack: (thrown + rolled) / R, convergence: ((1 - q) * kept) / R },
    roundsCommitted: committedRounds,
    roundsDiscarded: discardedRounds,
    meanParticipants: begun > 0 ? participants / begun : 0,
  };
}
