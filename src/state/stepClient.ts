/** The step view's handle on the simulation worker: the app's one sim worker, which exposes stepApi. */
import type { Remote } from "comlink";
import type { SimWorkerApi } from "../worker/sim.worker.ts";
import type {
  RequestModel,
  StepRequest,
  StepRunReply,
  StepSweepReply,
  StepTraceReply,
} from "../worker/stepApi.ts";
import { simWorker } from "./simClient.ts";
import { reportRestart } from "./workerHealth.ts";
import type { Supervised } from "./workerSupervisor.ts";

export interface StepWorker {
  stepRun(req: StepRequest): Promise<StepRunReply>;
  stepSweep(req: StepRequest): Promise<StepSweepReply>;
  stepTrace(req: StepRequest): Promise<StepTraceReply>;
}

/**
 * A pasted list longer than this crosses to the worker once, in parts of this many characters,
 * and requests name it by number. Copying a 15 MB list into every request cost the page's main
 * thread about 60 ms per request (one long task per slider move); a part costs a few.
 */
export const PASTE_PART_CHARS = 1 << 20;

type Api = Remote<SimWorkerApi>;
type Reply = StepRunReply | StepSweepReply | StepTraceReply;

/** Held pastes' numbers by their text: the last one pasted (the one the view shows). */
let lastPaste: { text: string; paste: number } | null = null;
/** What each worker (by its proxy: a restarted worker has a new one) holds or is being sent. */
const sent = new WeakMap<Api, Map<number, Promise<void>>>();

async function sendPaste(api: Api, paste: number, text: string): Promise<void> {
  // One part per message and task: each reply lets the page draw before the next part goes.
  for (let at = 0; at < text.length; at += PASTE_PART_CHARS) {
    const end = at + PASTE_PART_CHARS;
    await api.stepHoldPaste(paste, text.slice(at, end), end >= text.length);
  }
}

/** The model as the worker is to get it: a long paste sent once to this worker, then named. */
function toWorker(api: Api, model: StepRequest["model"]): Promise<RequestModel> {
  if (model.kind !== "paste" || model.text.length <= PASTE_PART_CHARS) return Promise.resolve(model);
  if (lastPaste?.text !== model.text) lastPaste = { text: model.text, paste: (lastPaste?.paste ?? 0) + 1 };
  // The same list pasted again is a new string: keep that one, so later checks compare pointers.
  else lastPaste.text = model.text;
  const { paste } = lastPaste;
  let pastes = sent.get(api);
  if (!pastes) {
    pastes = new Map();
    sent.set(api, pastes);
  }
  let sending = pastes.get(paste);
  if (!sending) {
    sending = sendPaste(api, paste, model.text);
    pastes.set(paste, sending);
  }
  return sending.then(() => ({ kind: "held", paste }));
}

/**
 * Runs one request; a held paste the worker no longer has (it keeps the last two) is sent again
 * and the request retried once.
 */
async function ask<R extends Reply>(
  api: Api,
  req: StepRequest,
  endpoint: (api: Api, req: StepRequest) => Promise<R>,
): Promise<R> {
  const reply = await endpoint(api, { ...req, model: await toWorker(api, req.model) });
  if (reply.ok || !reply.notHeld) return reply;
  sent.delete(api);
  return endpoint(api, { ...req, model: await toWorker(api, req.model) });
}

const onRestart = reportRestart("simulation");

/** The step endpoints on a supervised worker (tests hand in one that runs stepApi in-process). */
export function stepWorkerOn(w: Supervised<SimWorkerApi>): StepWorker {
  // comlink's Remote splits a union reply into a union of promises; Promise.resolve joins it again.
  const run = (api: Api, req: StepRequest) => Promise.resolve<StepRunReply>(api.stepRun(req));
  const sweep = (api: Api, req: StepRequest) => Promise.resolve<StepSweepReply>(api.stepSweep(req));
  const trace = (api: Api, req: StepRequest) => Promise.resolve<StepTraceReply>(api.stepTrace(req));
  // Each request goes through the supervisor: a dead worker is replaced and the request rerun
  // (its new proxy holds no paste, so the paste goes again).
  return {
    stepRun: (req) => w.call((api) => ask(api, req, run), { onRestart }),
    stepSweep: (req) => w.call((api) => ask(api, req, sweep), { onRestart }),
    stepTrace: (req) => w.call((api) => ask(api, req, trace), { onRestart }),
  };
}

/** The app's step endpoints, on its one simulation worker. */
export function stepWorker(): StepWorker {
  return stepWorkerOn(simWorker());
}
