/**
 * Slow hosts on the Cluster view's timeline (docs/model.md §6): the Greyhound preset shows the slow
 * track (its episode count is the engine's, run here on the same scenario and seed), the Legend
 * explains it, and hovering the track — or the slow host's replica lane — names the slow episode
 * under the pointer.
 */
import { expect, type Page, test } from "@playwright/test";
import { runScenario } from "../src/sim/engine.ts";
import { Layout as HostLayout } from "../src/sim/failures/failureTrace.ts";
import { presetById } from "../src/sim/presets.ts";
import { derived, parseScenario } from "../src/sim/scenario/index.ts";
import type { SlowEpisodes } from "../src/sim/slow/slowTypes.ts";

const GUTTER = 128;

function greyhound() {
  const preset = presetById("slow-greyhound");
  if (!preset) throw new Error("no Greyhound preset");
  const s = parseScenario(preset.scenario);
  const trace = runScenario(s, { record: true }).trace;
  if (!trace?.slow) throw new Error("the preset's run has no slow episodes");
  return { s, ep: trace.slow as SlowEpisodes, H: derived(s).horizonSeconds };
}

/** The numbers of a data attribute, once the canvas has it (the renderer is built in steps). */
async function numbers(page: Page, attr: string): Promise<number[]> {
  const canvas = page.getByTestId("timeline-canvas");
  await expect(canvas).toHaveAttribute(attr, /^[\d.]+(,[\d.]+)+$/);
  return ((await canvas.getAttribute(attr)) ?? "").split(",").map(Number);
}

/** Hover the plot's middle column at canvas height y (scrolled to mid-screen); returns the tooltip. */
async function hoverMiddle(page: Page, y: number) {
  const canvas = page.getByTestId("timeline-canvas");
  await canvas.scrollIntoViewIfNeeded();
  let box = await canvas.boundingBox();
  if (!box) throw new Error("no canvas");
  await page.evaluate((dy) => window.scrollBy(0, dy), box.y + y - (page.viewportSize()?.height ?? 720) / 2);
  box = await canvas.boundingBox();
  if (!box) throw new Error("no canvas");
  await page.mouse.move(box.x + GUTTER + (box.width - GUTTER - 8) / 2, box.y + y);
  return page.getByTestId("timeline-tooltip");
}

test("the Greyhound preset shows the slow track; hovering it names a slow episode", async ({ page }) => {
  const { s, ep, H } = greyhound();
  await page.goto("/#v=cluster");
  await page.getByRole("button", { name: /Slow hosts as Greyhound reports them/ }).click();
  await expect(page.getByTestId("preset-source")).toBeVisible();
  const canvas = page.getByTestId("timeline-canvas");
  await expect(canvas).toHaveAttribute("data-slow-episodes", String(ep.count));
  await expect(canvas).toHaveAttribute(
    "aria-label",
    new RegExp(`${ep.count.toLocaleString("en-US")} slow episodes`),
  );
  await expect(page.getByTestId("legend-slow")).toBeVisible();
  await expect(page.getByTestId("legend-slow-shade")).toBeVisible();
  // The preset evicts no one.
  await expect(page.getByTestId("legend-eviction")).toHaveCount(0);

  // Zoom onto one episode that overlaps no other: it fills the middle of the window.
  const alone = (e: number) =>
    (e === 0 || (ep.end[e - 1] as number) < (ep.start[e] as number)) &&
    (e + 1 >= ep.count || (ep.start[e + 1] as number) > (ep.end[e] as number));
  let e = 1;
  while (e < ep.count && !(alone(e) && (ep.end[e] as number) < H)) e++;
  expect(e).toBeLessThan(ep.count);
  const a = ep.start[e] as number;
  const b = ep.end[e] as number;
  const mid = (a + b) / 2;
  const url = new URL(page.url());
  await page.goto(`/${url.hash}&w=${(mid - (b - a)).toFixed(1)},${(mid + (b - a)).toFixed(1)}`);
  await expect(page.getByTestId("timeline-window")).toHaveText(/^Showing /);

  const host = ep.host[e] as number;
  const replica = new HostLayout(s).replicaOf(host);
  const where = `host ${host.toLocaleString("en-US")} (replica ${replica})`;
  const [y, h] = await numbers(page, "data-slow-track");
  const tip = await hoverMiddle(page, (y as number) + (h as number) / 2);
  await expect(tip).toContainText("Slow episode at");
  await expect(tip).toContainText(`${where}: 1.5× slower`);

  // The slow host's replica lane is shaded there, and says so on hover.
  const [ftY, laneH] = await numbers(page, "data-replica-lanes-ft-hsdp");
  const lane = await hoverMiddle(page, (ftY as number) + (replica + 0.5) * (laneH as number));
  await expect(lane).toContainText(`Slow ${where}`);
});
