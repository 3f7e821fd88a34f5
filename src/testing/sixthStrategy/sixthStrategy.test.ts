/**
 * A strategy is one folder and one line in the plug-in list (src/sim/policies/pluginList.ts). This
 * test adds the sixth-strategy double (./sixthStrategy.ts) to the list by one line (a list module
 * that is the shipped one plus that entry) and loads the app's modules afresh on it: the strategy
 * then appears in the strategy picker, the link, the page's results, the simulation worker's API,
 * the CLI's JSON and its --help, with no other file touched. And every entry point (the page, each
 * worker, each command) reaches the list, so no realm runs without it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { importEdges } from "../importGraph.ts";
import { sixthStrategy } from "./sixthStrategy.ts";

const LIST = "../../sim/policies/pluginList.ts";
const KEY = sixthStrategy.key;

/** The app's modules, imported after the list gained its line. */
async function app() {
  return {
    picker: await import("../../ui/cluster/StrategyPicker.tsx"),
    store: await import("../../state/store.ts"),
    scenario: await import("../../sim/scenario/index.ts"),
    link: await import("../../link/scenarioLink.ts"),
    metrics: await import("../../ui/cluster/MetricsPanel.tsx"),
    worker: await import("../../worker/clusterApi.ts"),
    cli: await import("../../cli/simCommand.ts"),
  };
}
let m: Awaited<ReturnType<typeof app>>;

beforeAll(async () => {
  vi.resetModules();
  vi.doMock(LIST, async (importOriginal) => {
    const shipped = await importOriginal<typeof import("../../sim/policies/pluginList.ts")>();
    return { PLUGINS: [...shipped.PLUGINS, sixthStrategy] };
  });
  m = await app();
}, 60_000);
afterAll(() => {
  vi.doUnmock(LIST);
  vi.resetModules();
});

const input = {
  policies: ["synchronous", KEY],
  cluster: { gpus: 512, gpusPerHost: 8, replicas: 4 },
  training: { days: 1 },
  failures: { perHostDay: 0.6 },
  seed: 7,
};

describe("a sixth strategy added by one line in the plug-in list", () => {
  it("appears in the strategy picker, after the listed ones, and selecting it is accepted", () => {
    const html = renderToStaticMarkup(createElement(m.picker.StrategyPicker));
    const offered = [...html.matchAll(/type="checkbox"[^>]*data-testid="strategy-([A-Za-z]+)"/g)].map(
      (x) => x[1],
    );
    expect(offered.at(-1)).toBe(KEY);
    expect(offered.slice(0, 4)).toEqual(["synchronous", "ftHsdp", "inMemory", "hotSpare"]);
    expect(html).toContain("Slow restarts");
    const s = m.scenario.parseScenario({ policies: ["synchronous"] });
    const next = m.picker.withPolicies(s, m.picker.toggledPolicies(s.policies, KEY, true));
    expect(typeof next === "string" ? next : next.policies).toEqual(["synchronous", KEY]);
  });

  it("is read from a link, and a link naming an unlisted key is refused with the list's keys", () => {
    const s = m.scenario.parseScenario(input);
    expect(m.link.decodeScenarioParam(m.link.encodeScenarioParam(s)).policies).toEqual(["synchronous", KEY]);
    expect(() => m.scenario.parseScenario({ policies: ["nope"] })).toThrow(`"diloco", "${KEY}"`);
  });

  it("is run by the worker and shown in the page's metrics table", () => {
    const s = m.scenario.parseScenario(input);
    const run = m.worker.clusterApi.clusterRun(s, true);
    const own = run[KEY];
    const sync = run.synchronous;
    if (!own || !sync) throw new Error("the worker's run lacks a selected strategy");
    // Twice the restart: where failures struck, it trains less than the synchronous job.
    expect(own.failures).toBe(sync.failures);
    expect(own.failures).toBeGreaterThan(0);
    expect(own.ettr).toBeLessThan(sync.ettr);
    expect(run.trace?.policies).toEqual(["synchronous", KEY]);
    const table = renderToStaticMarkup(createElement(m.metrics.MetricsPanel, { run, mc: null }));
    const heads = [...table.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((x) => x[1]);
    expect(heads).toEqual(["Metric", "Synchronous", "Slow restarts"]);
  });

  it("reaches the CLI: its metrics under its key in the JSON, and its line in --help", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "sixth-")), "sixth.json");
    writeFileSync(file, JSON.stringify(input));
    // One thread: the longer list lives in this realm, not in worker threads the CLI would start.
    const out = await m.cli.simCommand([file, "--json", "--seeds", "3", "--threads", "1"]);
    expect(out.stderr).toBe("");
    const json = JSON.parse(out.stdout) as Record<string, { ettr?: { mean: number } } | undefined>;
    expect(Object.keys(json)).toContain(KEY);
    expect(json[KEY]?.ettr?.mean).toBeLessThan(json.synchronous?.ettr?.mean ?? 0);
    const help = await m.cli.simCommand(["--help"]);
    expect(help.stdout).toMatch(new RegExp(`^ {2}${KEY} +Slow restarts: `, "m"));
  });

  it("is gone from the modules that did not load the longer list", async () => {
    const shipped = await vi.importActual<typeof import("../../sim/policies/pluginList.ts")>(LIST);
    expect(shipped.PLUGINS.map((p) => p.key)).not.toContain(KEY);
  });
});

describe("the plug-in list", () => {
  const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
  const edges = importEdges(ROOT, ["src"]);
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set([from]);
    const todo = [from];
    for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
      for (const e of edges) {
        if (e.from !== f || seen.has(e.to)) continue;
        seen.add(e.to);
        todo.push(e.to);
      }
    }
    return seen.has(to);
  };

  it("is reached from every entry point that runs or validates a scenario", () => {
    const entries = [
      "src/main.tsx",
      "src/worker/sim.worker.ts",
      "src/cli/sim.ts",
      "src/cli/monteCarloWorker.ts",
      "src/cli/fit.ts",
    ];
    const list = "src/sim/policies/pluginList.ts";
    expect(entries.filter((f) => !reaches(f, list))).toEqual([]);
    // And the check can fail: a module below the registry does not reach it.
    expect(reaches("src/sim/scenario/specs.ts", list)).toBe(false);
  });
});
