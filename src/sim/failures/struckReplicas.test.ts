/**
 * Which replicas a rack failure strikes, as the UI reads it (struckReplicaRanges), against what the
 * engine does with the same failure: the replicas it puts into detection at that instant.
 */
import { describe, expect, it } from "vitest";
import { legacyTrace } from "../../testing/legacyTrace.ts";
import { runOnTrace } from "../engine.ts";
import { parseScenario } from "../scenario/index.ts";
import { FtPhase } from "../types.ts";
import { failureTraceOf, rackOf, struckReplicaRanges } from "./failureTrace.ts";

/** 96 hosts in 12 replicas (8 hosts each), racks of 8 hosts: packed keeps a rack in one replica. */
const scenario = (placement: "packed" | "striped") =>
  parseScenario({
    cluster: { gpus: 768, gpusPerHost: 8, replicas: 12, hostsPerRack: 8, placement },
    training: { days: 0.25 },
    failures: { perHostDay: 0 },
  });

/** Replicas the engine sent into detection at time t. */
function detectedAt(placement: "packed" | "striped", host: number, t: number): number[] {
  const s = scenario(placement);
  const trace = legacyTrace(
    runOnTrace(s, failureTraceOf(s, [{ time: t, host, scope: "rack" }]), true).trace!,
  );
  if (!trace) throw new Error("no trace");
  const out: number[] = [];
  for (let i = 0; i < trace.ft.start.length; i++)
    if (trace.ft.phase[i] === FtPhase.detect && trace.ft.start[i] === t)
      out.push(trace.ft.replica[i] as number);
  return out.sort((a, b) => a - b);
}

const expand = (ranges: [number, number][]) =>
  ranges.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, j) => a + j));

describe("struckReplicaRanges", () => {
  it("striped: rack 1 (hosts 8–15) strikes replicas 8–11 and 0–3, as the engine does", () => {
    const s = scenario("striped");
    const trace = runOnTrace(s, failureTraceOf(s, [{ time: 600, host: 13, scope: "rack" }]), true).trace;
    const f = trace?.failures;
    if (!f) throw new Error("no trace");
    expect(rackOf(f.host[0] as number, 8)).toBe(1);
    const ranges = struckReplicaRanges(f.replica[0] as number, f.replicaCount[0] as number, 12);
    expect(ranges).toEqual([
      [0, 3],
      [8, 11],
    ]);
    expect(expand(ranges)).toEqual(detectedAt("striped", 13, 600));
  });

  it("packed: the same rack lies inside one replica", () => {
    const s = scenario("packed");
    const f = runOnTrace(s, failureTraceOf(s, [{ time: 600, host: 13, scope: "rack" }]), true).trace
      ?.failures;
    if (!f) throw new Error("no trace");
    const ranges = struckReplicaRanges(f.replica[0] as number, f.replicaCount[0] as number, 12);
    expect(ranges).toEqual([[1, 1]]);
    expect(expand(ranges)).toEqual(detectedAt("packed", 13, 600));
  });

  it("a job-scope failure strikes no run of replicas; a run never repeats a replica", () => {
    expect(struckReplicaRanges(-1, 12, 12)).toEqual([]);
    expect(expand(struckReplicaRanges(5, 40, 12))).toHaveLength(12);
  });
});
