/**
 * The fit as the page's worker runs it: a log's text and the options a person chose, to the fit,
 * the fitted scenario and its notes, or the refusal's message. Nothing here throws: a refused log
 * is an answer, shown in place.
 */
import type { TimeUnit } from "./csvTime.ts";
import { type FitNote, type FitOptions, fitLog, type LogFit } from "./fitLog.ts";
import { type FittedScenario, fittedScenario } from "./fitScenario.ts";
import { parseLog } from "./parseLog.ts";
import { type FittedReplayLog, replayLogFromFit } from "./replayFromFit.ts";
import { LogError } from "./types.ts";

export interface FitRequest extends FitOptions {
  unit: TimeUnit;
  /** The file's name, for the scenario's. */
  name: string;
}

/**
 * The log as "Replay the log" strikes it, built here in the worker (it needs the parsed log, which
 * never leaves it), or why it cannot be replayed (a counts table has no times; a log over the
 * replay's bound). The fit is shown either way.
 */
export type FitReplay =
  | { ok: true; log: FittedReplayLog; jobWideLeftOut: number }
  | { ok: false; why: string };

export type FitOutcome =
  | { ok: true; fit: LogFit; scenario: FittedScenario; notes: FitNote[]; replay: FitReplay }
  | { ok: false; message: string };

export type FitPhase = "reading" | "parsing" | "fitting";

function replayOf(log: ReturnType<typeof parseLog>, fit: LogFit, req: FitRequest): FitReplay {
  if (log.format === "counts") return { ok: false, why: "a counts table has no times or hosts to replay" };
  try {
    return { ok: true, ...replayLogFromFit(log, fit, req.burstSeconds) };
  } catch (e) {
    if (e instanceof LogError) return { ok: false, why: e.message };
    throw e;
  }
}

export function fitText(
  text: string,
  req: FitRequest,
  onPhase: (p: FitPhase) => void = () => {},
): FitOutcome {
  try {
    onPhase("parsing");
    const log = parseLog(text, { unit: req.unit });
    onPhase("fitting");
    const fit = fitLog(log, req);
    const { scenario, notes } = fittedScenario(fit, `Fitted to ${req.name}`);
    return { ok: true, fit, scenario, notes, replay: replayOf(log, fit, req) };
  } catch (e) {
    if (e instanceof LogError) return { ok: false, message: e.message };
    throw e;
  }
}
