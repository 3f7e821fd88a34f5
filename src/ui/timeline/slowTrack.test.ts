/**
 * Slow episodes on the timeline (docs/model.md §6): the slow track (how many hosts are slow at
 * once, evictions as crosses) and the shade on the replica lanes, on runs the engine made.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { runScenario } from "../../sim/engine.ts";
import { Layout as HostLayout } from "../../sim/failures/failureTrace.ts";
import { derived, parseScenario, type ScenarioInput } from "../../sim/scenario/index.ts";
import { evictionsIn, slowCount } from "../../sim/slow/slowCount.ts";
import type { SlowEpisodes } from "../../sim/slow/slowTypes.ts";
import type { Trace } from "../../sim/types.ts";
import { type ReplicaBand, replicaBand, replicaLanesId } from "./timelineLayout.ts";
import type { Palette } from "./timelinePalette.ts";
import { TimelineRenderer } from "./timelineRenderer.ts";

afterAll(() => vi.unstubAllGlobals());

/** A small cluster for a day, slow hosts on; `slow` overrides the §6 group. */
function run(slow: ScenarioInput["slow"] = {}) {
  const s = parseScenario({
    cluster: { gpus: 512, gpusPerHost: 8, replicas: 8 },
    training: { days: 1 },
    failures: { perHostDay: 0.05 },
    slow: { perHostDay: 0.2, medianMinutes: 30, sigma: 1, factor: 2, ...slow },
    seed: 5,
  });
  const trace = runScenario(s, { record: true }).trace as Trace;
  return { s, trace, H: derived(s).horizonSeconds };
}

const episodes = (start: number[], end: number[], evicted: number[] = start.map(() => 0)): SlowEpisodes => ({
  count: start.length,
  start: Float64Array.from(start),
  end: Float64Array.from(end),
  host: Int32Array.from(start.map((_, i) => i)),
  evicted: Uint8Array.from(evicted),
  factor: 1.5,
});

describe("how many hosts are slow at once", () => {
  it("counts overlapping episodes as a step function, ends before starts at one instant", () => {
    const c = slowCount(episodes([0, 10, 15, 20], [15, 12, 20, 30]), 100);
    expect(Array.from(c.t)).toEqual([0, 0, 10, 12, 15, 20, 30]);
    expect(Array.from(c.n)).toEqual([0, 1, 2, 1, 1, 1, 0]);
    expect(c.max).toBe(2);
  });

  it("clips episodes to the horizon; an eviction at or past it never happened", () => {
    const ep = episodes([0, 50], [40, 150], [1, 1]);
    expect(Array.from(slowCount(ep, 100).t).at(-1)).toBe(100);
    expect(Array.from(evictionsIn(ep, 100))).toEqual([0]);
  });
});

describe("the slow track and the lanes' shade", () => {
  it("are absent without slow episodes, and the trace carries none", () => {
    const s = parseScenario({ cluster: { gpus: 512, gpusPerHost: 8, replicas: 8 }, training: { days: 1 } });
    const trace = runScenario(s, { record: true }).trace as Trace;
    expect("slow" in trace).toBe(false);
    const ids = new TimelineRenderer(s, trace, 1000).trackIds;
    expect(ids.some((id) => id.startsWith("slow"))).toBe(false);
  });

  it("the engine's episodes reach the trace, and the track draws a bar where hosts are slow", () => {
    vi.stubGlobal("document", { createElement: () => ({ getContext: () => null }) });
    const { s, trace, H } = run();
    const ep = trace.slow as SlowEpisodes;
    expect(ep.count).toBeGreaterThan(5);
    const r = new TimelineRenderer(s, trace, 1000);
    expect(r.trackIds).toContain("slow");
    expect(r.trackIds).toContain("slowHosts:ftHsdp");
    const d = r.describe();
    expect(d.slowEpisodes).toBe(String(ep.count));
    const [y, h] = (d.slowTrack ?? "").split(",").map(Number) as [number, number];
    const palette = new Proxy({}, { get: (_, k) => `colour-${String(k)}` }) as Palette;
    const fills: { style: unknown; args: number[] }[] = [];
    const state: Record<string | symbol, unknown> = {};
    const ctx = new Proxy(state, {
      get: (_, prop) =>
        prop in state
          ? state[prop]
          : (...args: number[]) => {
              if (prop === "fillRect") fills.push({ style: state.fillStyle, args });
              return { width: 10 };
            },
      set: (_, prop, v) => {
        state[prop] = v;
        return true;
      },
    }) as unknown as CanvasRenderingContext2D;
    r.draw(ctx, 0, H, palette, null);
    const bars = fills.filter((f) => f.style === "colour-slow");
    expect(bars.length).toBeGreaterThan(0);
    expect(
      bars.every(
        (b) => (b.args[1] as number) >= y && (b.args[1] as number) + (b.args[3] as number) <= y + h + 1e-9,
      ),
    ).toBe(true);
    // The shade: on the replica lanes, in their band, and as the track's tint where any host is slow.
    const B = replicaBand(r.currentLayout, replicaLanesId("ftHsdp"), 8) as ReplicaBand;
    const shade = fills.filter((f) => f.style === "colour-slowShade");
    const inLanes = shade.filter((f) => (f.args[1] as number) >= B.y && (f.args[1] as number) < B.y + B.h);
    const inTrack = shade.filter((f) => (f.args[1] as number) >= y && (f.args[1] as number) < y + h);
    expect(inLanes.length).toBeGreaterThan(0);
    expect(inTrack.length).toBeGreaterThan(0);
    expect(inLanes.length + inTrack.length).toBe(shade.length);
  });

  it("hover on the track names the episode under the pointer; on its replica's lane too", () => {
    const { s, trace, H } = run();
    const ep = trace.slow as SlowEpisodes;
    const r = new TimelineRenderer(s, trace, 1000);
    const L = r.currentLayout;
    const hosts = new HostLayout(s);
    const e = 2;
    const t = ((ep.start[e] as number) + Math.min(ep.end[e] as number, H)) / 2;
    const x = L.plotLeft + (t / H) * L.plotWidth;
    const [y] = (r.describe().slowTrack ?? "").split(",").map(Number) as [number];
    const host = ep.host[e] as number;
    const where = `host ${host.toLocaleString("en-US")} (replica ${hosts.replicaOf(host)})`;
    const tip = r.hover(x, y + 10, 0, H);
    expect(tip?.title).toMatch(/slow episodes? at/i);
    expect(tip?.lines.some((l) => l.startsWith(`${where}: 2× slower`))).toBe(true);
    const B = replicaBand(L, replicaLanesId("ftHsdp"), 8) as ReplicaBand;
    const lane = r.hover(x, B.y + (hosts.replicaOf(host) + 0.5) * B.laneH, 0, H);
    expect(lane?.lines.some((l) => l.startsWith(`Slow ${where}`))).toBe(true);
  });

  it("an eviction is a cross on the track, named on hover, and its failure is named an eviction", () => {
    const { s, trace, H } = run({ evictAfterMinutes: 20 });
    const ep = trace.slow as SlowEpisodes;
    const ev = evictionsIn(ep, H);
    expect(ev.length).toBeGreaterThan(0);
    const r = new TimelineRenderer(s, trace, 1000);
    expect(r.describe().slowEvictions).toBe(String(ev.length));
    expect(trace.failures.evicted.filter((v) => v === 1).length).toBe(ev.length);
    const e = ev[0] as number;
    const t = ep.end[e] as number;
    const L = r.currentLayout;
    const x = L.plotLeft + (t / H) * L.plotWidth;
    const [y] = (r.describe().slowTrack ?? "").split(",").map(Number) as [number];
    expect(r.hover(x, y + 4, 0, H)?.lines.some((l) => l.startsWith("Eviction at"))).toBe(true);
    // On the evicted host's lane, the failure marker there is the eviction.
    const row = trace.failures.evicted.indexOf(1);
    const B = replicaBand(L, replicaLanesId("ftHsdp"), 8) as ReplicaBand;
    const tf = trace.failures.time[row] as number;
    const lane = trace.failures.replica[row] as number;
    const tip = r.hover(L.plotLeft + (tf / H) * L.plotWidth, B.y + (lane + 0.5) * B.laneH, 0, H);
    expect(tip?.lines.join(" ")).toContain("eviction of a slow host");
  });
});
