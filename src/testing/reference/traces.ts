/**
 * Failures crossing between the reference and the engine: the reference's events as the engine's
 * hand-placed trace, and the engine's generated trace as reference events (which checks what the
 * engine's generator writes, too). Shared by the v2 and v3 agreement tests.
 */
import { type FailureTrace, failureTraceOf } from "../../sim/failures/failureTrace.ts";
import type { Scenario } from "../../sim/scenario/index.ts";
import type { SlowEpisodes } from "../../sim/slow/slowTypes.ts";
import type { Failure, Knobs } from "./failures.ts";
import type { SlowRun } from "./slow.ts";

/** The reference's failures as the engine's hand-placed trace (a rack is named by its first host). */
export function toEngineTrace(s: Scenario, k: Knobs, failures: readonly Failure[]): FailureTrace {
  return failureTraceOf(
    s,
    failures.map((f) => ({
      time: f.time,
      scope: f.scope,
      host: f.scope === "rack" ? f.target * k.hostsPerRack : f.scope === "host" ? f.target : 0,
      hang: f.hang,
      newHost: f.newHost,
      ...(f.cause >= 0 ? { cause: f.cause } : {}),
    })),
  );
}

/** The engine's trace as reference failures: checks what the engine's generator writes, too. */
export function fromEngineTrace(k: Knobs, t: FailureTrace): Failure[] {
  const scopes = ["host", "rack", "job"] as const;
  return Array.from({ length: t.count }, (_, i) => {
    const scope = scopes[t.scope[i]!]!;
    return {
      time: t.time[i]!,
      scope,
      target: scope === "rack" ? t.host[i]! / k.hostsPerRack : scope === "host" ? t.host[i]! : -1,
      hang: t.hang[i] === 1,
      newHost: t.newHost[i] === 1,
      cause: t.cause[i]!,
      ...(t.evicted[i] === 1 ? { evicted: true } : {}),
    };
  });
}

/** §6: the reference's episodes as the engine's columns (its evicted ones end at their eviction). */
export function toEngineEpisodes(slow: SlowRun): SlowEpisodes {
  const e = slow.episodes;
  return {
    count: e.length,
    start: Float64Array.from(e, (x) => x.start),
    end: Float64Array.from(e, (x) => x.end),
    host: Int32Array.from(e, (x) => x.host),
    evicted: Uint8Array.from(e, (x) => (x.evicted ? 1 : 0)),
    factor: slow.factor,
  };
}

/** §6: the engine's drawn episodes as the reference's. */
export function fromEngineEpisodes(ep: SlowEpisodes): SlowRun {
  return {
    factor: ep.factor,
    episodes: Array.from({ length: ep.count }, (_, e) => ({
      start: ep.start[e]!,
      end: ep.end[e]!,
      host: ep.host[e]!,
      evicted: ep.evicted[e] === 1,
    })),
  };
}
