/** The UI's handle on the simulation worker: one worker, created on first use, replaced if it dies. */
import type { SimWorkerApi } from "../worker/sim.worker.ts";
import { type Supervised, supervise } from "./workerSupervisor.ts";

let sim: Supervised<SimWorkerApi> | null = null;

export function spawnSimWorker(name: string): Worker {
  return new Worker(new URL("../worker/sim.worker.ts", import.meta.url), { type: "module", name });
}

export function simWorker(): Supervised<SimWorkerApi> {
  sim ??= supervise<SimWorkerApi>(() => spawnSimWorker("sim"));
  return sim;
}
