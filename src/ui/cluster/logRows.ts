/**
 * The failure log's rows: the run's failures, its slow episodes (§6) and the evictions
 * of slow hosts, merged in time order and filtered by kind. An eviction is a failure row of the
 * trace marked `evicted` (it strikes a replica like any failure); a slow episode is a row of its
 * own, at its start. Kept as two typed columns, as the log is virtualised over thousands of rows.
 */
import { LOG_KINDS, type LogKind } from "../../link/logKinds.ts";
import type { Trace } from "../../sim/types.ts";

/** Each row's kind, as an index into LOG_KINDS. */
export const KIND_CODE: Record<LogKind, number> = { failure: 0, slow: 1, eviction: 2 };

export interface LogRows {
  /** Rows listed. */
  n: number;
  /** Row r's kind (KIND_CODE). */
  kind: Uint8Array;
  /** Row r's index: into trace.failures for a failure or an eviction, into trace.slow for an episode. */
  index: Int32Array;
}

export const kindOf = (code: number): LogKind => LOG_KINDS[code] ?? "failure";

/** How many rows of each kind the run has (slow episodes: those that began in it). */
export function kindCounts(trace: Trace): Record<LogKind, number> {
  const f = trace.failures;
  let evictions = 0;
  for (let i = 0; i < f.time.length; i++) evictions += f.evicted[i]!;
  return { failure: f.time.length - evictions, slow: trace.slow?.count ?? 0, eviction: evictions };
}

/** The rows of the kinds shown, in time order (a failure before an episode that starts with it). */
export function logRows(trace: Trace, shown: readonly LogKind[]): LogRows {
  const f = trace.failures;
  const ep = trace.slow;
  const nf = f.time.length;
  const ne = ep?.count ?? 0;
  const want = new Set(shown);
  const kind = new Uint8Array(nf + ne);
  const index = new Int32Array(nf + ne);
  let n = 0;
  const push = (k: LogKind, i: number) => {
    if (!want.has(k)) return;
    kind[n] = KIND_CODE[k];
    index[n++] = i;
  };
  let i = 0;
  let e = 0;
  while (i < nf || e < ne) {
    if (e >= ne || (i < nf && f.time[i]! <= ep!.start[e]!)) {
      push(f.evicted[i] ? "eviction" : "failure", i);
      i++;
    } else push("slow", e++);
  }
  return { n, kind: kind.subarray(0, n), index: index.subarray(0, n) };
}
