/**
 * "Replay the log" (docs/model.md §5): two scenarios on the log's fleet, the replay of the log
 * and the fitted model it is compared with. A replay runs on the fleet the log came from, so the
 * cluster on screen is reshaped to the log's hosts: its GPUs per host stay, its replica count
 * and rack size become the nearest that divide the hosts, and the horizon is the log's window
 * (at most the model's 365 days). The model is the fit applied to that fleet ("Use this fit");
 * the replay is the model with the log's failures instead of drawn ones, so both share every
 * other field and their difference is the log's failures alone.
 */
import { replayScenarioFromEvents } from "../failures/replayLog.ts";
import { derived, parseScenario, type Scenario } from "../scenario/index.ts";
import { scenarioWithFit } from "./applyFit.ts";
import type { FittedScenario } from "./fitScenario.ts";
import type { FittedReplayLog } from "./replayFromFit.ts";

/** The longest horizon a scenario takes (training.days' range). */
const MAX_DAYS = 365;

function divisorsOf(n: number): number[] {
  const out: number[] = [];
  for (let d = 1; d * d <= n; d++) {
    if (n % d === 0) {
      out.push(d);
      if (d * d !== n) out.push(n / d);
    }
  }
  return out.sort((a, b) => a - b);
}

/** The divisor of n nearest `wanted` (the smaller on a tie). */
export function nearestDivisor(n: number, wanted: number): number {
  let best = 1;
  for (const d of divisorsOf(n)) if (Math.abs(d - wanted) < Math.abs(best - wanted)) best = d;
  return best;
}

/** The largest divisor of n not above `most` (1 at least). */
function largestDivisorUpTo(n: number, most: number): number {
  let best = 1;
  for (const d of divisorsOf(n)) if (d <= most) best = d;
  return best;
}

/**
 * The scenario on screen reshaped to a fleet of `hosts` hosts over `days` (unchanged when its
 * cluster has those hosts already). Not validated here: the caller's parseScenario names what
 * a field refuses (a fleet too large for cluster.gpus, say).
 */
export function onLogFleet(current: Scenario, hosts: number, days: number): Scenario {
  const training = { ...current.training, days: Math.min(MAX_DAYS, days) };
  if (derived(current).hosts === hosts) return { ...current, training };
  const { gpusPerHost } = current.cluster;
  const replicas = nearestDivisor(hosts, current.cluster.replicas);
  return {
    ...current,
    cluster: {
      ...current.cluster,
      gpus: hosts * gpusPerHost,
      replicas,
      hostsPerRack: largestDivisorUpTo(hosts, current.cluster.hostsPerRack),
    },
    training,
    ft: { ...current.ft, minReplicas: Math.min(current.ft.minReplicas, replicas) },
  };
}

export interface ReplayPair {
  /** The fitted model on the log's fleet: its Monte Carlo is the band the replay is set against. */
  model: Scenario;
  /** The log's failures on the same fleet, through every selected strategy. */
  replay: Scenario;
}

/**
 * The replay and its model; throws the scenario's own error, naming the field, when either is
 * refused (then nothing is loaded).
 */
export function replayPair(current: Scenario, fitted: FittedScenario, log: FittedReplayLog): ReplayPair {
  const { version: _derived, ...fleet } = onLogFleet(current, log.hosts, log.days);
  const named = (prefix: string) => `${prefix}${fitted.name.replace(/^Fitted to /, "")}`.slice(0, 80);
  const model = scenarioWithFit(parseScenario(fleet), { ...fitted, name: named("Model fitted to ") });
  const replay = replayScenarioFromEvents({ ...model, name: named("Replay of ") }, log);
  return { model, replay };
}

/** A scenario with its name, version and arrivals set aside: what a model and its replay share. */
function shared(s: Scenario): string {
  const { name: _n, version: _v, ...rest } = s;
  return JSON.stringify({ ...rest, failures: { ...s.failures, arrivals: null, log: null } });
}

/**
 * Whether `model` is the fitted model of `replay` as replayPair builds them (the same fleet,
 * horizon, failures but their arrivals, repairs and strategies): only then do the page's words
 * call the pinned baseline "the model" and place the replay among its runs.
 */
export function isModelOf(model: Scenario, replay: Scenario): boolean {
  return (
    replay.failures.arrivals === "log" &&
    model.failures.arrivals !== "log" &&
    shared(model) === shared(replay)
  );
}
