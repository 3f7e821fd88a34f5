/** The timeline's hover over a failure says its recovery phase by phase (recoveryWaterfall.ts). */
import { describe, expect, it } from "vitest";
import { fixtureScenario, fixtureTrace } from "../../testing/traceFixture.ts";
import { replicaLanesId, wholeJobLaneId } from "./timelineLayout.ts";
import { TimelineRenderer } from "./timelineRenderer.ts";

describe("timeline hover: a failure's recovery", () => {
  // The fixture: failure #1 at 600 s on host 1 (replica 0), fail-stop; defaults for the recovery
  // (detect 60 s; FT-HSDP restart 420 s + rejoin 120 s; sync restart 540 s), and the sync
  // checkpoint due at that instant is lost with 600 s of training.
  const r = new TimelineRenderer(fixtureScenario, fixtureTrace(), 1000);
  const L = r.currentLayout;
  const xAt = (t: number) => L.plotLeft + (t / 3600) * L.plotWidth;

  it("on the synchronous job: detect, job restart and the lost work", () => {
    const lines =
      r.hover(xAt(600), (L.slots[wholeJobLaneId("synchronous")]?.y ?? 0) + 5, 0, 3600)?.lines ?? [];
    expect(lines).toContain("Sync recovery: detect 60 s · job restart 9.0 min · lost work 10.0 min");
  });

  it("on the struck replica's lane: detect, restart, rejoin", () => {
    const lines = r.hover(xAt(600), (L.slots[replicaLanesId("ftHsdp")]?.y ?? 0) + 2, 0, 3600)?.lines ?? [];
    expect(lines).toContain("FT-HSDP recovery: detect 60 s · restart 7.0 min · rejoin 2.0 min");
    expect(lines.join(" ")).toContain("on host 1, replica 0");
  });
});
