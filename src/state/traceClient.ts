/** The Trace panel's handle on the trace worker: one worker, created when the first file is opened. */
import { type Remote, wrap } from "comlink";
import type { TraceWorkerApi } from "../worker/trace.worker.ts";

let api: Remote<TraceWorkerApi> | null = null;

export function traceWorker(): Remote<TraceWorkerApi> {
  api ??= wrap<TraceWorkerApi>(
    new Worker(new URL("../worker/trace.worker.ts", import.meta.url), { type: "module", name: "trace" }),
  );
  return api;
}
