/**
 * The cause table (docs/model.md §3): what a failure event can be, with everything the engine
 * and the closed forms ask of a cause precomputed in typed columns. A scenario without a cause
 * mix is version 1: a host fail-stop (1 − hangFraction) or a host hang (hangFraction), both
 * breaking their host. A new kind of cause is a new column here, not an edit across the engine.
 */
import type { Scenario } from "../scenario/index.ts";
import { ScopeCode } from "../types.ts";

export interface CauseTable {
  /** Causes in the table (2 for version 1: fail-stop and hang). */
  count: number;
  /** From the scenario's `failures.causes` (false: version 1's implicit pair). */
  explicit: boolean;
  /** Shares normalised to sum to 1. */
  probability: Float64Array;
  /** Running sum of the probabilities, for drawing a cause with one uniform. */
  cumulative: Float64Array;
  scope: Uint8Array;
  hang: Uint8Array;
  newHost: Uint8Array;
  /** The synchronous job's detection delay: failStopSeconds, or hangSeconds (the watchdog). */
  syncDetectSeconds: Float64Array;
  /** FT-HSDP's: a hang is dropped after min(hangSeconds, hangTimeoutSeconds) when the latter is > 0. */
  ftDetectSeconds: Float64Array;
  /** Probability that an event is job-scope / rack-scope. */
  jobShare: number;
  rackShare: number;
}

export function causeTable(s: Scenario): CauseTable {
  const { failStopSeconds, hangSeconds } = s.detection;
  const timeout = s.ft.hangTimeoutSeconds;
  const ftHang = timeout > 0 ? Math.min(hangSeconds, timeout) : hangSeconds;
  const given = s.failures.causes;
  const h = s.failures.hangFraction;
  const rows =
    given.length > 0
      ? given
      : [
          { share: 1 - h, scope: "host" as const, hang: false, newHost: true },
          { share: h, scope: "host" as const, hang: true, newHost: true },
        ];
  const n = rows.length;
  const t: CauseTable = {
    count: n,
    explicit: given.length > 0,
    probability: new Float64Array(n),
    cumulative: new Float64Array(n),
    scope: new Uint8Array(n),
    hang: new Uint8Array(n),
    newHost: new Uint8Array(n),
    syncDetectSeconds: new Float64Array(n),
    ftDetectSeconds: new Float64Array(n),
    jobShare: 0,
    rackShare: 0,
  };
  // Version 1's pair already sums to 1; dividing by a rounded (1 − h) + h could move its bits.
  let total = 0;
  for (const r of rows) total += r.share;
  if (!t.explicit) total = 1;
  let running = 0;
  rows.forEach((r, c) => {
    const p = total > 0 ? r.share / total : 0;
    running += p;
    t.probability[c] = p;
    t.cumulative[c] = running;
    t.scope[c] = ScopeCode[r.scope];
    t.hang[c] = r.hang ? 1 : 0;
    t.newHost[c] = r.newHost ? 1 : 0;
    t.syncDetectSeconds[c] = r.hang ? hangSeconds : failStopSeconds;
    t.ftDetectSeconds[c] = r.hang ? ftHang : failStopSeconds;
    if (r.scope === "job") t.jobShare += p;
    if (r.scope === "rack") t.rackShare += p;
  });
  // Rounding may leave the last running sum a hair below 1: a uniform must always find a cause.
  if (n > 0) t.cumulative[n - 1] = Number.POSITIVE_INFINITY;
  return t;
}

/** The cause a uniform u in [0, 1) picks: the first whose running share exceeds u. */
export function drawCause(t: CauseTable, u: number): number {
  let c = 0;
  while (u >= t.cumulative[c]!) c++;
  return c;
}
