/**
 * The Cluster view's v2 timeline parts (docs/model.md §3): the FT-HSDP job lane, rack marks
 * across the replicas one rack failure struck, and the spare-pool chart. Each preset's expected
 * counts come from the engine itself, run here on the same scenario and seed as the page.
 */
import { mkdirSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { runScenario } from "../src/sim/engine.ts";
import { struckReplicaRanges } from "../src/sim/failures/failureTrace.ts";
import { presetById } from "../src/sim/presets.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";
import { FtJobState, ScopeCode, type Trace } from "../src/sim/types.ts";
import { type LegacyTrace, legacyTrace } from "../src/testing/legacyTrace.ts";

const GUTTER = 128;
const SHOTS = "shots";

function traceOf(id: string): LegacyTrace & Trace {
  const preset = presetById(id);
  if (!preset) throw new Error(`no preset ${id}`);
  const trace = runScenario(parseScenario(preset.scenario), { record: true }).trace;
  if (!trace) throw new Error("no trace");
  return { ...trace, ...legacyTrace(trace) };
}

async function openPreset(page: Page, title: RegExp) {
  await page.goto("/#v=cluster");
  await page.getByRole("button", { name: title }).click();
  await expect(page.getByTestId("preset-source")).toBeVisible();
  await expect(page.getByTestId("timeline-canvas")).toBeVisible();
}

/** Reopen the page's own link with the timeline zoomed to [a, b] seconds. */
async function zoomTo(page: Page, a: number, b: number) {
  const url = new URL(page.url());
  await page.goto(`/${url.hash}&w=${a.toFixed(1)},${b.toFixed(1)}`);
  await expect(page.getByTestId("timeline-window")).toHaveText(/^Showing /);
}

/** Hover the plot's middle column at canvas height y (scrolled to mid-screen, clear of the sticky header); returns the tooltip. */
async function hoverMiddle(page: Page, y: number) {
  const canvas = page.getByTestId("timeline-canvas");
  await canvas.scrollIntoViewIfNeeded();
  let box = await canvas.boundingBox();
  if (!box) throw new Error("no canvas");
  const target = box.y + y;
  await page.evaluate((dy) => window.scrollBy(0, dy), target - (page.viewportSize()?.height ?? 720) / 2);
  box = await canvas.boundingBox();
  if (!box) throw new Error("no canvas");
  const plotWidth = box.width - GUTTER - 8;
  await page.mouse.move(box.x + GUTTER + plotWidth / 2, box.y + y);
  return page.getByTestId("timeline-tooltip");
}

/**
 * The numbers of a part's data attribute, once the canvas has it: the renderer of a new run is
 * built in steps, and sets its parts' attributes when the last step is done.
 */
async function numbers(page: Page, attr: string): Promise<number[]> {
  const canvas = page.getByTestId("timeline-canvas");
  await expect(canvas).toHaveAttribute(attr, /^[\d.]+(,[\d.]+)+$/);
  return ((await canvas.getAttribute(attr)) ?? "").split(",").map(Number);
}

test("the default scenario shows no job lane, rack marks or spare chart", async ({ page }) => {
  await page.goto("/#v=cluster");
  const canvas = page.getByTestId("timeline-canvas");
  await expect(canvas).toHaveAttribute("data-rack-marks-ft-hsdp", "0");
  await expect(canvas).not.toHaveAttribute("data-job-lane-ft-hsdp", /./);
  await expect(canvas).not.toHaveAttribute("data-spare-chart", /./);
  await expect(canvas).not.toHaveAttribute("aria-label", /job lane|rack failures|spare hosts/);
  for (const id of ["legend-job-lane", "legend-rack", "legend-spares"])
    await expect(page.getByTestId(id)).toHaveCount(0);
});

test("job-wide failures get an FT-HSDP job lane; hovering a job restart names it and its seconds", async ({
  page,
}) => {
  const trace = traceOf("headline-job-failures");
  const count = (s: number) => trace.ftJob.state.filter((x) => x === s).length;
  await openPreset(page, /10 % job-wide software failures/);
  const canvas = page.getByTestId("timeline-canvas");
  await expect(canvas).toHaveAttribute(
    "aria-label",
    new RegExp(
      `FT-HSDP job lane \\(${count(FtJobState.jobRestart)} job restarts, ${count(FtJobState.checkpointing)} FT checkpoint writes, ${count(FtJobState.rolledBack)} rollbacks\\)`,
    ),
  );
  await expect(page.getByTestId("legend-job-lane")).toContainText("job restart");

  // Zoom onto the first job restart: it fills the middle of the window.
  const first = trace.ftJob.state.indexOf(FtJobState.jobRestart);
  const a = trace.ftJob.start[first] as number;
  const b = trace.ftJob.end[first] as number;
  await zoomTo(page, a - 120, b + 120);
  const [jobY, jobH] = await numbers(page, "data-job-lane-ft-hsdp");
  const tip = await hoverMiddle(page, (jobY as number) + (jobH as number) / 2);
  await expect(tip).toContainText("FT-HSDP job — job restart");
  await expect(tip).toContainText(`${Math.round(b - a)} s)`);
});

test("a striped rack failure is marked across the replicas it struck; packed racks strike one", async ({
  page,
}) => {
  const trace = traceOf("racks-striped");
  const f = trace.failures;
  const events = [...f.scope.keys()].filter(
    (i) => f.scope[i] === ScopeCode.rack && (f.replicaCount[i] as number) > 1,
  );
  expect(events.length).toBeGreaterThan(0);
  await openPreset(page, /striped placement/);
  const canvas = page.getByTestId("timeline-canvas");
  await expect(canvas).toHaveAttribute("data-rack-marks-ft-hsdp", String(events.length));
  await expect(canvas).toHaveAttribute("aria-label", new RegExp(`${events.length} rack failures marked`));
  await expect(page.getByTestId("legend-rack")).toBeVisible();

  // Hover the first event on a struck lane that is not its first replica's: it names the rack
  // and every replica the one event struck.
  const i = events[0] as number;
  const t = f.time[i] as number;
  const struck = struckReplicaRanges(f.replica[i] as number, f.replicaCount[i] as number, 12).flatMap(
    ([x, y]) => Array.from({ length: y - x + 1 }, (_, j) => x + j),
  );
  const other = struck.find((r) => r !== f.replica[i]) as number;
  await zoomTo(page, t - 600, t + 600);
  const [ftY, laneH] = await numbers(page, "data-replica-lanes-ft-hsdp");
  const tip = await hoverMiddle(page, (ftY as number) + (other + 0.5) * (laneH as number));
  await expect(tip).toContainText(`Rack ${Math.floor((f.host[i] as number) / 8)} (hosts`);
  await expect(tip).toContainText(`one event struck ${struck.length} replicas`);

  // Packed: the same racks each lie inside one replica, so nothing is marked across lanes.
  await openPreset(page, /packed placement/);
  await expect(canvas).toHaveAttribute("data-rack-marks-ft-hsdp", "0");
  await expect(page.getByTestId("legend-rack")).toHaveCount(0);
});

test("a limited spare pool gets a chart of each policy's spares; hovering reads both pools", async ({
  page,
}) => {
  const trace = traceOf("spares-dry");
  const { synchronous: s, ftHsdp: ft } = trace.spares;
  // The longest span in which neither pool changes and some request waits: hover its middle.
  const times = [...new Set([...s.t, ...ft.t])].sort((x, y) => x - y);
  const at = (h: typeof s, x: number) => {
    let k = 0;
    while (k + 1 < h.t.length && (h.t[k + 1] as number) <= x) k++;
    return [h.available[k] as number, h.waiting[k] as number] as const;
  };
  let best = [0, 0];
  for (let k = 0; k + 1 < times.length; k++) {
    const [x, y] = [times[k] as number, times[k + 1] as number];
    if (y - x > (best[1] as number) - (best[0] as number) && at(ft, x)[1] + at(s, x)[1] > 0) best = [x, y];
  }
  const [a, b] = best as [number, number];
  await openPreset(page, /spare pool that runs dry/);
  const canvas = page.getByTestId("timeline-canvas");
  await expect(canvas).toHaveAttribute("aria-label", /chart of each policy's spare hosts/);
  await expect(page.getByTestId("legend-spares")).toBeVisible();
  await zoomTo(page, a + (b - a) * 0.2, b - (b - a) * 0.2);
  const [spareY, spareH] = await numbers(page, "data-spare-chart");
  const [sa, sw] = at(s, (a + b) / 2);
  const [fa, fw] = at(ft, (a + b) / 2);
  // One hover, never repeated: a frame that finishes after it says again what lies under the
  // resting pointer, so the tooltip stays.
  const tip = await hoverMiddle(page, (spareY as number) + (spareH as number) / 2);
  const readsBothPools = async () => {
    await expect(tip).toContainText("Spare hosts at");
    await expect(tip).toContainText(
      new RegExp(`Synchronous: ${sa} spare hosts? available, ${sw} requests? waiting`),
    );
    await expect(tip).toContainText(
      new RegExp(`FT-HSDP: ${fa} spare hosts? available, ${fw} requests? waiting`),
    );
  };
  await readsBothPools();
  // Zoom in with the keyboard (about the plot's middle, where the pointer rests): a new frame,
  // the same instant under the pointer, the same tooltip, and the mouse never moved.
  const shown = await page.getByTestId("timeline-window").textContent();
  await page.getByTestId("timeline-canvas").focus();
  await page.keyboard.press("+");
  await expect(page.getByTestId("timeline-window")).not.toHaveText(shown ?? "");
  await readsBothPools();
});

/** Contrast ratio of each CSS colour variable against `base`, in the page's current theme. */
async function contrasts(page: Page, names: string[], base = "--panel"): Promise<[string, number][]> {
  const hexes = await page.evaluate(
    (ns) => ns.map((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim()),
    [...names, base],
  );
  const lum = (short: string) => {
    // "#fff" → "#ffffff": computed values keep the form the style sheet wrote.
    const hex = short.length === 4 ? `#${[...short.slice(1)].map((d) => d + d).join("")}` : short;
    const c = [1, 3, 5].map((k) => Number.parseInt(hex.slice(k, k + 2), 16) / 255);
    const [r, g, b] = c.map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)) as [
      number,
      number,
      number,
    ];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const panel = lum(hexes.at(-1) ?? "#ffffff");
  return names.map((n, i) => {
    const l = lum(hexes[i] ?? "#000000");
    return [n, (Math.max(l, panel) + 0.05) / (Math.min(l, panel) + 0.05)];
  });
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
]) {
  test(`the v2 parts fit ${viewport.width} px in both themes (screenshots in shots/)`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    mkdirSync(SHOTS, { recursive: true });
    for (const [preset, name] of [
      [/10 % job-wide software failures/, "job-lane"],
      [/striped placement/, "racks-striped"],
      [/spare pool that runs dry/, "spares-dry"],
    ] as const) {
      await openPreset(page, preset);
      const canvas = page.getByTestId("timeline-canvas");
      const toggle = page.locator("button.theme-toggle");
      for (const theme of ["light", "dark"]) {
        if ((await page.locator("html").getAttribute("data-theme")) !== theme) await toggle.click();
        await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        expect(scrollWidth, "the page scrolls sideways").toBeLessThanOrEqual(innerWidth);
        // The parts' colours stand out from the panel they are drawn on (WCAG 1.4.11: 3:1). The light
        // theme's waiting-for-spare orange (2.97:1 on white) is drawn on the lanes' green, not the panel.
        const vars = ["--sync", "--ft", "--text", ...(theme === "dark" ? ["--st-waitspare"] : [])];
        for (const [name, ratio] of await contrasts(page, vars))
          expect(ratio, `${theme}: ${name} against --panel`).toBeGreaterThanOrEqual(3);
        // Waiting for a spare is drawn over the lanes' training green: it must not blend into it
        // (the light orange on the dark theme's green was 1.33:1).
        const [[, onGreen]] = (await contrasts(page, ["--st-waitspare"], "--st-training")) as [
          [string, number],
        ];
        expect(onGreen, `${theme}: --st-waitspare against --st-training`).toBeGreaterThanOrEqual(1.5);
        await canvas.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/lanes-${name}-${theme}-${viewport.width}.png` });
      }
    }
  });
}
