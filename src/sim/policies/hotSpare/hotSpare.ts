/**
 * `hotSpare`: warm standbys with live migration (TorchPass-style), as docs/model.md §4 writes
 * it. Standby hosts hold the job's code and process groups and do not train. A recovery is a
 * migration (detect + `migrateSeconds`, the whole job waits, nothing rolls back) when R ≥ 2,
 * none of its failures is job-scope and as many standbys are ready as the hosts broken so far in
 * it; otherwise it is the synchronous job's full recovery (detect → waitSpare →
 * `sync.restartSeconds`, back to the last checkpoint of `sync`'s cadence, which this policy
 * writes too). The decision is taken at every failure that starts or restarts a recovery; a
 * full recovery stays full and gives its standbys back at once. A migration's standbys are ready
 * again `refillMinutes` after it ends. A migration aborts a write in progress (that checkpoint is
 * lost) and restarts the checkpoint interval, but rolls nothing back: the training since the last
 * completed checkpoint stays pending, and a later full recovery loses it.
 *
 * "Hosts broken": each strike of a `newHost` failure breaks the host then in each struck slot
 * (after a migration, the standby that took it over), so a recovery needs one standby per host
 * struck by its `newHost` failures. The policy's spare pool runs as for every policy (§3); only a
 * full recovery waits for it.
 */
import { causeTable } from "../../failures/causes.ts";
import type { FailureTrace } from "../../failures/failureTrace.ts";
import { runSparePool, servedBy } from "../../failures/spares.ts";
import { derived } from "../../scenario/derived.ts";
import type { Scenario } from "../../scenario/index.ts";
import { wholeJobClock } from "../../slow/slowEpisodes.ts";
import { type ClosedFormValue, type PolicyMetrics, ScopeCode, SyncState } from "../../types.ts";
import { poissonHostOnlyBroken, survival } from "../poissonForms.ts";
import type { SyncRecording } from "../synchronous/synchronous.ts";
import { CycleTraining, finishWholeJob, RecoveryPieces, WholeJobRecorder } from "../wholeJob.ts";

/** The form applies while a recovery needs more standbys than there are at most this often. */
const SHORT_TOLERANCE = 1e-3;

/**
 * §4: with standbys never short and no `sync` checkpoints, every recovery is a migration that
 * restarts when hit: E[e^(−λD)] with D = detect + `migrateSeconds`, exact. "Never short" is
 * checked, not assumed: with `refillMinutes` = 0 every standby is back when its migration ends,
 * and a migration needs more than S standbys only when S further failures hit it, with
 * probability (1 − e^(−λD))^S at most (D the longest detection + migration).
 */
export function hotSpareClosedForm(s: Scenario): ClosedFormValue {
  const broken = poissonHostOnlyBroken(s);
  if (broken) return { value: null, note: broken };
  if (s.cluster.replicas < 2)
    return { value: null, note: "one replica: no peer to migrate from, every recovery is full" };
  if (s.sync.checkpointMinutes > 0)
    return {
      value: null,
      note: "sync checkpoints: a migration restarts the interval without a rollback, not a renewal",
    };
  if (s.hotSpare.refillMinutes > 0)
    return { value: null, note: "standbys refill after a delay: they can run short between recoveries" };
  const { lambdaPerSecond: lambda } = derived(s);
  const causes = causeTable(s);
  let longestDetect = 0;
  for (let c = 0; c < causes.count; c++)
    if (causes.probability[c]! > 0) longestDetect = Math.max(longestDetect, causes.syncDetectSeconds[c]!);
  const D = longestDetect + s.hotSpare.migrateSeconds;
  const short = (1 - Math.exp(-lambda * D)) ** s.hotSpare.standbys;
  if (short > SHORT_TOLERANCE)
    return {
      value: null,
      note: `too few standbys: a recovery needs more than ${s.hotSpare.standbys} with probability up to ${short.toPrecision(2)}`,
    };
  return {
    value: survival(s, s.hotSpare.migrateSeconds),
    note: "exact while standbys are never short (renewal argument)",
  };
}

/** Refills pending (a FIFO: migrations end in time order and refills follow at a constant delay). */
let refillAt = new Float64Array(16);
let refillCount = new Int32Array(16);

export function runHotSpare(
  s: Scenario,
  trace: FailureTrace,
  record: boolean,
): { metrics: PolicyMetrics; recording?: SyncRecording } {
  const { horizonSeconds: H } = derived(s);
  const R = s.cluster.replicas;
  const { standbys, migrateSeconds } = s.hotSpare;
  const refill = s.hotSpare.refillMinutes * 60;
  const C = s.sync.checkpointMinutes * 60;
  const W = C > 0 ? s.sync.checkpointWriteSeconds : 0;
  const n = trace.count;
  const rec = record ? new WholeJobRecorder(n) : null;
  const pool = runSparePool(s, trace, trace.detectSeconds, record);
  const tr = new CycleTraining(C, W, H, rec, wholeJobClock(trace, H));
  const pieces = new RecoveryPieces(trace, s.failures.causes.length, rec);
  // Each pending refill brings at least one standby back: at most `standbys` are pending.
  if (refillAt.length < standbys) {
    refillAt = new Float64Array(standbys);
    refillCount = new Int32Array(standbys);
  }
  const cap = Math.max(1, standbys);
  let head = 0;
  let queued = 0;

  let ready = standbys;
  /** Standbys the current migration holds (they count as ready for it). */
  let taken = 0;
  let migrating = false;
  /** Hosts broken so far in the current recovery, and whether a job-scope failure touched it. */
  let broken = 0;
  let jobHit = false;
  /** Training since the last completed checkpoint kept over migrations (a full recovery loses it). */
  let carry = 0;
  let lost = 0;
  let fullRecoveries = 0;
  let segmentStart = 0;
  let recovering = false;
  let recoveryEnd = 0;

  const endRecovery = (at: number) => {
    pieces.close(at);
    recovering = false;
    segmentStart = at;
    if (migrating && taken > 0) {
      refillAt[(head + queued) % cap] = at + refill;
      refillCount[(head + queued) % cap] = taken;
      queued++;
    }
    taken = 0;
    migrating = false;
  };
  const rollBack = (amount: number, i: number, f: number) => {
    if (amount <= 0) return;
    tr.useful -= amount;
    lost += amount;
    if (rec) {
      rec.lostPerFailure[i]! += amount;
      rec.curve.point(f, tr.useful);
    }
  };

  for (let i = 0; i < n; i++) {
    const f = trace.time[i]!;
    if (recovering && f >= recoveryEnd) endRecovery(recoveryEnd);
    // Standbys ready by now count at this failure (as repaired spares do, §3's order).
    while (queued > 0 && refillAt[head]! <= f) {
      ready += refillCount[head]!;
      head = (head + 1) % cap;
      queued--;
    }
    const job = trace.scope[i] === ScopeCode.job;
    const hosts = trace.newHost[i] ? trace.hostCount[i]! : 0;
    if (recovering) {
      pieces.close(f);
      broken += hosts;
      jobHit = jobHit || job;
      if (migrating) {
        if (R >= 2 && !jobHit && ready + taken >= broken) {
          ready -= broken - taken;
          taken = broken;
        } else {
          // Too few standbys now (or a job-scope hit): a full recovery after all, from here.
          migrating = false;
          ready += taken;
          taken = 0;
          rollBack(carry, i, f);
          carry = 0;
        }
      }
    } else {
      broken = hosts;
      jobHit = job;
      migrating = R >= 2 && !job && ready >= broken;
      const pending = tr.train(segmentStart, f, !migrating);
      const since = (tr.completed === 0 ? carry : 0) + pending;
      if (migrating) {
        ready -= broken;
        taken = broken;
        carry = since;
      } else {
        carry = 0;
        rollBack(since, i, f);
      }
      recovering = true;
    }
    const detectEnd = f + trace.detectSeconds[i]!;
    if (migrating) {
      pieces.open(i, f, detectEnd, detectEnd, SyncState.migrating);
      recoveryEnd = detectEnd + migrateSeconds;
    } else {
      fullRecoveries++;
      const served = pool ? servedBy(pool, detectEnd) : detectEnd;
      const waitTo = Math.max(served, detectEnd);
      pieces.open(i, f, detectEnd, waitTo, SyncState.recovering);
      recoveryEnd = waitTo + s.sync.restartSeconds;
    }
  }

  if (!recovering) tr.train(segmentStart, H, false);
  else if (recoveryEnd < H) {
    endRecovery(recoveryEnd);
    tr.train(segmentStart, H, false);
  } else {
    pieces.close(H);
    rec?.curve.point(H, tr.useful);
  }

  // Whole-job restarts: every failure that starts or restarts a full recovery.
  return finishWholeJob(trace, H, R, { tr, pieces, lost, jobRestarts: fullRecoveries, pool, rec });
}
