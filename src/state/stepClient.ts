/** The step view's handle on the simulation worker: the app's one sim worker, which exposes stepApi. */
import type { StepRequest, StepRunReply, StepSweepReply, StepTraceReply } from "../worker/stepApi.ts";
import { simWorker } from "./simClient.ts";
import { reportRestart } from "./workerHealth.ts";

export interface StepWorker {
  stepRun(req: StepRequest): Promise<StepRunReply>;
  stepSweep(req: StepRequest): Promise<StepSweepReply>;
  stepTrace(req: StepRequest): Promise<StepTraceReply>;
}

const onRestart = reportRestart("simulation");

// comlink's Remote splits a union reply into a union of promises; Promise.resolve joins it again.
/** Each request goes through the supervisor: a dead worker is replaced and the request rerun. */
export function stepWorker(): StepWorker {
  const w = simWorker();
  return {
    stepRun: (req) => w.call((api) => Promise.resolve<StepRunReply>(api.stepRun(req)), { onRestart }),
    stepSweep: (req) => w.call((api) => Promise.resolve<StepSweepReply>(api.stepSweep(req)), { onRestart }),
    stepTrace: (req) => w.call((api) => Promise.resolve<StepTraceReply>(api.stepTrace(req)), { onRestart }),
  };
}
