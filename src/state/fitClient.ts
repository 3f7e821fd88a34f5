/**
 * Fitting a failure log in a worker of its own, one per fit: Cancel terminates it, which stops
 * the fit wherever it is (a fit is one synchronous computation that cannot be asked to stop).
 */
import { proxy, wrap } from "comlink";
import type { FitOutcome, FitPhase, FitRequest } from "../sim/fit/fitFile.ts";
import type { FitWorkerApi } from "../worker/fit.worker.ts";

export class FitCancelled extends Error {}

export interface RunningFit {
  result: Promise<FitOutcome>;
  cancel(): void;
}

export function startFit(file: Blob, req: FitRequest, onPhase: (p: FitPhase) => void): RunningFit {
  const worker = new Worker(new URL("../worker/fit.worker.ts", import.meta.url), {
    type: "module",
    name: "fit",
  });
  const api = wrap<FitWorkerApi>(worker);
  let cancel = () => {};
  const cancelled = new Promise<never>((_, reject) => {
    cancel = () => {
      worker.terminate();
      reject(new FitCancelled("cancelled"));
    };
  });
  cancelled.catch(() => {}); // a cancel after the answer rejects nothing anyone waits on
  const result = Promise.race([api.fitFile(file, req, proxy(onPhase)), cancelled]).finally(() =>
    worker.terminate(),
  );
  return { result, cancel };
}
