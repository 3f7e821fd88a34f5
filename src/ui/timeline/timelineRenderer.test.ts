import { describe, expect, it, vi } from "vitest";
import { runScenario } from "../../sim/engine.ts";
import { derived } from "../../sim/scenario/derived.ts";
import { parseScenario } from "../../sim/scenario/index.ts";
import type { ReplicaRecording } from "../../sim/types.ts";
import { everyV2Part } from "../../testing/everyV2Part.ts";
import { fixtureScenario, fixtureTrace } from "../../testing/traceFixture.ts";
import { FtTrack, replicaTrace } from "./ftTrack.ts";
import {
  BUILT_IN_SPACE,
  type ReplicaBand,
  replicaBand,
  replicaLanesId,
  stackTracks,
  wholeJobLaneId,
} from "./timelineLayout.ts";
import type { Palette } from "./timelinePalette.ts";
import { rendererBuildSteps, TimelineRenderer } from "./timelineRenderer.ts";

/** The replica lanes' grid of `replicas` replicas in a layout of the axis, one whole-job lane and them. */
function lanesOf(width: number, replicas: number): ReplicaBand {
  const id = replicaLanesId("ftHsdp");
  const L = stackTracks(width, [
    { id: "axis", space: BUILT_IN_SPACE.axis },
    { id: wholeJobLaneId("synchronous"), space: BUILT_IN_SPACE.sync },
    { id, space: BUILT_IN_SPACE.replicas(replicas, "ftHsdp") },
  ]);
  return replicaBand(L, id, replicas) as ReplicaBand;
}

describe("timeline layout", () => {
  it("gives each replica its own lane while they fit", () => {
    const L = lanesOf(1200, 12);
    expect(L.lanes).toBe(12);
    expect(L.group).toBe(1);
    expect(L.laneH).toBeGreaterThanOrEqual(5);
  });

  it("groups thousands of replicas into lanes of at least 3 px", () => {
    const L = lanesOf(1200, 1536);
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
  const syncY = (L.slots[wholeJobLaneId("synchronous")]?.y ?? 0) + 5;
  const B = replicaBand(L, replicaLanesId("ftHsdp"), fixtureScenario.cluster.replicas) as ReplicaBand;
  const laneY = (lane: number) => B.y + lane * B.laneH + 2;

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
  const L = lanesOf(1000, fixtureScenario.cluster.replicas);
  const ft = new FtTrack(replicaTrace(trace, trace.recordings.ftHsdp as ReplicaRecording), L);

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

/** A 2D context that records every call and property write, in order (the frame, as data). */
function recordingContext(): { ctx: CanvasRenderingContext2D; log: unknown[][] } {
  const log: unknown[][] = [];
  const state: Record<string | symbol, unknown> = {};
  const ctx = new Proxy(state, {
    get: (_, prop) =>
      prop in state
        ? state[prop]
        : (...args: unknown[]) => {
            log.push([String(prop), ...args]);
            return { width: String(args[0] ?? "").length * 6 };
          },
    set: (_, prop, value) => {
      log.push(["=", String(prop), value]);
      state[prop] = value;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
  return { ctx, log };
}

describe("a renderer built in steps (the page builds it a track per task)", () => {
  it("draws, call for call, the frames a renderer built at once draws, and hovers the same", () => {
    // The rolled-back hatch draws its tile on a canvas of its own: none here (it falls back to a colour).
    vi.stubGlobal("document", { createElement: () => ({ getContext: () => null }) });
    const s = parseScenario(
      everyV2Part({ gpus: 8192, replicas: 128, perHostDay: 0.2, days: 2, spareHosts: 4 }),
    );
    const trace = runScenario(s, { record: true }).trace;
    if (!trace) throw new Error("recorded");
    const build = rendererBuildSteps(s, trace, 1000);
    for (const step of build.steps) step();
    const stepped = build.renderer();
    const once = new TimelineRenderer(s, trace, 1000);
    expect(stepped.job).not.toBeNull();
    expect(stepped.spares).not.toBeNull();
    expect(stepped.racks.count).toBeGreaterThan(0);
    expect(stepped.racks.count).toBe(once.racks.count);
    const palette = new Proxy({}, { get: (_, k) => `colour-${String(k)}` }) as Palette;
    const H = derived(s).horizonSeconds;
    const L = once.currentLayout;
    for (const [t0, t1] of [
      [0, H],
      [H / 3, H / 3 + 3600],
    ] as const) {
      const a = recordingContext();
      const b = recordingContext();
      stepped.draw(a.ctx, t0, t1, palette, 0);
      once.draw(b.ctx, t0, t1, palette, 0);
      expect(a.log.length).toBeGreaterThan(500);
      expect(a.log).toEqual(b.log);
      for (let y = L.slots[wholeJobLaneId("synchronous")]?.y ?? 0; y < L.height; y += 7) {
        const x = L.plotLeft + ((y * 37) % L.plotWidth);
        expect(stepped.hover(x, y, t0, t1)).toEqual(once.hover(x, y, t0, t1));
      }
    }
    vi.unstubAllGlobals();
  });
});
