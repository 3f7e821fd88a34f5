/**
 * The sweep's own inputs: a To past what the axis can sweep is refused
 * by name with the axis's range and changes nothing; a point loaded into the knobs reads at a
 * knob's precision, not the 17 digits of 1440 / (hosts × MTBF).
 */
// The test realm validates scenarios against the plug-in list, as the page and the CLI do.
import "../src/testing/registerPlugins.ts";
import { expect, test } from "@playwright/test";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";
import { buildSweep } from "../src/sim/sweep/index.ts";

const small = parseScenario({
  name: "Small sweep cluster",
  cluster: { gpus: 512, gpusPerHost: 8, replicas: 8 },
  failures: { perHostDay: 0.05 },
  training: { days: 5 },
});

test("a To of 1e308 is refused by name with the axis's range, and the range and link stay", async ({
  page,
}) => {
  await page.goto(`/${encodeScenarioHash(small)}&v=cluster`);
  await page.getByLabel("Sweep axis").selectOption("gpus");
  const to = page.getByTestId("sweep-to");
  const before = await to.inputValue();
  const url = page.url();
  await to.fill("1e308");
  await to.press("Enter");
  await expect(page.getByText(/^To: must be a number in \[\d[\d,]*, 1,000,000\]\.$/)).toBeVisible();
  await expect(page).toHaveURL(url);
  await expect(page.getByRole("button", { name: "Axis range" })).toHaveCount(0);
  // The field keeps the typed text beside its message; the sweep's range is still the axis's own.
  expect(before).not.toBe("1e308");
});

test("a sweep point loaded into the knobs reads to six significant digits, not seventeen", async ({
  page,
}) => {
  await page.goto(`/${encodeScenarioHash(small)}&v=cluster`);
  await page.getByLabel("Sweep axis").selectOption("mtbf");
  await page.getByRole("spinbutton", { name: "Points", exact: true }).fill("5");
  await page.getByRole("spinbutton", { name: "Seeds per point" }).fill("5");
  await page.getByRole("button", { name: "Run sweep" }).click();
  await expect(page.getByTestId("sweep-status")).toHaveText(/^Done: 5 points × 5 seeds/, { timeout: 60_000 });
  // A point whose own rate has more digits than a knob shows: the case the fix is for.
  const rates = buildSweep(small, "mtbf", 5).map((p) => p.scenario.failures.perHostDay);
  const i = rates.findIndex((r) => String(r).replace(/^0\.0*/, "").length > 6);
  const rate = rates[i] ?? Number.NaN;
  expect(i).toBeGreaterThanOrEqual(0);
  await page.getByTestId(`sweep-point-${i}-synchronous`).click();
  await expect(page.getByTestId("failures.perHostDay")).toHaveValue(String(Number(rate.toPrecision(6))));
});
