/**
 * A new kind of track is one file and one registration: a dummy track type, registered here,
 * is stacked by the layout, built, drawn in its band, named in the gutter, hovered, described and
 * summarised by the renderer, with no other file knowing it.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { derived } from "../../sim/scenario/derived.ts";
import { fixtureScenario, fixtureTrace } from "../../testing/traceFixture.ts";
import {
  GROUP_GAP,
  type Layout,
  replicaGroupId,
  replicaLanesId,
  TITLE_GAP,
  wholeJobLaneId,
} from "./timelineLayout.ts";
import type { Palette } from "./timelinePalette.ts";
import { rendererBuildSteps, TimelineRenderer, tracksFor, tracksSummary } from "./timelineRenderer.ts";
import type {
  PolicyTrackType,
  Track,
  TrackFrame,
  TrackInput,
  TrackPointer,
  TrackType,
} from "./timelineTrack.ts";
import { registerPolicyTracks, registerTimelineTrack, timelineTrackTypes } from "./timelineTrackRegistry.ts";

/** The first policies' bands, by their tracks' ids (a layout knows no track by name). */
const FT_ID = replicaLanesId("ftHsdp");
const ftY = (L: Layout) => L.slots[FT_ID]?.y ?? Number.NaN;
const ftH = (L: Layout) => L.slots[FT_ID]?.h ?? Number.NaN;
const syncY = (L: Layout) => L.slots[wholeJobLaneId("synchronous")]?.y ?? Number.NaN;

const HEIGHT = 20;
const GAP = 24;

/** A "failure tick" track: one 2-px tick per failure in view, in its own band. */
function dummyType(id = "dummy", extra: Partial<Track> = {}): TrackType & { built: number } {
  const type = {
    id,
    built: 0,
    create: ({ trace }: TrackInput): Track => {
      let times: Float64Array | null = null;
      return {
        id,
        space: () => ({ height: HEIGHT, gapAbove: GAP }),
        buildSteps: () => [
          () => {
            times = trace.failures.time.slice();
            type.built++;
          },
        ],
        drawSteps: ({ ctx, layout: L, view, x, palette: p }: TrackFrame) => [
          () => {
            const s = L.slots[id];
            if (!times || !s) return 0;
            let n = 0;
            ctx.fillStyle = p.accent;
            for (const t of times)
              if (t >= view.t0 && t <= view.t1) {
                ctx.fillRect(x(t) - 1, s.y, 2, s.h);
                n++;
              }
            return n;
          },
        ],
        drawLabels: ({ ctx, layout: L, palette: p }: TrackFrame) => {
          ctx.fillStyle = p.text;
          ctx.fillText("Failure ticks", L.plotLeft - 8, (L.slots[id]?.y ?? 0) + HEIGHT / 2);
        },
        hover: (p: TrackPointer) => ({
          title: `Failure ticks at ${Math.round(p.t)} s`,
          lines: [],
          failure: null,
        }),
        describe: (L) => ({ dummy: `${L.slots[id]?.y},${L.slots[id]?.h}` }),
        summary: () => `${trace.failures.time.length} failure ticks`,
        ...extra,
      };
    },
  };
  return type;
}

/** A 2D context that records every call with the fill style at the time. */
function recordingContext(): {
  ctx: CanvasRenderingContext2D;
  calls: { op: string; args: unknown[]; fill: unknown }[];
} {
  const calls: { op: string; args: unknown[]; fill: unknown }[] = [];
  const state: Record<string | symbol, unknown> = {};
  const ctx = new Proxy(state, {
    get: (_, prop) =>
      prop in state
        ? state[prop]
        : (...args: unknown[]) => {
            calls.push({ op: String(prop), args, fill: state.fillStyle });
            return { width: String(args[0] ?? "").length * 6 };
          },
    set: (_, prop, value) => {
      state[prop] = value;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
  return { ctx, calls };
}

const palette = new Proxy({}, { get: (_, k) => `colour-${String(k)}` }) as Palette;
const H = derived(fixtureScenario).horizonSeconds;

describe("a track registered from outside the timeline", () => {
  let unregister: (() => void) | null = null;
  afterEach(() => {
    unregister?.();
    unregister = null;
    vi.unstubAllGlobals();
  });

  it("is stacked below the others, drawn in its band, named in the gutter and hovered", () => {
    vi.stubGlobal("document", { createElement: () => ({ getContext: () => null }) });
    const trace = fixtureTrace();
    const plain = new TimelineRenderer(fixtureScenario, trace, 1000);
    const dummy = dummyType();
    unregister = registerTimelineTrack(dummy);
    const r = new TimelineRenderer(fixtureScenario, trace, 1000);
    expect(r.trackIds).toEqual([...plain.trackIds, "dummy"]);
    expect(dummy.built).toBe(1);

    // The layout made room for it under the last track, and moved nothing above it.
    const L = r.currentLayout;
    const P = plain.currentLayout;
    const band = L.slots.dummy;
    expect(band?.h).toBe(HEIGHT);
    expect(band?.y).toBeGreaterThan(ftY(P) + ftH(P));
    expect(ftY(L)).toBe(ftY(P));
    expect(L.height).toBeGreaterThan(P.height);

    // Drawn: a tick per failure, in its band, and its name in the gutter after the marks.
    const { ctx, calls } = recordingContext();
    r.draw(ctx, 0, H, palette, null);
    const ticks = calls.filter((c) => c.op === "fillRect" && c.args[1] === band?.y && c.args[3] === HEIGHT);
    expect(ticks).toHaveLength(trace.failures.time.length);
    expect(ticks.every((c) => c.fill === "colour-accent")).toBe(true);
    const label = calls.findIndex((c) => c.op === "fillText" && c.args[0] === "Failure ticks");
    expect(label).toBeGreaterThan(calls.indexOf(ticks.at(-1) as (typeof calls)[number]));

    // Hovered in its band (at the pointer's time); the other tracks answer as before.
    const x = L.plotLeft + L.plotWidth / 2;
    expect(r.hover(x, (band?.y ?? 0) + 5, 0, H)?.title).toBe(`Failure ticks at ${Math.round(H / 2)} s`);
    expect(r.hover(x, ftY(L) + 2, 0, H)).toEqual(plain.hover(x, ftY(P) + 2, 0, H));
    expect(r.hover(x, syncY(L) + 5, 0, H)).toEqual(plain.hover(x, syncY(P) + 5, 0, H));

    // Described on the canvas and in its accessible name.
    expect(r.describe().dummy).toBe(`${band?.y},${HEIGHT}`);
    expect(tracksSummary(tracksFor(fixtureScenario, trace))).toContain(
      `${trace.failures.time.length} failure ticks`,
    );

    // Removed again: the timeline is as before.
    unregister();
    unregister = null;
    expect(new TimelineRenderer(fixtureScenario, trace, 1000).trackIds).toEqual(plain.trackIds);
  });

  it("registered before another track, it pushes that track and those under it down by its room", () => {
    const trace = fixtureTrace();
    const plainR = new TimelineRenderer(fixtureScenario, trace, 1000);
    const plain = plainR.currentLayout;
    const before = plainR.hover(plain.plotLeft + 30, ftY(plain) + 2, 0, H);
    // A policy's lanes are made of track types by its recording's kind: FT-HSDP's are "replicas".
    unregister = registerPolicyTracks(asPolicyTrack(dummyType()), { before: "replicaLanes" });
    const r = new TimelineRenderer(fixtureScenario, trace, 1000);
    const L = r.currentLayout;
    expect(L.slots.dummy?.y).toBe(syncY(plain) + (plain.slots[wholeJobLaneId("synchronous")]?.h ?? 0) + GAP);
    // The replica lanes keep their own gap above them (the dummy is in no group of theirs).
    expect(ftY(L) - ftY(plain)).toBe(GAP + HEIGHT);
    expect(L.height - plain.height).toBe(GAP + HEIGHT);
    // Hover follows the lanes to where they are now.
    const x = L.plotLeft + 30;
    expect(r.hover(x, ftY(L) + 2, 0, H)).toEqual(before);
  });

  it("a track in the replica lanes' group sits close under their title", () => {
    const trace = fixtureTrace();
    const plain = new TimelineRenderer(fixtureScenario, trace, 1000).currentLayout;
    unregister = registerPolicyTracks(
      asPolicyTrack(
        dummyType("ckpt", {
          space: () => ({ height: HEIGHT, gapAbove: GAP, group: replicaGroupId("ftHsdp") }),
        }),
      ),
      { before: "replicaLanes" },
    );
    const L = new TimelineRenderer(fixtureScenario, trace, 1000).currentLayout;
    expect(L.groupTop[replicaGroupId("ftHsdp")]).toBe(L.slots.ckpt?.y);
    expect(ftY(L)).toBe((L.slots.ckpt?.y ?? 0) + HEIGHT + GROUP_GAP);
    // It opens the group (its own gap above, not the lanes'): the lanes follow GROUP_GAP under it.
    expect(L.slots.ckpt?.y).toBe(ftY(plain) - TITLE_GAP + GAP);
    expect(ftY(L) - ftY(plain)).toBe(GAP - TITLE_GAP + HEIGHT + GROUP_GAP);
  });

  it("its build steps run with the others when the page builds a track per task", () => {
    const trace = fixtureTrace();
    const types = timelineTrackTypes();
    const without = rendererBuildSteps(fixtureScenario, trace, 1000, types).steps.length;
    const dummy = dummyType();
    const build = rendererBuildSteps(fixtureScenario, trace, 1000, [...types, dummy]);
    expect(build.steps.length).toBe(without + 1);
    expect(dummy.built).toBe(0);
    for (const step of build.steps) step();
    expect(dummy.built).toBe(1);
    expect(build.renderer().trackIds.at(-1)).toBe("dummy");
  });

  it("a track drawn over another adds to what that one says on hover", () => {
    const trace = fixtureTrace();
    const over = dummyType("note", {
      space: () => ({ height: 0, gapAbove: 0, over: wholeJobLaneId("synchronous") }),
      hover: (_p, below) => (below ? { ...below, lines: [...below.lines, "a note"] } : below),
    });
    const r = new TimelineRenderer(fixtureScenario, trace, 1000, { types: [...timelineTrackTypes(), over] });
    const plain = new TimelineRenderer(fixtureScenario, trace, 1000);
    const L = r.currentLayout;
    expect(L.height).toBe(plain.currentLayout.height);
    const x = L.plotLeft + 100;
    const under = plain.hover(x, syncY(L) + 5, 0, H);
    expect(r.hover(x, syncY(L) + 5, 0, H)).toEqual({ ...under, lines: [...(under?.lines ?? []), "a note"] });
  });

  it("refuses an id registered twice, or a place that does not exist, by name", () => {
    expect(() => registerTimelineTrack({ id: "axis", create: () => null })).toThrow(
      'timeline track "axis" is already registered',
    );
    expect(() => registerTimelineTrack(dummyType(), { before: "nowhere" })).toThrow(
      'no timeline track "nowhere" to register before',
    );
    expect(timelineTrackTypes().map((t) => t.id)).not.toContain("dummy");
  });
});

/** A track type made part of every replica-level policy's lanes. */
function asPolicyTrack(t: TrackType): PolicyTrackType<"replicas"> {
  return {
    id: t.id,
    kind: "replicas",
    create: (input) => {
      const made = t.create(input);
      return made && !Array.isArray(made) ? (made as Track) : null;
    },
  };
}
