import { describe, expect, it } from "vitest";
import { LOG_KINDS } from "../../link/logKinds.ts";
import { runScenario } from "../../sim/engine.ts";
import { parseScenario } from "../../sim/scenario/index.ts";
import { kindCounts, kindOf, logRows } from "./logRows.ts";

/** A small cluster with slow episodes, some long enough to be evicted after 20 minutes. */
const slowRun = runScenario(
  parseScenario({
    cluster: { gpus: 1024, replicas: 8 },
    training: { days: 4 },
    slow: { perHostDay: 0.05, medianMinutes: 15, sigma: 1, factor: 1.5, evictAfterMinutes: 20 },
    seed: 4,
  }),
  { record: true },
);
const trace = slowRun.trace!;

describe("the failure log's rows", () => {
  it("has every failure, slow episode and eviction of the run once, in time order", () => {
    const counts = kindCounts(trace);
    // The run has all three kinds (else this test would prove little).
    expect(counts.failure).toBeGreaterThan(0);
    expect(counts.slow).toBeGreaterThan(counts.eviction);
    expect(counts.eviction).toBeGreaterThan(0);
    expect(counts.slow).toBe(slowRun.ftHsdp!.slowEpisodes);
    expect(counts.eviction).toBe(slowRun.ftHsdp!.evictions);
    const rows = logRows(trace, LOG_KINDS);
    expect(rows.n).toBe(counts.failure + counts.slow + counts.eviction);
    const timeOf = (r: number) =>
      kindOf(rows.kind[r]!) === "slow"
        ? trace.slow!.start[rows.index[r]!]!
        : trace.failures.time[rows.index[r]!]!;
    for (let r = 1; r < rows.n; r++) expect(timeOf(r)).toBeGreaterThanOrEqual(timeOf(r - 1));
    // Each eviction row is an evicted failure of the trace, at the end of an evicted episode.
    for (let r = 0; r < rows.n; r++) {
      const i = rows.index[r]!;
      if (kindOf(rows.kind[r]!) === "eviction") expect(trace.failures.evicted[i]).toBe(1);
      if (kindOf(rows.kind[r]!) === "failure") expect(trace.failures.evicted[i]).toBe(0);
    }
  });

  it("lists only the kinds shown", () => {
    const counts = kindCounts(trace);
    for (const k of LOG_KINDS) {
      const rows = logRows(trace, [k]);
      expect(rows.n).toBe(counts[k]);
      for (let r = 0; r < rows.n; r++) expect(kindOf(rows.kind[r]!)).toBe(k);
    }
    expect(logRows(trace, []).n).toBe(0);
  });

  it("is the failures alone, in their order, for a scenario without slow episodes", () => {
    const old = runScenario(parseScenario({ cluster: { gpus: 1024, replicas: 8 }, training: { days: 4 } }), {
      record: true,
    }).trace!;
    expect(old.slow).toBeUndefined();
    const rows = logRows(old, LOG_KINDS);
    expect(rows.n).toBe(old.failures.time.length);
    expect([...rows.index]).toEqual(Array.from({ length: rows.n }, (_, i) => i));
  });
});
