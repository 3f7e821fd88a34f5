/** The UI's handle on the simulation worker: one worker, created on first use. */
import { type Remote, wrap } from "comlink";
import type { SimWorkerApi } from "../worker/sim.worker.ts";

let remote: Remote<SimWorkerApi> | null = null;

export function simWorker(): Remote<SimWorkerApi> {
  if (!remote) {
    const worker = new Worker(new URL("../worker/sim.worker.ts", import.meta.url), {
      type: "module",
      name: "sim",
    });
    remote = wrap<SimWorkerApi>(worker);
  }
  return remote;
}
