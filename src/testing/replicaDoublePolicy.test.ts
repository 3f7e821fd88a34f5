/**
 * A second replica-level policy is one registration: "ftTwin", a test double
 * that is FT-HSDP with replica restarts twice as long, registered from this file alone, gets
 * replica lanes, a job lane and rack marks of its own (ids `replicas:ftTwin`, …, each in its own
 * slot with its own height) beside FT-HSDP's, and reaches the whole Cluster view, the timeline's
 * draw, hover and replay, the failure log, the Perfetto export and the CSV. Removing this file
 * changes no other.
 */

import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { clusterTrace } from "../export/clusterTrace.ts";
import { sweepCsv } from "../export/csv.ts";
import { runScenario } from "../sim/engine.ts";
import { monteCarlo } from "../sim/monteCarlo/monteCarlo.ts";
import { ftHsdpPolicy } from "../sim/policies/ftHsdp/index.ts";
import { type Policy, registerPolicy } from "../sim/policies/index.ts";
import { parseScenario, type Scenario } from "../sim/scenario/index.ts";
import { axisInfo } from "../sim/sweep/index.ts";
import type { PolicyKey, RunResult, Trace } from "../sim/types.ts";
import { appStore } from "../state/store.ts";
import { momentAt } from "../state/traceAt.ts";
import { ClusterView } from "../ui/cluster/ClusterView.tsx";
import { FailureLog } from "../ui/cluster/FailureLog.tsx";
import { type Layout, replicaBand, replicaLanesId } from "../ui/timeline/timelineLayout.ts";
import type { Palette } from "../ui/timeline/timelinePalette.ts";
import { TimelineRenderer, tracksFor } from "../ui/timeline/timelineRenderer.ts";

const TWIN = "ftTwin";

/** FT-HSDP whose replicas take twice as long to restart: its lanes differ from FT-HSDP's where a replica is down. */
const twin: Policy = {
  ...ftHsdpPolicy,
  key: TWIN,
  label: "FT twin",
  shortLabel: "Twin",
  colour: { cssVar: "--ft-twin", fallback: "#445566" },
  blurb: "FT-HSDP with slower replica restarts: a test's second replica-level strategy.",
  csvPrefix: "ft_twin",
  run: (s, failures, record) =>
    ftHsdpPolicy.run(
      { ...s, ft: { ...s.ft, replicaRestartSeconds: 2 * s.ft.replicaRestartSeconds } },
      failures,
      record,
    ),
  closedForm: () => ({ value: null, note: "none: a test double" }),
};

const input = {
  policies: ["synchronous", "ftHsdp", TWIN],
  cluster: { gpus: 512, gpusPerHost: 8, replicas: 4, hostsPerRack: 4, placement: "striped" },
  training: { days: 1 },
  failures: {
    perHostDay: 0.6,
    causes: [
      { name: "Host", share: 8, scope: "host" },
      { name: "Rack", share: 1, scope: "rack" },
      { name: "Software", share: 1, scope: "job", newHost: false },
    ],
  },
  ft: { checkpointMinutes: 60, checkpointWriteSeconds: 20 },
  seed: 3,
};

let unregister: (() => void) | null = null;
let scenario: Scenario;
let run: RunResult;
let trace: Trace;
beforeAll(() => {
  unregister = registerPolicy(twin);
  scenario = parseScenario(input);
  run = runScenario(scenario, { record: true });
  if (!run.trace) throw new Error("recorded");
  trace = run.trace;
});
afterAll(() => {
  unregister?.();
  appStore.setState({ run: null, mc: null });
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A 2D context that records the calls made on it. */
function recordingContext() {
  const calls: { op: string; args: unknown[] }[] = [];
  const state: Record<string | symbol, unknown> = {};
  const ctx = new Proxy(state, {
    get: (_, prop) =>
      prop in state
        ? state[prop]
        : (...args: unknown[]) => {
            calls.push({ op: String(prop), args });
            return { width: String(args[0] ?? "").length * 6 };
          },
    set: (_, prop, v) => {
      state[prop] = v;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
  return { ctx, calls };
}

const band = (L: Layout, key: string) => {
  const b = replicaBand(L, replicaLanesId(key), scenario.cluster.replicas);
  if (!b) throw new Error(`no replica lanes for ${key}`);
  return b;
};

describe("a second replica-level policy registered from outside", () => {
  it("has tracks of its own: ids by its key, each in its own slot with its own height", () => {
    const ids = tracksFor(scenario, trace).map((t) => t.id);
    for (const key of ["ftHsdp", TWIN]) {
      expect(ids).toContain(`replicas:${key}`);
      expect(ids).toContain(`racks:${key}`);
    }
    // Its job lane is there when its recording has job-lane intervals (a job-scope failure or a checkpoint).
    expect(trace.recordings[TWIN as PolicyKey]?.kind).toBe("replicas");
    expect(ids).toContain(`job:${TWIN}`);
    const L = new TimelineRenderer(scenario, trace, 1000).currentLayout;
    const ft = band(L, "ftHsdp");
    const tw = band(L, TWIN);
    expect(tw.h).toBeGreaterThan(0);
    expect(tw.lanes).toBe(scenario.cluster.replicas);
    // Stacked one under the other, in display order, never sharing a band.
    expect(tw.y).toBeGreaterThanOrEqual(ft.y + ft.h);
    const twinJob = L.slots[`job:${TWIN}`];
    expect(twinJob && twinJob.y >= ft.y + ft.h && twinJob.y + twinJob.h <= tw.y).toBe(true);
    // The rack marks draw over their own policy's lanes.
    expect(L.slots[`racks:${TWIN}`]).toEqual(L.slots[`replicas:${TWIN}`]);
  });

  it("is drawn, named in the gutter, described on the canvas and hovered in its own lanes", () => {
    vi.stubGlobal("document", { createElement: () => ({ getContext: () => null }) });
    const r = new TimelineRenderer(scenario, trace, 1000);
    const L = r.currentLayout;
    const palette = new Proxy({}, { get: (_, k) => `colour-${String(k)}` }) as Palette;
    const { ctx, calls } = recordingContext();
    r.draw(ctx, 0, 86_400, palette, null);
    const texts = calls.filter((c) => c.op === "fillText").map((c) => c.args[0]);
    expect(texts).toContain("FT-HSDP: 4 replicas");
    expect(texts).toContain("FT twin: 4 replicas");
    expect(texts).toContain("FT twin job");
    const tw = band(L, TWIN);
    // Marks inside the twin's band: its lanes are drawn there.
    const inTwin = calls.filter(
      (c) => c.op === "fillRect" && (c.args[1] as number) >= tw.y && (c.args[1] as number) < tw.y + tw.h,
    );
    expect(inTwin.length).toBeGreaterThan(0);
    expect(r.describe().replicaLanesFtTwin).toBe(`${tw.y},${tw.laneH},${tw.lanes}`);

    // A host failure's replica restarts for 420 s under FT-HSDP, 840 s under the twin: 600 s
    // after its detection, the twin's lane says "restarting" where FT-HSDP's is past it.
    const f = trace.failures;
    let i = 0;
    while (i < f.time.length && (f.scope[i] !== 0 || f.evicted[i] === 1)) i++;
    expect(i).toBeLessThan(f.time.length);
    const lane = f.replica[i] as number;
    const t = (f.time[i] as number) + (f.ftDetectSeconds[i] as number) + 600;
    const [t0, t1] = [t - 1800, t + 1800];
    const x = L.plotLeft + ((t - t0) / (t1 - t0)) * L.plotWidth;
    const ft = band(L, "ftHsdp");
    const at = (b: typeof ft) => r.hover(x, b.y + (lane + 0.5) * b.laneH, t0, t1)?.title ?? "";
    expect(at(tw)).toMatch(new RegExp(`^Replica ${lane} — down: restarting`));
    expect(at(ft)).not.toMatch(/down: restarting/);

    // The replay outlines the twin's restart in the twin's band.
    const m = momentAt(trace, t);
    const marks = r.replayMarks(t0, t1, m);
    expect(marks.boxes.some(([, , y]) => y === tw.y + lane * tw.laneH)).toBe(true);
    expect(m.policies.map((p) => p.key)).toEqual(["synchronous", "ftHsdp", TWIN]);
  });

  it("reaches the failure log: a recovery column of its own", () => {
    const log = renderToStaticMarkup(createElement(FailureLog, { trace, scenario }));
    expect(log).toContain("Recovery: FT twin");
    expect(log).toContain(`data-testid="recovery-${TWIN}-0"`);
  });

  it("reaches the Perfetto export: its own process, with replica threads", () => {
    const events = clusterTrace(scenario, trace).traceEvents;
    const procs = events.filter((e) => e.name === "process_name").map((e) => String(e.args?.name));
    expect(procs.some((n) => n.startsWith("FT twin"))).toBe(true);
    expect(procs.some((n) => n.startsWith("FT-HSDP"))).toBe(true);
    const pid = events.find(
      (e) => e.name === "process_name" && String(e.args?.name).startsWith("FT twin"),
    )?.pid;
    expect(events.some((e) => e.pid === pid && e.ph === "X")).toBe(true);
  });

  it("reaches the CSV under its prefix", () => {
    const csv = sweepCsv(axisInfo("gpus"), [{ x: 512, mc: monteCarlo(scenario, 2) }]);
    const cols = (csv.split("\n")[0] ?? "").split(",");
    expect(cols).toContain("ft_twin_ettr_mean");
    expect(cols).toContain("ft_hsdp_ettr_mean");
  });

  it("renders the whole Cluster view with it: its intro, its result card and its timeline", () => {
    appStore.setState({ scenario, run, mc: monteCarlo(scenario, 2) });
    // A static render reads a store's initial state (React's server snapshot): this one, here.
    const state = appStore.getState();
    vi.spyOn(appStore, "getInitialState").mockReturnValue(state);
    const html = renderToStaticMarkup(createElement(ClusterView));
    expect(html).toContain("FT twin");
    expect(html).toContain("FT-HSDP with slower replica restarts");
    expect(html).toContain(`data-testid="ettr-${TWIN}"`);
    expect(html).toContain('data-testid="timeline-canvas"');
    expect(html).toContain('data-testid="failure-log"');
  });
});
