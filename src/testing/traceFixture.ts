/**
 * A small trace (2 replicas, 2 failures, 1 hour) shared by the export and view tests, made by
 * the engine itself from two hand-placed failures: a fixture is what the engine produces, never
 * a hand-drawn picture of what it might produce.
 */
import { runOnTrace } from "../sim/engine.ts";
import { failureTraceOf } from "../sim/failures/failureTrace.ts";
import { parseScenario, type Scenario } from "../sim/scenario/index.ts";
import type { Trace } from "../sim/types.ts";

export const fixtureScenario: Scenario = parseScenario({
  name: "fixture",
  cluster: { gpus: 32, gpusPerHost: 8, replicas: 2 },
  training: { days: 1 / 24 },
  failures: { perHostDay: 1 },
  sync: { checkpointMinutes: 10, checkpointWriteSeconds: 5 },
});

/** Failure 0 at 600 s on host 1 (replica 0, fail-stop); failure 1 at 2000 s on host 3 (replica 1, hang). */
export function fixtureTrace(): Trace {
  const failures = failureTraceOf(fixtureScenario, [
    { time: 600, host: 1 },
    { time: 2000, host: 3, hang: true },
  ]);
  const trace = runOnTrace(fixtureScenario, failures, true).trace;
  if (!trace) throw new Error("the engine recorded no trace for the fixture");
  return trace;
}
