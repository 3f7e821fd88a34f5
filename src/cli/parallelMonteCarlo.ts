/**
 * The CLI's Monte Carlo on every core: the main thread and `threads − 1` worker threads take
 * slices of the seeds in turn (whoever is free takes the next slice), and the main thread adds
 * the results to one accumulator in seed order. Each run is a pure function of (scenario, seed)
 * and the summary only sees the runs in seed order, so the numbers are the same, bit for bit,
 * whatever the thread count: monteCarlo() in one thread is the reference the tests compare to.
 *
 * The main thread works too, so a worker's start-up (loading the engine through tsx, a few
 * hundred ms) is never idle time: the main thread runs the first slices meanwhile.
 */
import { Worker } from "node:worker_threads";
import { derived } from "../sim/derived.ts";
import { MonteCarloAccumulator, monteCarlo } from "../sim/monteCarlo.ts";
import type { Scenario } from "../sim/scenario.ts";
import type { MonteCarloResult } from "../sim/types.ts";
import { type Chunk, rowAt, rowCount, runChunk } from "./monteCarloChunk.ts";

/** Failures per slice: about 20 ms of work, small enough to share out evenly, large enough that messages cost nothing. */
const SLICE_FAILURES = 50_000;
const MAX_SLICE_RUNS = 256;

export function sliceRuns(s: Scenario): number {
  const perRun = Math.max(1, derived(s).expectedFailures);
  return Math.max(1, Math.min(MAX_SLICE_RUNS, Math.floor(SLICE_FAILURES / perRun)));
}

function startWorker(scenario: Scenario): Worker {
  return new Worker(new URL("./monteCarloWorker.boot.mjs", import.meta.url), { workerData: { scenario } });
}

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
      const causes = s.failures.causes.length;
      for (let j = 0; j < rowCount(r, causes); j++) acc.add(rowAt(r, j, causes));
    }
    onProgress?.(acc.added, seeds);
    if (acc.added === seeds) settle?.resolve();
  };

  const workers = Array.from({ length: workerCount }, () => {
    const w = startWorker(s);
    w.on("message", (m: "ready" | (Chunk & { rows: Float64Array })) => {
      if (m !== "ready") deliver(m.start, m.rows);
      const chunk = take();
      if (chunk) w.postMessage(chunk);
    });
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
