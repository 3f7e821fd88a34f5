/**
 * "Compare with…" stacks the pinned baseline's timeline under the one on screen, on one time axis:
 * the baseline's canvas draws the baseline's own run (its failures where the engine puts them),
 * shows the same window as the scenario on screen's, follows its zoom, and the page's link reopens
 * both.
 */
import "../src/testing/registerPlugins.ts";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { encodeScenarioHash, encodeScenarioParam } from "../src/link/scenarioLink.ts";
import { runScenario } from "../src/sim/engine.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";
import { formatClock } from "../src/ui/timeline/timeAxis.ts";
import { GUTTER } from "../src/ui/timeline/timelineLayout.ts";

const SMALL = { cluster: { gpus: 4096, replicas: 8 }, training: { days: 3 } };
// Another seed: other failures, so the baseline's canvas can be told apart from the one above it.
const BASE = parseScenario({ ...SMALL, seed: 11 });
const THIS = parseScenario({ ...SMALL, seed: 12 });
const PAD = 600;
/** Set SHOTS=<dir> to keep screenshots of the two timelines at 1280 and 390 px. */
const SHOTS = process.env.SHOTS;

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  const size = page.viewportSize();
  for (const [w, h] of [
    [1280, 720],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    const panel = page
      .locator("section, div")
      .filter({ has: page.getByTestId("timeline-baseline") })
      .last();
    await expect(page.getByTestId("timeline-canvas-baseline")).toHaveAttribute("data-window", /,/);
    await panel.screenshot({ path: `${SHOTS}/${name}-${w}.png` });
  }
  if (size) await page.setViewportSize(size);
}

/** The baseline's first failure that strikes one replica: its index, time and replica, from the engine. */
function firstReplicaFailure(): { i: number; t: number; replica: number } {
  const f = runScenario(BASE, { record: true }).trace!.failures;
  for (let i = 0; i < f.time.length; i++)
    if ((f.replica[i] as number) >= 0 && (f.time[i] as number) > PAD)
      return { i, t: f.time[i] as number, replica: f.replica[i] as number };
  throw new Error("the baseline has no replica failure");
}

/** Rests the pointer on the canvas at plot time t (window [a, b]) and lane `lane` of the FT-HSDP band. */
async function hoverAt(page: Page, canvas: Locator, t: number, [a, b]: [number, number], lane: number) {
  const [y0, laneH] = ((await canvas.getAttribute("data-replica-lanes-ft-hsdp")) ?? "")
    .split(",")
    .map(Number);
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box || y0 === undefined || laneH === undefined) throw new Error("no canvas");
  const plotWidth = box.width - GUTTER - 8;
  await page.mouse.move(box.x + GUTTER + ((t - a) / (b - a)) * plotWidth, box.y + y0 + (lane + 0.5) * laneH);
}

test("a pinned baseline's timeline under the one on screen: its own failures, the same window, zoomed together, reopened by the link", async ({
  page,
  browser,
}) => {
  const f = firstReplicaFailure();
  const w: [number, number] = [f.t - PAD, f.t + PAD];
  const link = `/${encodeScenarioHash(THIS)}&v=cluster&mcn=40&base=${encodeScenarioParam(BASE)}&w=${w[0].toFixed(1)},${w[1].toFixed(1)}`;
  await page.goto(link);
  const main = page.getByTestId("timeline-canvas");
  const baseline = page.getByTestId("timeline-canvas-baseline");
  const shown = `${w[0].toFixed(1)},${w[1].toFixed(1)}`;
  await expect(main).toHaveAttribute("data-window", shown);
  await expect(baseline).toHaveAttribute("data-window", shown);
  await expect(page.getByTestId("timeline-baseline-words")).toHaveText(
    "Baseline → this: seed 11 → 12. Both run 3 days on one time axis: zoom or pan on either moves both.",
  );
  await expect(baseline).toHaveAttribute("aria-label", /^The pinned baseline's timeline of /);

  // The baseline's canvas draws the baseline's run: its failure, where the engine put it.
  const failure = `Failure #${f.i + 1} at ${formatClock(f.t)}`;
  await hoverAt(page, baseline, f.t, w, f.replica);
  const baseTip = page.getByTestId("timeline-baseline").getByTestId("timeline-tooltip");
  await expect(baseTip).toContainText(failure);
  // The scenario on screen (another seed) has no such failure there.
  await hoverAt(page, main, f.t, w, f.replica);
  await expect(page.getByTestId("timeline-tooltip")).toHaveCount(1);
  await expect(page.getByTestId("timeline-tooltip")).not.toContainText(failure);

  // Zoom in from the toolbar above: both show the new, narrower window.
  await page.getByRole("button", { name: "Zoom in" }).click();
  await expect(main).not.toHaveAttribute("data-window", shown);
  const zoomed = (await main.getAttribute("data-window")) ?? "";
  const [za, zb] = zoomed.split(",").map(Number);
  expect(zb! - za!).toBeLessThan(w[1] - w[0]);
  await expect(baseline).toHaveAttribute("data-window", zoomed);
  await shot(page, "compare-timelines");

  // The page's link, opened fresh, shows both again, on the zoomed window.
  await expect(page).toHaveURL(/[#&]w=/);
  const again = await browser.newPage();
  await again.goto(page.url());
  await expect(again.getByTestId("timeline-canvas")).toHaveAttribute("data-window", zoomed);
  await expect(again.getByTestId("timeline-canvas-baseline")).toHaveAttribute("data-window", zoomed);
  await again.close();

  // Unpinned, the baseline's timeline goes.
  await page.getByTestId("baseline-unpin").click();
  await expect(page.getByTestId("timeline-baseline")).toHaveCount(0);
});

test("a baseline of another length is drawn on this scenario's axis, and the sentence says what is cut", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const longer = parseScenario({ ...SMALL, training: { days: 4 }, seed: 11 });
  await page.goto(`/${encodeScenarioHash(THIS)}&v=cluster&mcn=40&base=${encodeScenarioParam(longer)}`);
  const whole = `0.0,${(3 * 86_400).toFixed(1)}`;
  await expect(page.getByTestId("timeline-canvas")).toHaveAttribute("data-window", whole);
  await expect(page.getByTestId("timeline-canvas-baseline")).toHaveAttribute("data-window", whole);
  await expect(page.getByTestId("timeline-baseline-words")).toContainText(
    "The baseline runs 4 days, this scenario 3 days: drawn on this scenario's axis, the baseline's last 1 day is not shown",
  );
  await shot(page, "compare-timelines-longer");
  expect(errors).toEqual([]);
});
