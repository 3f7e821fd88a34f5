/**
 * The tornado as a person uses it: run it, read the bars (sorted, labelled with the knob's values
 * and the sentence), open a knob's sweep by clicking its row, cancel a long one, and send the
 * link: a fresh browser shows the same bars.
 */
// The test realm validates scenarios against the plug-in list, as the page and the CLI do.
import "../src/testing/registerPlugins.ts";
import { expect, type Page, test } from "@playwright/test";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";
import { sweepAxisBounds } from "../src/sim/sweep/index.ts";
import { planTornado } from "../src/sim/sweep/tornado.ts";

// A small cluster that fails often: a tornado of it takes a few seconds.
const small = parseScenario({
  name: "Tornado test cluster",
  cluster: { gpus: 512, gpusPerHost: 8, replicas: 8 },
  failures: { perHostDay: 0.05, hangFraction: 0.2 },
  training: { days: 5 },
});

async function runTornado(page: Page, seeds: string) {
  await page.getByTestId("tornado-seeds").fill(seeds);
  await page.getByTestId("tornado-run").click();
  await expect(page.getByTestId("tornado-status")).toHaveText(/^Done: \d+ scenarios/, { timeout: 60_000 });
}

async function rowsOf(page: Page) {
  return page.locator("[data-testid^=tornado-row-]").evaluateAll((els) =>
    els.map((e) => ({
      axis: e.getAttribute("data-axis"),
      size: Number(e.getAttribute("data-size")),
      label: e.getAttribute("aria-label"),
    })),
  );
}

test("the tornado runs, sorts its rows, labels the knob's values, and opens a sweep on click", async ({
  page,
}) => {
  await page.goto(`/${encodeScenarioHash(small)}&v=cluster`);
  await runTornado(page, "40");
  await expect(page.getByTestId("tornado-progress")).toHaveJSProperty("value", 1);
  const rows = await rowsOf(page);
  const plan = planTornado(small, 0.5);
  // A row for every knob that changed a run, none twice, largest first; the others are named below
  // the chart with how many and why (an unlimited pool: the pool's size changes nothing).
  const inert = page.getByTestId("tornado-inert");
  await expect(inert).toContainText(/^\d+ knobs are left out: moving each changed no run's ETTR/);
  await expect(inert).toContainText("Spares: Spare hosts");
  const left = Number((await inert.textContent())?.match(/^(\d+)/)?.[1]);
  expect(rows.length + left).toBe(plan.rows.length);
  expect(rows.map((r) => r.axis)).not.toContain("spares.hosts");
  expect(new Set(rows.map((r) => r.axis)).size).toBe(rows.length);
  // The axis has numbers: signed points either side of 0.
  const ticks = await page.getByTestId("tornado-axis").locator("text").allTextContents();
  expect(ticks).toContain("0");
  expect(ticks.some((t) => /^\+\d/.test(t)) && ticks.some((t) => /^−\d/.test(t))).toBe(true);
  const sizes = rows.map((r) => r.size);
  expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  expect(sizes[0]).toBeGreaterThan(0);
  // The top row is labelled with the knob, its value now and its two moved values, as the plan moves them.
  const top = plan.rows.find((r) => r.axis === rows[0]?.axis);
  if (!top) throw new Error("top row not in the plan");
  const row0 = page.getByTestId("tornado-row-0");
  await expect(row0.locator(".tornado-label")).toHaveText(
    new RegExp(`^${top.label.slice(0, 10).replace(/[()]/g, ".")}`),
  );
  await expect(row0.locator(".tornado-base")).toHaveText(top.baseText);
  const ends = (await row0.locator(".tornado-end").allTextContents()).join(" · ");
  for (const e of top.ends) expect(ends).toContain(e.text);
  // One bar per policy and one for FT-HSDP's lead, in the row's description with each end's change.
  expect(rows[0]?.label).toMatch(/Synchronous: .*FT-HSDP: .*FT-HSDP − Synchronous: /);
  // The sentence ranks knobs as the bars do: the first it names is the top row's.
  await expect(page.getByTestId("tornado-sentence")).toHaveText(
    new RegExp(
      `^ETTR depends most on ${top.label.replace(/[()]/g, ".")}: moved from .+ to .+, (Synchronous|FT-HSDP)'s ETTR changes by [+−]\\d+\\.\\d points`,
    ),
  );

  // Clicking the top row opens the sweep of that knob over the row's values, and runs it.
  await row0.click();
  await expect(page.getByLabel("Sweep axis")).toHaveValue(top.axis);
  await expect(page.getByTestId("sweep-status")).toHaveText(/Running|Done/);
  await expect(page.getByTestId("sweep-status")).toHaveText(/^Done: /, { timeout: 60_000 });
  await expect(page.getByTestId("sweep-chart")).toBeVisible();
  if (!top.categorical) {
    // Over the row's values, within what the sweep can reach (a base of 0 where it sweeps from 5).
    const xs = [top.baseX, ...top.ends.map((e) => e.x)];
    const b = sweepAxisBounds(small, top.axis);
    const from = Math.max(Math.min(...xs), b?.lo ?? 0);
    const to = Math.min(Math.max(...xs), b?.hi ?? Number.POSITIVE_INFINITY);
    await expect(page.getByTestId("sweep-from")).toHaveValue(String(Number(from.toPrecision(6))));
    await expect(page.getByTestId("sweep-to")).toHaveValue(String(Number(to.toPrecision(6))));
  }
  await expect(page).toHaveURL(/sw=/);
});

test("its link reproduces the same bars in a fresh browser", async ({ page, browser }) => {
  await page.goto(`/${encodeScenarioHash(small)}&v=cluster`);
  await page.getByTestId("tornado-amount").fill("30");
  await runTornado(page, "40");
  await expect(page).toHaveURL(/tn=30,1,40,run~[0-9a-f]{8}/);
  const rows = await rowsOf(page);
  const sentence = await page.getByTestId("tornado-sentence").textContent();
  const link = page.url();

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(other.getByTestId("tornado-status")).toHaveText(/^Done: /, { timeout: 60_000 });
  await expect(other.getByTestId("tornado-amount")).toHaveValue("30");
  expect(await rowsOf(other)).toEqual(rows);
  await expect(other.getByTestId("tornado-sentence")).toHaveText(sentence ?? "");
  await fresh.close();
});

test("a long tornado shows progress and can be cancelled", async ({ page }) => {
  await page.goto("/#v=cluster");
  await page.getByTestId("tornado-precision").fill("0.1");
  await page.getByTestId("tornado-seeds").fill("5000");
  await page.getByTestId("tornado-run").click();
  await expect(page.getByTestId("tornado-status")).toHaveText(/^Running… \d+ scenarios/);
  await expect
    .poll(() => page.getByTestId("tornado-progress").evaluate((p) => (p as HTMLProgressElement).value))
    .toBeGreaterThan(0);
  await page.getByTestId("tornado-cancel").click();
  await expect(page.getByTestId("tornado-status")).toHaveText("Cancelled");
  await expect(page.getByTestId("tornado-run")).toBeEnabled();
  await expect(page).not.toHaveURL(/tn=[^&]*run/);
});
