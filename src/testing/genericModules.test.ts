/**
 * The generic modules name no policy: they iterate the scenario's selection
 * (policies.ts's selectedPolicies / a trace's `policies`) and read a policy's recording by its
 * kind, so a new policy reaches them with no edit. A policy's key may appear only in its own
 * files (synchronous.ts, ftHsdp.ts, inMemory.ts, hotSpare.ts, wholeJob.ts), the registry (policies.ts, policyKeys.ts), the closed
 * forms of §3 (closedForms.ts, closedFormTypes.ts: the CLI JSON's v1 contract), the compat
 * fingerprints, the story chapters about one policy, and tests.
 *
 * The list: the engine's recorder and result types; the recovery waterfall and its index; the
 * replay's lookups and store; the link guard's store; the Perfetto export (every file of it) and the
 * CSV; the worker's transfer; every timeline module, the replica-level tracks included (their ids
 * carry the policy's key, so a second replica-level policy gets its own); the replay, failure log, goodput
 * chart, legend and the explorer page. (MetricsPanel.tsx iterates the selection too, but its lede
 * compares FT-HSDP with synchronous training by name when both ran, so it is not listed.)
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PLUGINS } from "../sim/policies/pluginList.ts";

const GENERIC = [
  "src/sim/engine.ts",
  "src/sim/types.ts",
  "src/sim/recordings.ts",
  "src/sim/recovery/recoveryWaterfall.ts",
  "src/sim/recovery/recoveryIndex.ts",
  "src/sim/monteCarlo/monteCarlo.ts",
  "src/sim/monteCarlo/mcSummary.ts",
  "src/sim/monteCarlo/mcStream.ts",
  "src/state/traceAt.ts",
  "src/state/replayStore.ts",
  "src/state/store.ts",
  "src/export/clusterTrace.ts",
  "src/export/traceEvents.ts",
  "src/export/tracePolicies.ts",
  "src/export/traceWholeJob.ts",
  "src/export/traceReplicas.ts",
  "src/export/traceFailures.ts",
  "src/export/traceSlow.ts",
  "src/export/csv.ts",
  "src/worker/clusterApi.ts",
  "src/ui/timeline/timelineTrack.ts",
  "src/ui/timeline/timelineTrackRegistry.ts",
  "src/ui/timeline/timelineLayout.ts",
  "src/ui/timeline/timelineRenderer.ts",
  "src/ui/timeline/timelineHover.ts",
  "src/ui/timeline/timelinePalette.ts",
  "src/ui/timeline/syncTrack.ts",
  "src/ui/timeline/spareTrack.ts",
  "src/ui/timeline/ftTrack.ts",
  "src/ui/timeline/jobTrack.ts",
  "src/ui/timeline/rackTrack.ts",
  "src/ui/timeline/slowTrack.ts",
  "src/ui/timeline/slowHostsTrack.ts",
  "src/ui/timeline/overReplicaLanes.ts",
  "src/ui/timeline/replayOverlay.ts",
  "src/ui/timeline/Timeline.tsx",
  "src/ui/timeline/Replay.tsx",
  "src/ui/cluster/FailureLog.tsx",
  "src/ui/cluster/GoodputChart.tsx",
  "src/ui/timeline/Legend.tsx",
  "src/ui/cluster/Explorer.tsx",
];

/** The code without its comments (a comment may say "the synchronous job" in English). */
function code(path: string): string {
  return readFileSync(path, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:])\/\/.*$/gm, "$1");
}

describe("generic modules", () => {
  it("name no policy key in their code", () => {
    const key = new RegExp(`\\b(${PLUGINS.map((p) => p.key).join("|")})\\b`, "g");
    const found = GENERIC.flatMap((f) => [...code(f).matchAll(key)].map((m) => `${f}: ${m[0]}`));
    expect(found).toEqual([]);
  });

  it("the check finds a key where there is one", () => {
    expect(code("src/sim/policies/ftHsdp/index.ts")).toMatch(/\bftHsdp\b/);
  });
});
