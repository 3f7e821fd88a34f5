/**
 * A policy is a plug-in: a fake third policy, "noop" (a whole-job policy that
 * loses nothing), registered through the registry from this file alone, reaches the CLI's JSON,
 * the CSV, the Perfetto export and the page's results (metrics table, failure log) and timeline
 * (its own lane, its replay moment), with no other file touched. Then it is removed again and
 * the defaults are as before.
 */

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simCommand } from "../cli/simCommand.ts";
import { clusterTrace } from "../export/clusterTrace.ts";
import { sweepCsv } from "../export/csv.ts";
import { runScenario } from "../sim/engine.ts";
import type { FailureTrace } from "../sim/failures/failureTrace.ts";
import { monteCarlo } from "../sim/monteCarlo/monteCarlo.ts";
import { type Policy, registeredPolicies, registerPolicy } from "../sim/policies/index.ts";
import { PLUGINS } from "../sim/policies/pluginList.ts";
import { assembleMetrics, badputSeconds } from "../sim/policies/policyMetrics.ts";
import { DEFAULT_SCENARIO, derived, parseScenario, type Scenario } from "../sim/scenario/index.ts";
import { axisInfo } from "../sim/sweep/index.ts";
import type { PolicyKey, WholeJobRecording } from "../sim/types.ts";
import { momentAt } from "../state/traceAt.ts";
import { FailureLog } from "../ui/cluster/FailureLog.tsx";
import { MetricsPanel } from "../ui/cluster/MetricsPanel.tsx";
import { tracksFor } from "../ui/timeline/timelineRenderer.ts";

/** Loses nothing: trains the whole run, whatever fails. */
function runNoop(s: Scenario, failures: FailureTrace, record: boolean) {
  const H = derived(s).horizonSeconds;
  const metrics = assembleMetrics(failures, {
    wallSeconds: H,
    usefulSeconds: H,
    stallSeconds: 0,
    lostWorkSeconds: 0,
    checkpoints: 0,
    checkpointSeconds: 0,
    degradedSeconds: 0,
    healthyReplicaSeconds: H * s.cluster.replicas,
    secondsWithKDown: new Float64Array(0),
    jobRestarts: 0,
    spareWaitSeconds: 0,
    longestSpareWaitSeconds: 0,
    pool: null,
    causeStallSeconds: new Float64Array(s.failures.causes.length),
    badputSeconds: badputSeconds(),
  });
  if (!record) return { metrics };
  const n = failures.count;
  const recording: WholeJobRecording = {
    kind: "wholeJob",
    intervals: { state: new Uint8Array(0), start: new Float64Array(0), end: new Float64Array(0) },
    progress: { t: Float64Array.from([0, H]), useful: Float64Array.from([0, H]) },
    stallPerFailure: new Float64Array(n),
    lostPerFailure: new Float64Array(n),
  };
  return { metrics, recording };
}

const noop: Policy = {
  key: "noop",
  label: "No-op",
  shortLabel: "No-op",
  colour: { cssVar: "--noop", fallback: "#123456" },
  blurb: "Nothing is ever lost: a test's stand-in for a perfect strategy.",
  csvPrefix: "noop",
  cardMetric: "failures",
  run: runNoop,
  closedForm: () => ({ value: 1, note: "exact: nothing is lost" }),
  formText: { formula: "1", assumes: "" },
};

const KEYS = ["synchronous", "noop", "ftHsdp"];
const input = {
  policies: KEYS,
  cluster: { gpus: 512, gpusPerHost: 8, replicas: 4 },
  training: { days: 1 },
  failures: { perHostDay: 0.6 },
  sync: { checkpointMinutes: 30, checkpointWriteSeconds: 20 },
  seed: 7,
};

let unregister: (() => void) | null = null;
let scenario: Scenario;
beforeAll(() => {
  unregister = registerPolicy(noop);
  scenario = parseScenario(input);
});
afterAll(() => unregister?.());

describe("a dummy third policy registered from outside", () => {
  it("is selected by key like a built-in one, and named among the allowed ones when refused", () => {
    expect(scenario.policies).toEqual(KEYS);
    expect(() => parseScenario({ policies: ["nope"] })).toThrow(/"hotSpare", "diloco", "noop"/);
  });

  it("reaches the CLI's JSON: its metrics under its key, in display order", async () => {
    const dir = mkdtempSync(join(tmpdir(), "noop-"));
    const file = join(dir, "noop.json");
    writeFileSync(file, JSON.stringify(input));
    // One thread: a registration lives in this realm, not in worker threads the CLI would start.
    const out = await simCommand([file, "--json", "--seeds", "3", "--threads", "1"]);
    expect(out.stderr).toBe("");
    const json = JSON.parse(out.stdout) as Record<string, unknown>;
    expect(Object.keys(json).filter((k) => KEYS.includes(k))).toEqual(KEYS);
    const m = json.noop as { ettr: { mean: number }; stallSeconds: { mean: number } };
    expect(m.ettr.mean).toBe(1);
    expect(m.stallSeconds.mean).toBe(0);
  });

  it("reaches the CSV: its columns under its prefix", () => {
    const mc = monteCarlo(scenario, 2);
    const csv = sweepCsv(axisInfo("gpus"), [{ x: 512, mc }]);
    const [header, row] = csv.trim().split("\n");
    const cols = (header ?? "").split(",");
    expect(cols).toContain("noop_ettr_mean");
    expect(cols).toContain("noop_badput_detection_mean");
    expect((row ?? "").split(",")[cols.indexOf("noop_ettr_mean")]).toBe("1");
  });

  it("reaches the Perfetto export: its own job process under its label, with its counter", () => {
    const run = runScenario(scenario, { record: true });
    const events = clusterTrace(scenario, run.trace!).traceEvents;
    const names = events.filter((e) => e.name === "process_name").map((e) => e.args?.name);
    expect(names.slice(0, 3)).toEqual(["Synchronous job", "No-op job", "FT-HSDP job"]);
    const pid = events.find((e) => e.name === "process_name" && e.args?.name === "No-op job")!.pid;
    const useful = events.filter((e) => e.pid === pid && e.ph === "C").map((e) => e.args?.hours);
    expect(useful).toEqual([0, 24]);
    // One failure marker per failure on its job, as on the synchronous one.
    const marks = events.filter((e) => e.pid === pid && e.ph === "i");
    expect(marks.length).toBe(run.trace!.failures.time.length);
    expect(marks.length).toBeGreaterThan(0);
  });

  it("reaches the page's results: a column in the metrics table and in the failure log", () => {
    const run = runScenario(scenario, { record: true });
    const table = renderToStaticMarkup(createElement(MetricsPanel, { run, mc: null }));
    const heads = [...table.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(heads).toEqual(["Metric", "Synchronous", "No-op", "FT-HSDP"]);
    const log = renderToStaticMarkup(createElement(FailureLog, { trace: run.trace!, scenario }));
    expect(log).toContain("Recovery: No-op");
    expect(log).toContain("No-op stall");
    expect(log).toContain('data-testid="recovery-noop-0"');
  });

  it("reaches the page's timeline: its own lane, between the others, and its replay moment", () => {
    const run = runScenario(scenario, { record: true });
    const trace = run.trace!;
    const ids = tracksFor(scenario, trace).map((t) => t.id);
    expect(ids.filter((id) => id.startsWith("sync:"))).toEqual(["sync:synchronous", "sync:noop"]);
    expect(ids.indexOf("sync:noop")).toBeLessThan(ids.indexOf("replicas:ftHsdp"));
    const H = derived(scenario).horizonSeconds;
    const m = momentAt(trace, H / 2).policies.find((p) => p.key === ("noop" as PolicyKey));
    expect(m?.useful).toBe(H / 2);
  });

  it("is gone again once removed: the defaults and the built-in keys are as before", () => {
    unregister?.();
    unregister = null;
    expect(registeredPolicies()).toEqual(PLUGINS);
    expect(() => parseScenario(input)).toThrow(/policies\[1\]: got "noop"/);
    expect(DEFAULT_SCENARIO.policies).toEqual(["synchronous", "ftHsdp"]);
  });
});
