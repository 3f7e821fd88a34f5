/**
 * The page's Monte Carlo on a pool of simulation workers, one per core the browser reports
 * (poolSize, as the sweeps'): each free worker takes the next chunk of the most urgent stream
 * (the scenario on screen before the baseline) and the answers merge in seed order
 * (sim/mcStream.ts), so the numbers are the same whatever the pool size.
 *
 * Its own workers, not the sweep pool's: a sweep point is a whole Monte Carlo (seconds at 200K
 * GPUs) and cancelling a sweep terminates its pool; an edit's first band must not wait behind
 * either. A cancelled stream hands out no more chunks; those in flight are short (sim/mcStream's
 * chunk sizes) and their answers are dropped.
 */
import { derived } from "../sim/derived.ts";
import { type McSettings, McStream } from "../sim/mcStream.ts";
import type { Scenario } from "../sim/scenario.ts";
import type { SimWorkerApi } from "../worker/sim.worker.ts";
import { spawnSimWorker } from "./simClient.ts";
import { poolSize } from "./sweepPool.ts";
import { reportRestart } from "./workerHealth.ts";
import { DEFAULT_SILENCE_MS, type Supervised, supervise } from "./workerSupervisor.ts";

const onRestart = reportRestart("Monte Carlo");

interface Member {
  worker: Supervised<SimWorkerApi>;
  busy: boolean;
}

interface Active {
  stream: McStream;
  /** Lower runs first. */
  priority: number;
  cancelled: boolean;
  callbacks: McCallbacks;
}

export interface McCallbacks {
  /** The merged prefix grew (or the stream stopped): a new snapshot to show. */
  onMerged(stream: McStream): void;
  /** A chunk failed twice (its worker died twice): the stream is over. */
  onError(message: string): void;
}

export interface McJob {
  readonly stream: McStream;
  cancel(): void;
}

const members: Member[] = [];
let active: Active[] = [];

function ensureMembers(): Member[] {
  const n = poolSize();
  while (members.length < n) {
    const name = `mc-${members.length}`;
    members.push({ worker: supervise<SimWorkerApi>(() => spawnSimWorker(name)), busy: false });
  }
  return members;
}

function retire(a: Active): void {
  active = active.filter((x) => x !== a);
}

function dispatch(m: Member, a: Active, index: number, chunk: { start: number; count: number }): void {
  m.busy = true;
  const scenario = a.stream.scenario;
  // A chunk reports nothing until it is done: its silence limit grows with its failures, as a
  // recorded run's does (30 µs a failure on top of the default; clusterRunner.ts says why).
  const silenceMs = DEFAULT_SILENCE_MS + Math.ceil(derived(scenario).expectedFailures * chunk.count * 0.03);
  m.worker
    .call((api) => api.clusterMonteCarloChunk(scenario, chunk), { onRestart, silenceMs })
    .then(
      (runs) => {
        m.busy = false;
        if (!a.cancelled && a.stream.put(index, runs)) {
          if (a.stream.stop) retire(a);
          a.callbacks.onMerged(a.stream);
        }
        pump();
      },
      (e: unknown) => {
        m.busy = false;
        if (!a.cancelled) {
          a.cancelled = true;
          retire(a);
          a.callbacks.onError(e instanceof Error ? e.message : String(e));
        }
        pump();
      },
    );
}

/** Give every idle worker the next chunk of the most urgent stream that has one. */
function pump(): void {
  for (const m of members) {
    if (m.busy) continue;
    let given = false;
    for (const a of active) {
      const job = a.stream.next();
      if (job) {
        dispatch(m, a, job.index, job.chunk);
        given = true;
        break;
      }
    }
    if (!given) return;
  }
}

/** Starts a streaming Monte Carlo of s to the settings' precision or cap. */
export function streamMonteCarlo(
  s: Scenario,
  settings: McSettings,
  priority: number,
  callbacks: McCallbacks,
): McJob {
  ensureMembers();
  const a: Active = { stream: new McStream(s, settings), priority, cancelled: false, callbacks };
  active = [...active, a].sort((x, y) => x.priority - y.priority);
  pump();
  return {
    stream: a.stream,
    cancel() {
      a.cancelled = true;
      retire(a);
    },
  };
}

/** Workers in the pool (for the page's note on how the Monte Carlo is spread). */
export function mcPoolSize(): number {
  return poolSize();
}
