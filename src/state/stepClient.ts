/** The step view's handle on the simulation worker (sim.worker.ts exposes stepApi's endpoints). */
import { type Remote, wrap } from "comlink";
import type { stepApi } from "../worker/stepApi.ts";

export type StepWorker = Pick<Remote<typeof stepApi>, "stepRun" | "stepSweep" | "stepTrace">;

let remote: StepWorker | null = null;

export function stepWorker(): StepWorker {
  if (!remote) {
    const worker = new Worker(new URL("../worker/sim.worker.ts", import.meta.url), {
      type: "module",
      name: "step",
    });
    remote = wrap<typeof stepApi>(worker);
  }
  return remote;
}
