/**
 * Failures crossing between the reference and the engine: the reference's events as the engine's
 * hand-placed trace, and the engine's generated trace as reference events (which checks what the
 * engine's generator writes, too). Shared by the v2 and v3 agreement tests.
 */
import { type FailureTrace, failureTraceOf } from "../../sim/failureTrace.ts";
import type { Scenario } from "../../sim/scenario.ts";
import type { Failure, Knobs } from "./failures.ts";

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
    };
  });
}
