// The test realm validates scenarios against the plug-in list, as the page and the CLI do.
import "../src/testing/registerPlugins.ts";
import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";
import { addressSettled } from "./pageSignals.ts";

/** Timeline geometry (timelineRenderer.ts): plot starts after the label gutter; sync lane at y 24–50. */
const GUTTER = 128;
const SYNC_LANE_Y = 37;

async function loadPreset(page: Page, title: RegExp) {
  await page.getByRole("button", { name: title }).click();
  await expect(page.getByTestId("preset-source")).toBeVisible();
}

async function openTeaching(page: Page) {
  await page.goto("/#v=cluster");
  await loadPreset(page, /Teaching cluster/);
  await expect(page.getByTestId("timeline-canvas")).toHaveAttribute("aria-label", /4 FT-HSDP replicas/);
  await expect(page.getByTestId("failure-log")).toBeVisible();
}

const canvasPixels = (page: Page) =>
  page.getByTestId("timeline-canvas").evaluate((c) => (c as HTMLCanvasElement).toDataURL());

test("knobs change the timeline and the metrics", async ({ page }) => {
  await openTeaching(page);
  const metrics = page.getByTestId("metrics-table");
  const before = await metrics.textContent();
  const pixels = await canvasPixels(page);
  await page.getByTestId("cluster.replicas").fill("2");
  await expect(page.getByTestId("timeline-canvas")).toHaveAttribute("aria-label", /2 FT-HSDP replicas/);
  await expect(metrics).not.toHaveText(before ?? "");
  await expect.poll(() => canvasPixels(page)).not.toBe(pixels);
  // The headline result moved too: fewer, larger replicas lose more per failure.
  await expect(page.getByTestId("ettr-difference")).toBeVisible();
});

test("the wheel zooms the timeline, and hovering a failure explains it", async ({ page }) => {
  await openTeaching(page);
  const canvas = page.getByTestId("timeline-canvas");
  const windowText = page.getByTestId("timeline-window");
  await expect(windowText).toHaveText(/^Showing the whole run/);
  await canvas.scrollIntoViewIfNeeded();
  let box = await canvas.boundingBox();
  if (!box) throw new Error("no timeline canvas");
  await page.mouse.move(box.x + box.width / 2, box.y + 100);
  await page.mouse.wheel(0, -600);
  await expect(windowText).toHaveText(/^Showing .* from day 0/);

  // Jump to the first failure from the log: it lands a quarter of the way into the window.
  await page.getByTestId("failure-log").getByRole("button").first().click();
  await canvas.scrollIntoViewIfNeeded();
  box = await canvas.boundingBox();
  if (!box) throw new Error("no timeline canvas");
  const plotWidth = box.width - GUTTER - 8;
  await page.mouse.move(box.x + GUTTER + plotWidth / 4, box.y + SYNC_LANE_Y);
  const tip = page.getByTestId("timeline-tooltip");
  await expect(tip).toContainText("Synchronous job");
  await expect(tip).toContainText("Failure #1");
  await expect(tip).toContainText(/fail-stop|hang/);

  // Keyboard zoom works when the canvas has focus.
  await canvas.focus();
  const zoomed = await windowText.textContent();
  await page.keyboard.press("-");
  await expect(windowText).not.toHaveText(zoomed ?? "");
  await page.keyboard.press("0");
  await expect(windowText).toHaveText(/^Showing the whole run/);
});

test("a sweep runs with progress, loads a point on click, and can be cancelled", async ({ page }) => {
  await openTeaching(page);
  await page.getByLabel("Sweep axis").selectOption("gpus");
  await page.getByLabel("Points", { exact: true }).fill("5");
  await page.getByLabel("Seeds per point").fill("40");
  await page.getByRole("button", { name: "Run sweep" }).click();
  await expect(page.getByTestId("sweep-status")).toHaveText(/Done: 5 points × 40 seeds/);
  await expect(page.getByTestId("sweep-progress")).toHaveJSProperty("value", 1);
  const point = page.getByTestId("sweep-point-4-ftHsdp");
  await expect(point).toHaveAttribute("aria-label", /ETTR \d+\.\d%/);
  await point.click();
  // The largest cluster of the sweep is now the scenario: about 200K GPUs.
  await expect(page.getByTestId("cluster.gpus")).toHaveValue(/^(19|20)\d{4}$/);

  // A long sweep on the big cluster, cancelled part way.
  await loadPreset(page, /headline, Poisson/);
  await page.getByLabel("Points", { exact: true }).fill("20");
  await page.getByLabel("Seeds per point").fill("2000");
  await page.getByRole("button", { name: "Run sweep" }).click();
  await expect(page.getByTestId("sweep-status")).toHaveText(/Running… [1-9]\d*%/);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("sweep-status")).toHaveText("Cancelled");
  await expect(page.getByRole("button", { name: "Run sweep" })).toBeEnabled();
  const value = await page.getByTestId("sweep-progress").evaluate((p) => (p as HTMLProgressElement).value);
  expect(value).toBeLessThan(1);
});

test("a preset loads its scenario and cites its source", async ({ page }) => {
  await page.goto("/#v=cluster");
  await loadPreset(page, /^Llama 3 405B: 16,384 GPUs/);
  await expect(page.getByTestId("preset-source")).toContainText("arXiv 2407.21783");
  await expect(page.getByTestId("preset-source")).toContainText("R = 16 is our choice");
  await expect(page.getByTestId("cluster.gpus")).toHaveValue("16384");
  await expect(page.getByTestId("timeline-canvas")).toHaveAttribute("aria-label", /16 FT-HSDP replicas/);
});

test("a share link with a time window reproduces the view in a fresh context", async ({ page, browser }) => {
  await openTeaching(page);
  await page.getByTestId("timeline-canvas").focus();
  await page.keyboard.press("+");
  await page.keyboard.press("+");
  await page.keyboard.press("ArrowRight");
  // The keys may arrive while the timeline is still being built; they apply once it is ready,
  // so read the window only after it shows the zoomed span and the link carries it.
  await expect(page.getByTestId("timeline-window")).toHaveText(/^Showing .* from day /);
  // The address is written a moment after the last edit (debounced): wait until nothing is queued.
  await addressSettled(page);
  await expect(page).toHaveURL(/[#&]w=\d/);
  const windowText = await page.getByTestId("timeline-window").textContent();
  const url = page.url();
  const sync = await page.getByTestId("ettr-synchronous").textContent();
  const ft = await page.getByTestId("ettr-ftHsdp").textContent();

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(url);
  await expect(other.getByTestId("timeline-window")).toHaveText(windowText ?? "");
  await expect(other.getByTestId("ettr-synchronous")).toHaveText(sync ?? "");
  await expect(other.getByTestId("ettr-ftHsdp")).toHaveText(ft ?? "");
  await expect(other.getByTestId("preset-source")).toContainText("Illustrative");
  await fresh.close();
});

test("zoom keys pressed while a large run's timeline is still being built apply once it is ready", async ({
  page,
}) => {
  // A million failures in 8 days (the validator's bound): the timeline's indexes take several
  // tasks to build after the run arrives, and the keys come in meanwhile.
  const s = parseScenario({ failures: { perHostDay: 10 }, training: { days: 8 } });
  await page.goto(`/${encodeScenarioHash(s)}&v=cluster`);
  // The keys come as soon as the canvas is there, as a person's would (the run has just arrived).
  const canvas = page.getByTestId("timeline-canvas");
  await canvas.waitFor({ state: "attached", timeout: 60_000 });
  await canvas.press("+");
  await canvas.press("+");
  // Two zooms by 2 about the middle: the middle quarter of the 8 days.
  await expect.poll(() => page.url(), { timeout: 30_000 }).toMatch(/[#&]w=\d/);
  await expect(page.getByTestId("timeline-window")).toContainText("Showing 2.0 d from");
});

test("the exported Perfetto trace parses as Trace Event JSON", async ({ page }) => {
  await openTeaching(page);
  const failures = await page.getByTestId("failure-log").getByRole("button").count();
  await page.getByRole("button", { name: /Perfetto trace/ }).click();
  // The size is said before anything is written.
  await expect(page.getByTestId("perfetto-size")).toHaveText(/\d+ (kB|MB), [\d,]+ events\./);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: /^Save \d/ }).click();
  const file = await (await download).path();
  const json = JSON.parse(readFileSync(file, "utf8")) as {
    traceEvents: {
      name: string;
      ph: string;
      pid: number;
      tid: number;
      ts: number;
      dur?: number;
      args?: { name?: string };
    }[];
  };
  const events = json.traceEvents;
  for (const e of events) {
    expect(typeof e.name).toBe("string");
    expect(typeof e.ph).toBe("string");
    expect(Number.isInteger(e.pid) && Number.isInteger(e.tid) && Number.isInteger(e.ts)).toBe(true);
    if (e.ph === "X") expect(e.dur).toBeGreaterThan(0);
  }
  const processes = events.filter((e) => e.name === "process_name").map((e) => e.args?.name);
  expect(processes).toEqual(
    expect.arrayContaining(["Synchronous job", "FT-HSDP replica 0", "FT-HSDP replica 3"]),
  );
  expect(events.some((e) => e.name === "thread_name")).toBe(true);
  // Every failure (all are in the log when it is short) is an instant on the sync job and on its replica.
  expect(failures).toBeGreaterThan(0);
  expect(events.filter((e) => e.ph === "i")).toHaveLength(2 * failures);
});

test("charts export as PNG and the sweep as CSV", async ({ page }) => {
  await openTeaching(page);
  await page.getByLabel("Points", { exact: true }).fill("3");
  await page.getByLabel("Seeds per point").fill("10");
  await page.getByRole("button", { name: "Run sweep" }).click();
  await expect(page.getByTestId("sweep-status")).toHaveText(/Done/);
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (const name of ["Timeline PNG", "Chart PNG", "Sweep PNG"]) {
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name }).click();
    const bytes = readFileSync(await (await download).path());
    expect(bytes.subarray(0, 8).equals(PNG), name).toBe(true);
    expect(bytes.length, name).toBeGreaterThan(2000);
  }
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Sweep CSV" }).click();
  const lines = readFileSync(await (await download).path(), "utf8")
    .trimEnd()
    .split("\r\n");
  expect(lines).toHaveLength(4);
  expect(lines[0]).toContain("sync_ettr_mean");
});

test("the cluster view has no serious accessibility violations", async ({ page }) => {
  // Two full-page axe passes over the cluster view (failure-log recovery bars included) take
  // about a minute on a loaded 2-core machine: the default 60 s is not about the page.
  test.setTimeout(180_000);
  await openTeaching(page);
  await page.getByLabel("Points", { exact: true }).fill("3");
  await page.getByLabel("Seeds per point").fill("10");
  await page.getByRole("button", { name: "Run sweep" }).click();
  await expect(page.getByTestId("sweep-status")).toHaveText(/Done/);
  for (const theme of ["light", "dark"]) {
    if (theme === "dark") await page.getByRole("button", { name: "Dark theme" }).click();
    const result = await new AxeBuilder({ page }).analyze();
    const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(bad.map((v) => `${theme}: ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual(
      [],
    );
  }
});

test("the theme button says the theme a click switches to, not the one on", async ({ page }) => {
  await page.goto("/#v=cluster");
  const toggle = page.locator("button.theme-toggle");
  const html = page.locator("html");
  const now = await html.getAttribute("data-theme");
  await expect(toggle).toHaveText(now === "dark" ? "☀ Light theme" : "☾ Dark theme");
  await toggle.click();
  await expect(html).toHaveAttribute("data-theme", now === "dark" ? "light" : "dark");
  await expect(toggle).toHaveText(now === "dark" ? "☾ Dark theme" : "☀ Light theme");
});
