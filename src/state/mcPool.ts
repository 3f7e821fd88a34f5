/**
 * The page's Monte Carlo on a pool of simulation workers, one per core the browser reports
 * (poolSize, as the sweeps'): each free worker takes the next chunk of the most urgent stream
 * (the scenario on screen before the baseline) and the answers merge in seed order
 * (sim/mcStream.ts), so the numbers are the same whatever the pool size.
 *
 * The page's own work comes first. While the page holds the pool (holdForPage: a recorded run is
 * computed, then drawn; or the page has sliced work open, pageWork.ts: a timeline frame drawn
 * in slices while zooming), the pool leaves two cores to the page (one for a recorded run being
 * computed, one for drawing) and computes on the others only (none on two cores); a stream's first chunk still goes out at once
 * when it is small (one run of at most CHUNK_FAILURES expected failures), so an edit's first band
 * is on screen as before. On two cores, the Monte Carlo's workers otherwise took both cores while
 * the page drew a large run, and its tasks took two to three times their CPU time (the main
 * thread waited for a core, and for V8's garbage-collection helpers): bench:cluster. A chunk in
 * flight runs to its end; the pool computes on every core again once the page lets go.
 *
 * Its own workers, not the sweep pool's: a sweep point is a whole Monte Carlo (seconds at 200K
 * GPUs) and cancelling a sweep terminates its pool; an edit's first band must not wait behind
 * either. A cancelled stream hands out no more chunks; those in flight are short (sim/mcStream's
 * chunk sizes) and their answers are dropped.
 */

import { CHUNK_FAILURES, type McSettings, McStream } from "../sim/monteCarlo/mcStream.ts";
import { derived } from "../sim/scenario/derived.ts";
import type { Scenario } from "../sim/scenario/index.ts";
import type { SimWorkerApi } from "../worker/sim.worker.ts";
import { onPageQuiet, pageWorkOpen } from "./pageWork.ts";
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
/** Holders of the pool (holdForPage) that have not let go. */
let holds = 0;
// The page's sliced work ended: chunks may go out again.
onPageQuiet(() => pump());

/**
 * Workers that may compute at once on `cores` cores: every one, or, while the page holds the
 * pool, those left beside the two it keeps (a recorded run's and its drawing's; none on two cores).
 */
export function mcPoolWidth(cores: number, held: boolean): number {
  return held ? Math.max(0, cores - 2) : cores;
}

/**
 * Whether a stream's next chunk may go out beyond the width while the pool is held: only its
 * first, and only when it is small (one run of at most CHUNK_FAILURES expected failures: tens of
 * milliseconds), so that an edit's first band never waits for the page.
 */
export function passesHold(handedOut: number, expectedFailures: number): boolean {
  return handedOut === 0 && expectedFailures <= CHUNK_FAILURES;
}

/** Workers are started when first needed: on two cores, none during a page's first load. */
function ensureMembers(n: number): void {
  while (members.length < n) {
    const name = `mc-${members.length}`;
    members.push({ worker: supervise<SimWorkerApi>(() => spawnSimWorker(name)), busy: false });
  }
}

/**
 * Holds the pool for the page until the returned function is called (once; later calls do
 * nothing): meanwhile it computes on mcPoolWidth(cores, true) workers (and a small first chunk).
 */
export function holdForPage(): () => void {
  holds++;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    holds--;
    pump();
  };
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

/** The most urgent stream with a chunk left that may go out now (beyond the width: only a small first one). */
function nextJob(
  beyondWidth: boolean,
): { a: Active; index: number; chunk: { start: number; count: number } } | null {
  for (const a of active) {
    if (beyondWidth && !passesHold(a.stream.handedOut, derived(a.stream.scenario).expectedFailures)) continue;
    const job = a.stream.next();
    if (job) return { a, ...job };
  }
  return null;
}

/** Give idle workers the next chunks, up to the pool's width (mcPoolWidth). */
function pump(): void {
  const cores = poolSize();
  const width = mcPoolWidth(cores, holds > 0 || pageWorkOpen() > 0);
  let busy = members.filter((m) => m.busy).length;
  for (;;) {
    const beyondWidth = busy >= width;
    if (busy >= cores) return;
    const job = nextJob(beyondWidth);
    if (!job) return;
    ensureMembers(busy + 1);
    const m = members.find((x) => !x.busy);
    if (!m) return;
    dispatch(m, job.a, job.index, job.chunk);
    busy++;
  }
}

/**
 * Starts a streaming Monte Carlo of s to the settings' precision or cap; with `from` (a stream of
 * the same scenario), from the runs it has (McStream's constructor). A stream that is done at once
 * (kept runs that meet the settings) takes no place in the pool.
 */
export function streamMonteCarlo(
  s: Scenario,
  settings: McSettings,
  priority: number,
  callbacks: McCallbacks,
  from?: McStream,
): McJob {
  const a: Active = { stream: new McStream(s, settings, from), priority, cancelled: false, callbacks };
  if (!a.stream.stop) active = [...active, a].sort((x, y) => x.priority - y.priority);
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
