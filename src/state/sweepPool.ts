/**
 * What-if sweeps run in a pool of simulation workers, one per core: each worker takes the next
 * sweep point and runs its Monte Carlo. Cancelling terminates the workers outright (a sweep point
 * at 200K GPUs can take a second; waiting for it to notice a flag would not feel like "cancel"),
 * and the next sweep starts fresh ones. A member that dies is replaced and its point rerun
 * (workerSupervisor.ts), so one lost worker does not leave the sweep short of a point.
 */
import { proxy } from "comlink";
import { derived } from "../sim/scenario/index.ts";
import type { SweepPoint } from "../sim/sweep/index.ts";
import type { MonteCarloResult } from "../sim/types.ts";
import type { SimWorkerApi } from "../worker/sim.worker.ts";
import { spawnSimWorker } from "./simClient.ts";
import { reportRestart } from "./workerHealth.ts";
import { type Supervised, supervise } from "./workerSupervisor.ts";

export type PoolWorker = Supervised<SimWorkerApi>;

let pool: PoolWorker[] = [];
export const onRestart = reportRestart("sweep");

/** One worker per logical core the browser reports (2 when it does not say), at most 16. */
export function poolSize(): number {
  const cores = typeof navigator === "undefined" ? 2 : navigator.hardwareConcurrency || 2;
  return Math.max(1, Math.min(16, cores));
}

/** The pool's first n workers, started as needed (the tornado runs its tasks in them too). */
export function ensurePool(n: number): PoolWorker[] {
  while (pool.length < n) {
    const name = `sweep-${pool.length}`;
    pool.push(supervise<SimWorkerApi>(() => spawnSimWorker(name)));
  }
  return pool.slice(0, n);
}

/** Stops every worker of the pool (a cancel); the next job starts fresh ones. */
export function terminatePool(): void {
  for (const w of pool) w.terminate();
  pool = [];
}

export interface SweepJob {
  /** Every point's result, in the points' order; null when cancelled. */
  done: Promise<MonteCarloResult[] | null>;
  cancel(): void;
}

export interface SweepCallbacks {
  /** Seeds simulated so far, over all points, and the total. */
  onProgress(done: number, total: number): void;
  onPoint(index: number, result: MonteCarloResult): void;
}

export function runSweepInPool(points: readonly SweepPoint[], seeds: number, cb: SweepCallbacks): SweepJob {
  let cancelled = false;
  let settle: (v: MonteCarloResult[] | null) => void = () => {};
  const done = new Promise<MonteCarloResult[] | null>((resolve, reject) => {
    settle = resolve;
    const total = points.length * seeds;
    const perPoint = new Float64Array(points.length);
    const results: MonteCarloResult[] = new Array(points.length);
    // Biggest first: the costliest points start at once instead of trailing at the end.
    const queue = points
      .map((p, i) => ({ i, cost: derived(p.scenario).expectedFailures }))
      .sort((a, b) => b.cost - a.cost)
      .map((q) => q.i);
    const report = () =>
      cb.onProgress(
        perPoint.reduce((a, b) => a + b, 0),
        total,
      );
    const drain = async (w: PoolWorker) => {
      for (let next = queue.shift(); next !== undefined && !cancelled; next = queue.shift()) {
        const i = next;
        const point = points[i] as SweepPoint;
        const mc = await w.call(
          (api, alive) =>
            api.clusterMonteCarlo(
              point.scenario,
              seeds,
              proxy((d: number) => {
                alive();
                perPoint[i] = d;
                if (!cancelled) report();
              }),
            ),
          { onRestart },
        );
        if (cancelled || mc === null) return;
        perPoint[i] = seeds;
        results[i] = mc;
        cb.onPoint(i, mc);
        report();
      }
    };
    const workers = ensurePool(Math.min(poolSize(), points.length));
    Promise.all(workers.map(drain)).then(
      () => {
        if (!cancelled) resolve(results);
      },
      (e: unknown) => {
        if (!cancelled) reject(e);
      },
    );
  });
  return {
    done,
    cancel() {
      if (cancelled) return;
      cancelled = true;
      terminatePool();
      settle(null);
    },
  };
}
