/**
 * The CLI's Monte Carlo on every core: the main thread and `threads − 1` worker threads take
 * slices of the seeds in turn (whoever is free takes the next slice), and the main thread adds
 * the results to one accumulator in seed order. Each run is a pure function of (scenario, seed)
 * and the summary only sees the runs in seed order, so the numbers are the same, bit for bit,
 * whatever the thread count: monteCarlo() in one thread is the reference the tests compare to.
 *
 * The main thread works too, so a worker's start-up is never idle time: the main thread runs the
 * first slices meanwhile. `npm run sim` runs the CLI bundled (scripts/sim.mjs), where the worker
 * entry resolved below is the bundled worker (the engine alone, tens of ms to start); from
 * TypeScript (tests, tsx) it is the boot entry that loads the engine through tsx (hundreds of ms).
 */
import { Worker } from "node:worker_threads";
import { MonteCarloAccumulator, monteCarlo } from "../sim/monteCarlo/monteCarlo.ts";
import { derived } from "../sim/scenario/derived.ts";
import type { Scenario } from "../sim/scenario/index.ts";
import type { MonteCarloResult } from "../sim/types.ts";
import { type Chunk, runChunk } from "./monteCarloChunk.ts";

/** Failures per slice: about 20 ms of work, small enough to share out evenly, large enough that messages cost nothing. */
const SLICE_FAILURES = 50_000;
const MAX_SLICE_RUNS = 256;

export function sliceRuns(s: Scenario): number {
  const d = derived(s);
  const perRun = Math.max(1, d.expectedFailures + d.expectedSlowEpisodes);
  return Math.max(1, Math.min(MAX_SLICE_RUNS, Math.floor(SLICE_FAILURES / perRun)));
}

/** A worker thread, whether it has said it is ready (it may have before a run took it), and its error. */
interface Started {
  worker: Worker;
  ready: boolean;
  error: unknown;
}

/** Flags that load code before an entry: a worker inherits them, and `--import tsx` alone costs it ~170 ms. */
const PRELOAD_FLAGS = new Set(["--import", "--require", "-r", "--loader", "--experimental-loader"]);

/** This process's flags without the preloads: the worker's entry needs none (plain JS, or the boot that registers tsx). */
function workerExecArgv(): string[] {
  const kept: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (PRELOAD_FLAGS.has(flag)) i++;
    else if (!PRELOAD_FLAGS.has(flag.split("=")[0]!)) kept.push(flag);
  }
  return kept;
}

function startWorker(): Started {
  // Beside this module: src/cli/monteCarloWorker.boot.mjs, or in the bundle, the bundled worker.
  const started: Started = {
    worker: new Worker(new URL("./monteCarloWorker.boot.mjs", import.meta.url), {
      execArgv: workerExecArgv(),
    }),
    ready: false,
    error: null,
  };
  started.worker.once("message", () => {
    started.ready = true;
  });
  started.worker.on("error", (e) => {
    started.error ??= e;
  });
  return started;
}

/** Workers started ahead of a Monte Carlo, taken first; unreferenced until then, so an unused one never keeps the process alive. */
const prestarted: Started[] = [];

/**
 * Start `count` workers now, before the scenario is known (the CLI's entry does, while it loads
 * and validates), so their start-up overlaps that instead of the first slices.
 */
export function prestartWorkers(count: number): void {
  for (let i = 0; i < count; i++) {
    const started = startWorker();
    started.worker.unref();
    prestarted.push(started);
  }
}

/** Slices sent ahead to each worker (see parallelMonteCarlo). */
const IN_FLIGHT = 3;

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface ParallelOptions {
  /** Worker threads besides the main one; 0 runs monteCarlo() in this thread. */
  workers: number;
  /** Whether the main thread takes slices too (the CLI's choice); false leaves all to the workers. */
  mainThreadWorks?: boolean;
  onProgress?: (done: number, total: number) => void;
}

/** The CLI's split of `threads` cores: the main thread and threads − 1 workers, no more than there are seeds. */
export function cliThreads(threads: number, seeds: number): ParallelOptions {
  return { workers: Math.max(0, Math.min(threads, seeds) - 1), mainThreadWorks: true };
}

export async function parallelMonteCarlo(
  s: Scenario,
  seeds: number,
  { workers: workerCount, mainThreadWorks = true, onProgress }: ParallelOptions,
): Promise<MonteCarloResult> {
  if (workerCount <= 0) return monteCarlo(s, seeds, onProgress);

  const slice = sliceRuns(s);
  const acc = new MonteCarloAccumulator(s, seeds);
  /** Results that arrived before the slices in front of them, by first run index. */
  const waiting = new Map<number, Float64Array>();
  let next = 0;
  const take = (): Chunk | null => {
    if (next >= seeds) return null;
    const chunk = { start: next, count: Math.min(slice, seeds - next) };
    next += chunk.count;
    return chunk;
  };
  let settle: { resolve: () => void; reject: (e: unknown) => void } | null = null;
  const allAdded = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const deliver = (start: number, rows: Float64Array) => {
    waiting.set(start, rows);
    for (let r = waiting.get(acc.added); r !== undefined; r = waiting.get(acc.added)) {
      waiting.delete(acc.added);
      // Straight from the packed rows: no object per run (rowAt) on the thread every run passes through.
      for (let k = 0; k < r.length; ) k = acc.addPacked(r, k);
    }
    onProgress?.(acc.added, seeds);
    if (acc.added === seeds) settle?.resolve();
  };

  const workers = Array.from({ length: workerCount }, () => {
    const started = prestarted.pop() ?? startWorker();
    const w = started.worker;
    w.ref();
    // Messages wait in the worker's queue until it listens: the scenario comes before any slice.
    w.postMessage({ scenario: s });
    const feed = () => {
      const chunk = take();
      if (chunk) w.postMessage(chunk);
    };
    // Slices in flight per worker: a result waits in this thread's queue while the main thread
    // runs a slice of its own, and with one slice in flight the worker idled meanwhile.
    const start = () => {
      for (let k = 0; k < IN_FLIGHT; k++) feed();
    };
    w.on("message", (m: "ready" | (Chunk & { rows: Float64Array })) => {
      if (m === "ready") start();
      else {
        deliver(m.start, m.rows);
        feed();
      }
    });
    if (started.ready) start();
    if (started.error) settle?.reject(started.error);
    w.on("error", (e) => settle?.reject(e));
    w.on("exit", (code) => {
      if (acc.added < seeds) settle?.reject(new Error(`a Monte Carlo worker exited (code ${code}) early`));
    });
    return w;
  });
  try {
    for (let chunk = mainThreadWorks ? take() : null; chunk; chunk = take()) {
      deliver(chunk.start, runChunk(s, chunk));
      await nextTick();
    }
    // The rest is in the workers' hands; a worker still starting up is not waited for.
    await allAdded;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return acc.finish();
}
