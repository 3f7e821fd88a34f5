/** The step view's handle on the simulation worker: the app's one sim worker, which exposes stepApi. */
import type { Remote } from "comlink";
import type { stepApi } from "../worker/stepApi.ts";
import { simWorker } from "./simClient.ts";

export type StepWorker = Pick<Remote<typeof stepApi>, "stepRun" | "stepSweep" | "stepTrace">;

export function stepWorker(): StepWorker {
  return simWorker();
}
