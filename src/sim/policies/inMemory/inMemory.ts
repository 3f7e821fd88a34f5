/**
 * `inMemory`: synchronous training with in-memory checkpoints (Gemini, SOSP '23), as
 * docs/model.md §4 writes it. Every failure stops the whole job. Every C of training a blocking
 * write of W copies each host's state into a peer's CPU memory in another rack (it survives any
 * host or rack failure); every `persistEvery`-th completed in-memory checkpoint of the run is also
 * durable (saved to storage in the background, no stall). A host or rack failure recovers from
 * memory (detect → waitSpare → `inMemory.restartSeconds`, back to the last in-memory checkpoint);
 * a recovery that any job-scope failure touched recovers from storage (`sync.restartSeconds`,
 * back to the last durable checkpoint), after which the memory copies are the restored state.
 */

import type { FailureTrace } from "../../failures/failureTrace.ts";
import { runSparePool, servedBy } from "../../failures/spares.ts";
import { derived } from "../../scenario/derived.ts";
import type { Scenario } from "../../scenario/index.ts";
import { wholeJobClock } from "../../slow/slowEpisodes.ts";
import { type ClosedFormValue, type PolicyMetrics, ScopeCode, SyncState } from "../../types.ts";
import { poissonHostOnlyBroken, renewal } from "../poissonForms.ts";
import type { SyncRecording } from "../synchronous/synchronous.ts";
import { CycleTraining, finishWholeJob, RecoveryPieces, WholeJobRecorder } from "../wholeJob.ts";

/**
 * §4: the synchronous renewal form with D = detect + `restartSeconds`, C and W the in-memory
 * interval and write: exact for this model when no failure is job-scope (every recovery is from
 * memory, so the durable copies never matter).
 */
export function inMemoryClosedForm(s: Scenario): ClosedFormValue {
  const broken = poissonHostOnlyBroken(s);
  if (broken) return { value: null, note: broken };
  const C = s.inMemory.checkpointMinutes * 60;
  const W = C > 0 ? s.inMemory.writeSeconds : 0;
  return {
    value: renewal(s, s.inMemory.restartSeconds, C, W),
    note: "exact for this model (renewal argument)",
  };
}

export function runInMemory(
  s: Scenario,
  trace: FailureTrace,
  record: boolean,
): { metrics: PolicyMetrics; recording?: SyncRecording } {
  const { horizonSeconds: H } = derived(s);
  const R = s.cluster.replicas;
  const g = s.inMemory;
  const C = g.checkpointMinutes * 60;
  const W = C > 0 ? g.writeSeconds : 0;
  const P = g.persistEvery;
  const n = trace.count;
  const rec = record ? new WholeJobRecorder(n) : null;
  const pool = runSparePool(s, trace, trace.detectSeconds, record);
  const tr = new CycleTraining(C, W, H, rec, wholeJobClock(trace, H));
  const pieces = new RecoveryPieces(trace, s.failures.causes.length, rec);

  /** Useful time saved by the last durable checkpoint (0: the start). */
  let persisted = 0;
  let lost = 0;
  let segmentStart = 0;
  let recovering = false;
  let recoveryEnd = 0;
  /** The current recovery is from storage (a job-scope failure touched it). */
  let storage = false;

  /** After training from `a`: the last durable one among the checkpoints it completed. */
  const notePersisted = () => {
    const k = tr.completed;
    if (k === 0) return;
    const j = k - (tr.checkpoints % P);
    if (j >= 1) persisted = tr.usefulAtStart + j * C;
  };
  /** A storage recovery rolls back to the last durable checkpoint (C = 0: nothing rolls back). */
  const rollToPersisted = (i: number, f: number) => {
    if (C <= 0 || tr.useful <= persisted) return;
    const extra = tr.useful - persisted;
    tr.useful = persisted;
    lost += extra;
    if (rec) {
      rec.lostPerFailure[i]! += extra;
      rec.curve.point(f, tr.useful);
    }
  };

  for (let i = 0; i < n; i++) {
    const f = trace.time[i]!;
    if (recovering && f >= recoveryEnd) {
      pieces.close(recoveryEnd);
      recovering = false;
      segmentStart = recoveryEnd;
    }
    const job = trace.scope[i] === ScopeCode.job;
    if (recovering) {
      // Hit while recovering: it starts again; a job-scope hit turns it into a storage recovery.
      pieces.close(f);
      if (job && !storage) {
        storage = true;
        rollToPersisted(i, f);
      }
    } else {
      const rolledBack = tr.train(segmentStart, f, true);
      notePersisted();
      if (rolledBack > 0) {
        tr.useful -= rolledBack;
        lost += rolledBack;
        if (rec) {
          rec.lostPerFailure[i] = rolledBack;
          rec.curve.point(f, tr.useful);
        }
      }
      recovering = true;
      storage = job;
      if (job) rollToPersisted(i, f);
    }
    const detectEnd = f + trace.detectSeconds[i]!;
    const served = pool ? servedBy(pool, detectEnd) : detectEnd;
    const waitTo = Math.max(served, detectEnd);
    pieces.open(i, f, detectEnd, waitTo, SyncState.recovering);
    recoveryEnd = waitTo + (storage ? s.sync.restartSeconds : g.restartSeconds);
  }

  if (!recovering) tr.train(segmentStart, H, false);
  else if (recoveryEnd < H) {
    pieces.close(recoveryEnd);
    tr.train(recoveryEnd, H, false);
  } else {
    pieces.close(H);
    rec?.curve.point(H, tr.useful);
  }

  return finishWholeJob(trace, H, R, { tr, pieces, lost, jobRestarts: n, pool, rec });
}
