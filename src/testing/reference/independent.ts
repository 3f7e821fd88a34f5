/**
 * A second, deliberately plain reading of docs/model.md §1 and §3 (cluster model version 2),
 * written without looking at the engine's policy code. Tests run it beside the engine on the same
 * failures: where the two disagree, one of them misreads the spec. Each policy is one loop that
 * walks from instant to instant: at each instant it first settles everything due (the pool, phase
 * ends, checkpoints, repeatedly, so zero-length phases chain), then lets a failure at that instant
 * strike, and only then moves on. Clarity over speed — it is never used by the app.
 */
import type { FailureTrace } from "../../sim/failures/failureTrace.ts";
import { derived, type Scenario } from "../../sim/scenario/index.ts";
import {
  type Failure,
  failuresOfTrace,
  hostsStruck,
  type Knobs,
  syncDetectSeconds,
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

export { referenceFtHsdp, referenceFtHsdpV2 } from "./independentFtHsdp.ts";
export type { Badput, ReferenceMetrics } from "./metrics.ts";
export { noBadput } from "./metrics.ts";

/**
 * Synchronous training: train, write a checkpoint (blocking), or recover = detect → waitSpare →
 * restart. Any failure restarts the recovery from its own detection and rolls back to the last
 * completed checkpoint. `pending` is training not yet covered by a completed checkpoint.
 * §6: while any host is slow the job trains at 1/factor; the checkpoint interval counts training
 * (`need` is what is left of it), so a slow stretch writes later. `failures` holds the evictions.
 */
export function referenceSynchronousV2(
  s: Scenario,
  k: Knobs,
  failures: readonly Failure[],
  slow: SlowRun | null = null,
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
  let stateEnd = INF; // the end of write/detect/restart
  let need = interval; // training still to do before the next checkpoint (train)
  const walk = new SlowWalk(slow, H, 1, () => 0);
  const factor = slow?.factor ?? 1;
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
      if (state === "train" && !everyStep && need <= 0) {
        state = "write";
        stateEnd = t + write;
        changed = true;
      } else if (state === "write" && stateEnd <= t) {
        checkpoints++;
        pending = 0;
        state = "train";
        need = interval;
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
        need = interval;
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
    walk.advance(t);
    const wallPerProgress = walk.slowIn(0) ? factor : 1;
    const due = state === "train" && !everyStep ? t + need * wallPerProgress : INF;
    const end = state === "train" ? due : state === "waitSpare" ? INF : stateEnd;
    const next = Math.min(f?.time ?? INF, end, nextPoolEvent(pool), H, walk.next());
    const dt = next - t;
    if (state === "detect") badput.detection += dt;
    else if (state === "waitSpare") badput.spareWait += dt;
    else if (state === "restart") badput.recovery += dt;
    else if (state === "write") badput.checkpointWrite += dt;
    if (state === "train") {
      const gained = next === due ? need : dt / wallPerProgress;
      trained += gained;
      badput.slow += dt - gained;
      if (!everyStep) pending += gained;
      need -= gained;
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

/** Version 1 (§1): a v1 scenario on a v1 failure trace. */
export function referenceSynchronous(s: Scenario, f: FailureTrace): ReferenceMetrics {
  return referenceSynchronousV2(s, v1Knobs(s), failuresOfTrace(f));
}
