import { describe, expect, it } from "vitest";
import { fixtureScenario, fixtureTrace } from "../../export/traceFixture.ts";
import { FtTrack } from "./ftTrack.ts";
import { computeLayout } from "./timelineLayout.ts";
import { TimelineRenderer } from "./timelineRenderer.ts";

describe("timeline layout", () => {
  it("gives each replica its own lane while they fit", () => {
    const L = computeLayout(1200, 12);
    expect(L.lanes).toBe(12);
    expect(L.group).toBe(1);
    expect(L.laneH).toBeGreaterThanOrEqual(5);
  });

  it("groups thousands of replicas into lanes of at least 3 px", () => {
    const L = computeLayout(1200, 1536);
    expect(L.group).toBeGreaterThan(1);
    expect(L.lanes * L.group).toBeGreaterThanOrEqual(1536);
    expect((L.lanes - 1) * L.group).toBeLessThan(1536);
    expect(L.laneH).toBeGreaterThanOrEqual(3);
  });
});

describe("timeline hover", () => {
  const r = new TimelineRenderer(fixtureScenario, fixtureTrace(), 1000);
  const L = r.currentLayout;
  // Whole hour in view: time t is at x = plotLeft + t / 3600 · plotWidth.
  const xAt = (t: number) => L.plotLeft + (t / 3600) * L.plotWidth;
  const syncY = L.syncY + 5;
  const laneY = (lane: number) => L.ftY + lane * L.laneH + 2;

  it("names the synchronous job's state and the failure under the pointer", () => {
    const h = r.hover(xAt(601), syncY, 0, 3600);
    expect(h?.title).toMatch(/^Synchronous job — recovering/);
    expect(h?.failure).toBe(0);
    expect(h?.lines.join(" ")).toContain("Failure #1");
    expect(r.hover(xAt(1900), syncY, 0, 3600)?.title).toMatch(/rolled back/);
    expect(r.hover(xAt(1500), syncY, 0, 3600)?.title).toBe("Synchronous job — training");
  });

  it("tells the failed replica (down) from the healthy one (stalled) during detection", () => {
    expect(r.hover(xAt(630), laneY(0), 0, 3600)?.title).toMatch(/^Replica 0 — down: failure being detected/);
    expect(r.hover(xAt(630), laneY(1), 0, 3600)?.title).toMatch(/^Replica 1 — stalled/);
    expect(r.hover(xAt(800), laneY(0), 0, 3600)?.title).toMatch(/down: restarting/);
    expect(r.hover(xAt(800), laneY(1), 0, 3600)?.title).toBe("Replica 1 — training");
  });

  it("is silent outside the lanes", () => {
    expect(r.hover(5, syncY, 0, 3600)).toBeNull();
    expect(r.hover(xAt(600), 2, 0, 3600)).toBeNull();
  });
});

describe("timeline draw steps", () => {
  const trace = fixtureTrace();
  const L = computeLayout(1000, fixtureScenario.cluster.replicas);
  const ft = new FtTrack(trace, L);

  it("cover every FT-HSDP lane once, in order, within the lane and row bounds", () => {
    for (const [lanes, rows] of [
      [16, 100_000],
      [1, 100_000],
      [16, 1],
    ] as const) {
      const steps = ft.laneSteps(L, lanes, rows);
      expect(steps[0]?.[0]).toBe(0);
      expect(steps[steps.length - 1]?.[1]).toBe(L.lanes);
      steps.forEach(([from, to], k) => {
        expect(to).toBeGreaterThan(from);
        expect(to - from).toBeLessThanOrEqual(lanes);
        if (k > 0) expect(from).toBe(steps[k - 1]?.[1]);
      });
    }
    // One row per step allows one lane per step (a lane is never split).
    expect(ft.laneSteps(L, 16, 1)).toHaveLength(L.lanes);
  });
});
