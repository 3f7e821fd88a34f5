/**
 * A cause's share as a knob, as a person meets it: the sweep picker offers each cause's share of
 * a scenario with a cause mix, sweeping it draws a line per policy, its link draws the same curve
 * in a fresh browser, the tornado has a row for it that opens its sweep, and a link that names a
 * cause its scenario does not list is refused by name.
 */
// The test realm validates scenarios against the plug-in list, as the page and the CLI do.
import "../src/testing/registerPlugins.ts";
import { expect, type Page, test } from "@playwright/test";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { sweepParam } from "../src/link/sweepLink.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";
import { buildSweep } from "../src/sim/sweep/index.ts";
import { planTornado } from "../src/sim/sweep/tornado.ts";

// A small cluster that fails often, with a host cause and a job-wide bug: seconds to sweep.
const mix = parseScenario({
  name: "Cause mix test cluster",
  cluster: { gpus: 512, gpusPerHost: 8, replicas: 8 },
  failures: {
    perHostDay: 0.05,
    causes: [
      { name: "Host", share: 8, scope: "host" },
      { name: "Software bug", share: 2, scope: "job" },
    ],
  },
  sync: { checkpointMinutes: 30 },
  ft: { checkpointMinutes: 30 },
  training: { days: 5 },
});

/** Each sweep point's description (policy, value, ETTR and its band), in the order drawn. */
async function pointsOf(page: Page) {
  return page
    .locator("[data-testid^=sweep-point-]")
    .evaluateAll((els) => els.map((e) => `${e.getAttribute("data-testid")} ${e.getAttribute("aria-label")}`));
}

test("the sweep picker offers a cause's share; sweeping it draws a line per policy, and the link redraws it", async ({
  page,
  browser,
}) => {
  await page.goto(`/${encodeScenarioHash(mix)}&v=cluster`);
  const picker = page.getByLabel("Sweep axis");
  await expect(picker.locator("optgroup[label='Cause mix'] option[value='cause.1.share']")).toHaveText(
    "Cause share: Software bug",
  );
  await expect(picker.locator("option[value='cause.0.share']")).toHaveText("Cause share: Host");
  await expect(picker.locator("option[value='cause.0.scope']")).toHaveText("Cause scope: Host");
  await picker.selectOption("cause.1.share");
  await expect(page.getByTestId("sweep-axis-help")).toContainText("other causes keep their proportions");
  await page.getByRole("spinbutton", { name: "Points", exact: true }).fill("5");
  await page.getByRole("spinbutton", { name: "Seeds per point" }).fill("20");
  await page.getByRole("button", { name: "Run sweep" }).click();
  await expect(page.getByTestId("sweep-status")).toHaveText(/^Done: 5 points × 20 seeds/, {
    timeout: 60_000,
  });
  // A line per policy through every point, each point at one of the shares the engine sweeps.
  const xs = buildSweep(mix, "cause.1.share", 5).map((p) => p.x);
  expect(xs.length).toBe(5);
  for (const key of ["synchronous", "ftHsdp"]) {
    const d = await page.locator(`[data-testid=sweep-chart] path.mean[data-policy=${key}]`).getAttribute("d");
    expect(d?.match(/[ML]/g)?.length, key).toBe(5);
  }
  for (const i of xs.keys())
    for (const p of ["synchronous", "ftHsdp"])
      await expect(page.getByTestId(`sweep-point-${i}-${p}`)).toHaveAttribute(
        "aria-label",
        /at Cause share: Software bug 0\.\d+: ETTR \d/,
      );
  await expect(page.locator("[data-testid=sweep-chart] .axis-title").first()).toHaveText(
    "Cause share: Software bug",
  );
  // `zoom` when the curves lie in a narrow band: the chart zooms by default and the link keeps the view.
  await expect(page).toHaveURL(/sw=cause\.1\.share,5,20,(zoom,)?run~[0-9a-f]{8}/);
  const points = await pointsOf(page);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(page.url());
  await expect(other.getByTestId("sweep-status")).toHaveText(/^Done: 5 points × 20 seeds/, {
    timeout: 60_000,
  });
  await expect(other.getByLabel("Sweep axis")).toHaveValue("cause.1.share");
  expect(await pointsOf(other)).toEqual(points);
  await expect(other.getByTestId("link-error")).toHaveCount(0);
  await fresh.close();
});

test("the tornado lists each cause's share, and a click on that row opens its sweep", async ({ page }) => {
  await page.goto(`/${encodeScenarioHash(mix)}&v=cluster`);
  await page.getByTestId("tornado-seeds").fill("40");
  await page.getByTestId("tornado-run").click();
  await expect(page.getByTestId("tornado-status")).toHaveText(/^Done: \d+ scenarios/, { timeout: 60_000 });
  const axes = await page
    .locator("[data-testid^=tornado-row-]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-axis")));
  const plan = planTornado(mix, 0.5);
  // Every row is one the plan moves; knobs that changed no run are left out, and counted.
  const planned = plan.rows.map((r) => r.axis as string);
  expect(axes.filter((a) => !planned.includes(a ?? ""))).toEqual([]);
  const inert = page.getByTestId("tornado-inert");
  const leftOut =
    (await inert.count()) === 0
      ? 0
      : Number(/^(\d+) knobs? (?:is|are) left out/.exec((await inert.textContent()) ?? "")?.[1]);
  expect(axes.length + leftOut).toBe(planned.length);
  expect(axes).toContain("cause.0.share");
  expect(axes).toContain("cause.1.share");
  await expect(page.getByTestId("tornado-help")).toContainText("other causes keep their proportions");
  // The bug's row: its share (0.2) moved to 0.1 and 0.3, as the plan moves it.
  const row = page.locator("[data-axis='cause.1.share']");
  await expect(row.locator(".tornado-label")).toHaveText("Cause share: Software bug");
  await expect(row.locator(".tornado-base")).toHaveText("0.2");
  const ends = (await row.locator(".tornado-end").allTextContents()).join(" · ");
  for (const e of ["0.1", "0.3"]) expect(ends).toContain(e);
  await row.click();
  await expect(page.getByLabel("Sweep axis")).toHaveValue("cause.1.share");
  await expect(page.getByTestId("sweep-from")).toHaveValue("0.1");
  await expect(page.getByTestId("sweep-to")).toHaveValue("0.3");
  await expect(page.getByTestId("sweep-status")).toHaveText(/^Done: /, { timeout: 60_000 });
  await expect(page).toHaveURL(/sw=cause\.1\.share,/);
});

test("a link whose sweep names a cause its scenario does not list is refused by name", async ({ page }) => {
  const sw = sweepParam({ axis: "cause.2.share", points: 5, seeds: 20, range: null, run: true });
  await page.goto(`/${encodeScenarioHash(mix)}&v=cluster&sw=${sw}`);
  await expect(page.getByTestId("link-error")).toContainText(
    "axis cause.2.share moves failures.causes[2], but the scenario lists 2 causes (causes[0]–causes[1])",
  );
  // The rest of the link applies; the sweep shows its defaults and runs nothing.
  await expect(page.getByLabel("Sweep axis")).toHaveValue("gpus");
  await expect(page.getByTestId("sweep-chart")).toHaveCount(0);
});
