/**
 * DiLoCo in the Cluster view: picked in the strategy picker, it gets a rounds
 * lane (inner steps, outer syncs, discarded rounds) and its replicas' idle waits and discarded
 * work over their lanes, entries in the legend, an outer-sync segment in "Where the time goes",
 * and its link opens fresh to the same numbers; a sweep of its round length shows the trade. What the page should show is computed here by the
 * engine, on the scenario the page's own link carries.
 */
// The test realm validates scenarios against the plug-in list, as the page and the CLI do.
import "../src/testing/registerPlugins.ts";
import { expect, type Page, test } from "@playwright/test";
import { decodeScenarioParam, encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { runScenario } from "../src/sim/engine.ts";
import { monteCarlo } from "../src/sim/monteCarlo/monteCarlo.ts";
import type { PolicyKey } from "../src/sim/policies/policyKeys.ts";
import { presetById } from "../src/sim/presets.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";
import { buildSweep } from "../src/sim/sweep/index.ts";
import type { ReplicaRecording } from "../src/sim/types.ts";
import { pct } from "../src/ui/format.ts";
import { roundCounts } from "../src/ui/timeline/roundsTrack.ts";

const GUTTER = 128;
/** Set SHOTS=<dir> to keep screenshots of the timeline at 1280 and 390 px. */
const SHOTS = process.env.SHOTS;

async function shot(page: Page, name: string, target = "timeline-canvas"): Promise<void> {
  if (!SHOTS) return;
  const size = page.viewportSize();
  for (const [w, h] of [
    [1280, 720],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.getByTestId(target).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/${name}-${w}.png` });
  }
  if (size) await page.setViewportSize(size);
}

function pageScenario(page: Page) {
  const s = new URL(page.url()).hash.match(/[#&]s=([^&]*)/)?.[1];
  if (!s) throw new Error("the page's link has no scenario");
  return decodeScenarioParam(decodeURIComponent(s));
}

test("DiLoCo picked: its rounds lane, its replicas' idle waits, its outer-sync badput, and its link", async ({
  page,
  browser,
}) => {
  await page.goto("/#v=cluster");
  await expect(page.getByTestId("ettr-ftHsdp")).not.toHaveText("…");
  await page.getByTestId("strategy-diloco").check();
  await expect(page.getByTestId("ettr-diloco")).toHaveText(/%$/, { timeout: 30_000 });
  await expect(page).toHaveURL(/[#&]s=/);

  const scenario = pageScenario(page);
  expect(scenario.policies).toContain("diloco");
  const run = runScenario(scenario, { record: true });
  const rec = run.trace?.recordings.diloco as ReplicaRecording;
  const rounds = rec.rounds;
  if (!rounds) throw new Error("the engine recorded no rounds");
  const c = roundCounts(rounds);
  expect(c.committed).toBeGreaterThan(0);

  const canvas = page.getByTestId("timeline-canvas");
  await expect(canvas).toHaveAttribute(
    "aria-label",
    new RegExp(`DiLoCo rounds lane \\(${c.committed} rounds committed, ${c.discarded} discarded\\)`),
    { timeout: 30_000 },
  );
  await expect(page.getByTestId("legend-rounds")).toHaveText(
    "DiLoCo rounds lane: inner steps · outer sync · round discarded",
  );
  if (rounds.idle.replica.length > 0) await expect(page.getByTestId("legend-round-work")).toBeVisible();
  await shot(page, "diloco-timeline");

  // Zoomed onto the first committed round, the lane's middle is that round: the tooltip names it.
  const k = Array.from(rounds.outcome).indexOf(1);
  const a = rounds.start[k] as number;
  const b = rounds.end[k] as number;
  await page.goto(`/${new URL(page.url()).hash}&w=${a.toFixed(1)},${b.toFixed(1)}`);
  await expect(page.getByTestId("timeline-window")).toHaveText(/^Showing /);
  await expect(canvas).toHaveAttribute("data-rounds-lane-diloco", /^[\d.]+,[\d.]+$/, { timeout: 30_000 });
  const [y, h] = ((await canvas.getAttribute("data-rounds-lane-diloco")) ?? "").split(",").map(Number);
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error("no canvas");
  // Early in the window: inside the round's inner steps (its sync is its last part).
  const plotWidth = box.width - GUTTER - 8;
  await page.mouse.move(box.x + GUTTER + plotWidth * 0.25, box.y + (y as number) + (h as number) / 2);
  const tip = page.getByTestId("timeline-tooltip");
  await expect(tip).toContainText(`DiLoCo — round ${k + 1}`);
  await expect(tip).toContainText(`committed, ${rounds.participants[k]} participants`);
  await shot(page, "diloco-round");

  // Where the time goes: DiLoCo's outer sync, the seed run's share.
  const seg = page.getByTestId("badput-seg-diloco-outerSync");
  const seedRun = runScenario(scenario);
  const share = seedRun.diloco?.badput.outerSync ?? 0;
  expect(share).toBeGreaterThan(0);
  await expect(seg).toHaveAttribute("data-share", String(share));

  // The link, opened fresh: the same ETTR for DiLoCo.
  const shown = await page.getByTestId("ettr-diloco").textContent();
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(page.url());
  await expect(other.getByTestId("ettr-diloco")).toHaveText(shown ?? "", { timeout: 30_000 });
  await fresh.close();
});

test("the Story's last chapter opens the DiLoCo presets; across four sites DiLoCo keeps far more than FT-HSDP", async ({
  page,
}) => {
  /** The cards show the engine's seed run of the preset, once that run is in. */
  async function cards(id: string, keys: readonly PolicyKey[]): Promise<number[]> {
    const s = parseScenario(presetById(id)?.scenario);
    const run = runScenario(s);
    for (const key of keys)
      await expect(page.getByTestId(`ettr-${key}`)).toHaveText(pct(run[key]?.ettr ?? Number.NaN), {
        timeout: 30_000,
      });
    return keys.map((key) => run[key]?.ettr ?? Number.NaN);
  }
  await page.goto("/#v=story&ch=your-cluster");
  await expect(page.getByTestId("story-diloco")).toContainText("DiLoCo lets each replica take H steps alone");
  await page.getByTestId("open-diloco-four-sites").click();
  await expect(page).toHaveURL(/v=cluster/);
  const source = page.getByTestId("preset-source");
  await expect(source).toContainText("Across four datacenters: DiLoCo against FT-HSDP.");
  await expect(source).toContainText("16.85 s");
  const [ft, diloco] = await cards("diloco-four-sites", ["ftHsdp", "diloco"]);
  expect(diloco).toBeGreaterThan((ft ?? 1) + 0.3);
  await shot(page, "diloco-four-sites");

  await page.goto("/#v=story&ch=your-cluster");
  await page.getByTestId("open-diloco-failures-minutes").click();
  await expect(page.getByTestId("preset-source")).toContainText(
    "Failures every few minutes: DiLoCo's regime.",
  );
  const [sync, ft2, diloco2] = await cards("diloco-failures-minutes", ["synchronous", "ftHsdp", "diloco"]);
  expect(sync).toBeLessThan(ft2 ?? 0);
  expect(ft2).toBeLessThan(diloco2 ?? 0);
});

test("a sweep of Sync every (H) on 'Failures every few minutes' shows DiLoCo's trade, and its link reruns it", async ({
  page,
  browser,
}) => {
  const preset = presetById("diloco-failures-minutes");
  if (!preset) throw new Error("no DiLoCo failures preset");
  const base = parseScenario(preset.scenario);
  await page.goto(`/${encodeScenarioHash(base)}&v=cluster`);
  const picker = page.getByLabel("Sweep axis");
  await expect(picker.locator("option[value='diloco.syncEvery']")).toHaveText("Sync every (H) (steps)");
  await picker.selectOption("diloco.syncEvery");
  await page.getByRole("spinbutton", { name: "Points", exact: true }).fill("5");
  await page.getByRole("spinbutton", { name: "Seeds per point" }).fill("10");
  await page.getByRole("button", { name: "Run sweep" }).click();
  const status = page.getByTestId("sweep-status");
  await expect(status).toHaveText(/^Done: 5 points × 10 seeds/, { timeout: 90_000 });

  // Each point is the engine's Monte Carlo of that point's scenario over the same 10 seeds.
  const points = buildSweep(base, "diloco.syncEvery", 5);
  const means = points.map((p) => monteCarlo(p.scenario, 10).diloco?.ettr.mean ?? Number.NaN);
  const label = (p: Page, i: number) => p.getByTestId(`sweep-point-${i}-diloco`);
  for (const i of points.keys())
    await expect(label(page, i)).toHaveAttribute(
      "aria-label",
      new RegExp(
        `^DiLoCo at Sync every \\(H\\)( \\(steps\\))? [\\d,.]+: ETTR ${pct(means[i] ?? Number.NaN).replace(".", "\\.")} `,
      ),
    );
  // The trade: syncing every step pays the sync on every step, syncing rarely loses whole rounds
  // to the failures; the best cadence lies between the ends (15 % at H = 1, 55 % at 32, 1 % at 1,000).
  const best = means.indexOf(Math.max(...means));
  expect(points[0]?.x).toBe(1);
  expect(points.at(-1)?.x).toBe(1000);
  expect(best).toBeGreaterThan(0);
  expect(best).toBeLessThan(points.length - 1);
  expect(means[best] as number).toBeGreaterThan((means[0] as number) + 0.2);
  expect(means[best] as number).toBeGreaterThan((means.at(-1) as number) + 0.2);
  // The sentences under the chart: DiLoCo's best inside the range, the synchronous strategies
  // untouched by a knob of DiLoCo's.
  await expect(page.getByTestId("sweep-peak-diloco")).toHaveText(
    new RegExp(
      `^DiLoCo is best at ${points[best]?.x} steps: ${pct(means[best] ?? 0)
        .replace(".", "\\.")
        .replace("%", " %")}, above both ends`,
    ),
  );
  // The low end is one step: the unit is singular there ("at 1 step", not "at 1 steps").
  expect(points[0]?.x).toBe(1);
  await expect(page.getByTestId("sweep-peak-diloco")).toContainText(" points at 1 step, by ");
  for (const key of ["synchronous", "ftHsdp"])
    await expect(page.getByTestId(`sweep-peak-${key}`)).toContainText("does not move along this axis");
  await shot(page, "diloco-sweep", "sweep-chart");

  // The sweep is part of the link: opened fresh, it runs again to the same points.
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(page.url());
  await expect(other.getByTestId("sweep-status")).toHaveText(/^Done: 5 points × 10 seeds/, {
    timeout: 90_000,
  });
  for (const i of points.keys())
    await expect(label(other, i)).toHaveAttribute(
      "aria-label",
      (await label(page, i).getAttribute("aria-label")) ?? "",
    );
  await fresh.close();
});
