/**
 * The reference's reading of docs/model.md §4's two new whole-job strategies, `inMemory` (Gemini's
 * in-memory checkpoints) and `hotSpare` (warm standbys with live migration), written from the spec
 * text alone, beside ./independent.ts's synchronous job (whose loop it follows: settle everything
 * due at an instant, then let a failure at that instant strike, then move on).
 *
 * Both are the synchronous job with a different recovery. What differs is kept in a small "plan"
 * per policy: which recovery a failure starts (or turns an ongoing one into), how long its restart
 * is, whether it waits for spares, and where it rolls back to. Clarity over speed.
 */
import { derived, type Scenario } from "../../sim/scenario/index.ts";
import { type Failure, hostsStruck, type Knobs, syncDetectSeconds } from "./failures.ts";
import { noBadput, type ReferenceMetrics } from "./independent.ts";
import { type SlowRun, SlowWalk } from "./slow.ts";
import {
  allServed,
  newPool,
  nextPoolEvent,
  type Pool,
  poolEmpty,
  type Request,
  settlePool,
  strike,
  unserved,
} from "./spares.ts";

const INF = Number.POSITIVE_INFINITY;

type State = "train" | "write" | "detect" | "waitSpare" | "restart";

/** The checkpoint cadence a policy writes: interval and write in seconds; interval 0 = every step, free. */
interface Cadence {
  interval: number;
  write: number;
}

/** What the loop needs from a policy: its hooks at a failure, a completed write and a restart's end. */
interface Plan {
  cadence: Cadence;
  /**
   * A failure strikes at t, starting a recovery (`fresh`) or restarting the one under way; `broken`
   * = hosts the pool counts as newly broken by it. Returns the restart that follows detection
   * (seconds), whether the recovery waits for spares first, whether it counts as a job restart,
   * and how much progress to roll back to (null: keep everything).
   */
  strike(
    t: number,
    f: Failure,
    fresh: boolean,
    broken: number,
    progress: number,
  ): {
    restartSeconds: number;
    waitsForSpares: boolean;
    jobRestart: boolean;
    rollBackTo: number | null;
  };
  /** A write completed at t, saving `progress`. */
  saved(t: number, progress: number): void;
  /** The restart (or migration) ended at t. */
  restarted(t: number): void;
}

/**
 * The shared whole-job loop: train, write, detect → waitSpare → restart, as §1/§3 and §4 say.
 * §6: training runs at 1/factor while any host is slow, and the checkpoint interval counts
 * training (`need` is what is left of it). `failures` holds the evictions.
 */
function wholeJob(
  s: Scenario,
  k: Knobs,
  failures: readonly Failure[],
  slow: SlowRun | null,
  plan: Plan,
): ReferenceMetrics {
  const { horizonSeconds: H } = derived(s);
  const { interval, write } = plan.cadence;
  const everyStep = interval === 0;
  const pool: Pool = newPool(k);
  const perCause = k.causes.map(() => ({ count: 0, stallSeconds: 0 }));
  const badput = noBadput();

  let t = 0;
  let state: State = "train";
  let stateEnd = INF; // the end of write/detect/restart
  let need = interval; // training still to do before the next checkpoint (train)
  const walk = new SlowWalk(slow, H, 1, () => 0);
  const factor = slow?.factor ?? 1;
  let restartSeconds = 0;
  let waitsForSpares = true;
  let waitSince = 0;
  let waitFor: Request[] = [];
  let owner = -1;
  let progress = 0; // useful training so far (drops at a rollback)
  let lost = 0;
  let stall = 0;
  let spareWait = 0;
  let longestWait = 0;
  let poolEmptySeconds = 0;
  let checkpoints = 0;
  let jobRestarts = 0;
  let i = 0;

  for (;;) {
    for (let changed = true; changed; ) {
      changed = settlePool(pool, t);
      if (state === "train" && !everyStep && need <= 0) {
        state = "write";
        stateEnd = t + write;
        changed = true;
      } else if (state === "write" && stateEnd <= t) {
        checkpoints++;
        plan.saved(t, progress);
        state = "train";
        need = interval;
        changed = true;
      } else if (state === "detect" && stateEnd <= t) {
        if (waitsForSpares) {
          state = "waitSpare";
          waitSince = t;
          waitFor = unserved(pool, () => true);
        } else {
          state = "restart";
          stateEnd = t + restartSeconds;
        }
        changed = true;
      } else if (state === "waitSpare" && allServed(pool, waitFor)) {
        longestWait = Math.max(longestWait, t - waitSince);
        state = "restart";
        stateEnd = t + restartSeconds;
        changed = true;
      } else if (state === "restart" && stateEnd <= t) {
        plan.restarted(t);
        state = "train";
        need = interval;
        changed = true;
      }
    }
    const f = failures[i];
    if (f !== undefined && f.time <= t) {
      const detect = syncDetectSeconds(s, f);
      const hosts = hostsStruck(k, f);
      strike(pool, t, hosts, f.newHost, t + detect, f.repair);
      const broken = f.newHost ? hosts.length : 0;
      if (state === "waitSpare") longestWait = Math.max(longestWait, t - waitSince);
      const fresh = state === "train" || state === "write";
      const r = plan.strike(t, f, fresh, broken, progress);
      if (r.rollBackTo !== null) {
        lost += progress - r.rollBackTo;
        progress = r.rollBackTo;
      }
      restartSeconds = r.restartSeconds;
      waitsForSpares = r.waitsForSpares;
      if (r.jobRestart) jobRestarts++;
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
    if (state === "train") {
      const gained = next === due ? need : dt / wallPerProgress;
      progress += gained;
      badput.slow += dt - gained;
      need -= gained;
    } else if (state === "write") badput.checkpointWrite += dt;
    else {
      stall += dt;
      if (owner >= 0) perCause[owner]!.stallSeconds += dt;
      if (state === "detect") badput.detection += dt;
      else if (state === "restart") badput.recovery += dt;
      else {
        badput.spareWait += dt;
        spareWait += dt;
      }
    }
    if (poolEmpty(pool)) poolEmptySeconds += dt;
    t = next;
  }
  if (state === "waitSpare") longestWait = Math.max(longestWait, H - waitSince);
  return {
    ettr: progress / H,
    usefulSeconds: progress,
    failures: failures.length,
    stallSeconds: stall,
    lostWorkSeconds: lost,
    checkpoints,
    degradedSeconds: 0,
    secondsWithKDown: [],
    jobRestarts,
    spareWaitSeconds: spareWait,
    longestSpareWaitSeconds: longestWait,
    poolEmptySeconds,
    perCause,
    badput: { ...badput, rolledBack: lost },
  };
}

/**
 * §4 `inMemory`: in-memory checkpoints every `checkpointMinutes` of training (blocking write of
 * `writeSeconds`); every `persistEvery`-th completed one, counted over the run, is also durable.
 * A host or rack failure: detect → waitSpare → `inMemory.restartSeconds`, back to the last
 * in-memory checkpoint. A job failure, or any recovery one of whose failures was job-scope: a
 * storage recovery, detect → waitSpare → `sync.restartSeconds`, back to the last durable one,
 * after which the in-memory copies are the restored checkpoint's.
 */
export function referenceInMemory(
  s: Scenario,
  k: Knobs,
  failures: readonly Failure[],
  slow: SlowRun | null = null,
): ReferenceMetrics {
  const interval = s.inMemory.checkpointMinutes * 60;
  let completed = 0;
  let inMemory = 0; // progress the last completed in-memory checkpoint holds
  let durable = 0; // progress the last durable checkpoint holds (the start counts as one)
  let storage = false; // the recovery under way is a storage recovery
  return wholeJob(s, k, failures, slow, {
    cadence: { interval, write: s.inMemory.writeSeconds },
    strike(_t, f, fresh, _broken, progress) {
      if (fresh) storage = false;
      if (f.scope === "job") storage = true;
      if (storage) inMemory = durable;
      return {
        restartSeconds: storage ? s.sync.restartSeconds : s.inMemory.restartSeconds,
        waitsForSpares: true,
        jobRestart: true,
        // A checkpoint at every step at no cost: nothing rolls back, whatever the recovery.
        rollBackTo: interval === 0 ? null : Math.min(progress, storage ? durable : inMemory),
      };
    },
    saved(_t, progress) {
      completed++;
      inMemory = progress;
      if (completed % s.inMemory.persistEvery === 0) durable = progress;
    },
    restarted() {},
  });
}

/**
 * §4 `hotSpare`: `standbys` warm hosts. At a failure that starts or restarts a recovery, with n =
 * hosts broken so far in it: a migration (detect + `migrateSeconds`, no rollback, no wait for
 * spares) if R ≥ 2, none of its failures is job-scope and n standbys are ready (its own count as
 * ready); otherwise a full recovery (detect → waitSpare → `sync.restartSeconds`, back to the last
 * `sync` checkpoint), which stays full and gives its standbys back at once. A migration's
 * standbys are ready again `refillMinutes` after it ends; a migration aborts a write in progress.
 */
export function referenceHotSpare(
  s: Scenario,
  k: Knobs,
  failures: readonly Failure[],
  slow: SlowRun | null = null,
): ReferenceMetrics {
  const R = s.cluster.replicas;
  const interval = s.sync.checkpointMinutes * 60;
  const refill = s.hotSpare.refillMinutes * 60;
  const readyAt: number[] = new Array(s.hotSpare.standbys).fill(0);
  let taken: number[] = []; // standbys (indices) this recovery holds
  let broken = 0; // hosts broken so far in this recovery
  let full = false;
  let saved = 0; // progress the last completed sync-cadence checkpoint holds
  return wholeJob(s, k, failures, slow, {
    cadence: { interval, write: s.sync.checkpointWriteSeconds },
    strike(t, f, fresh, newlyBroken, progress) {
      if (fresh) {
        broken = 0;
        full = false;
        taken = [];
      }
      broken += newlyBroken;
      const ready = readyAt.flatMap((at, j) => (at <= t ? [j] : []));
      if (!full && R >= 2 && f.scope !== "job" && ready.length + taken.length >= broken) {
        while (taken.length < broken) {
          const j = ready.shift()!;
          readyAt[j] = INF;
          taken.push(j);
        }
        return {
          restartSeconds: s.hotSpare.migrateSeconds,
          waitsForSpares: false,
          jobRestart: false,
          rollBackTo: null,
        };
      }
      full = true;
      for (const j of taken) readyAt[j] = t;
      taken = [];
      return {
        restartSeconds: s.sync.restartSeconds,
        waitsForSpares: true,
        jobRestart: true,
        rollBackTo: interval === 0 ? null : Math.min(progress, saved),
      };
    },
    saved(_t, progress) {
      saved = progress;
    },
    restarted(t) {
      for (const j of taken) readyAt[j] = t + refill;
      taken = [];
    },
  });
}
