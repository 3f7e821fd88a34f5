/**
 * A link that runs its sweep or tornado on open starts that work after the page's first frame: the
 * "link-run:start" mark comes after the first contentful paint. How long its tasks take is
 * measured, not asserted: `npm run bench:cluster` (its link rows).
 */
// The test realm validates scenarios against the plug-in list, as the page and the CLI do.
import "../src/testing/registerPlugins.ts";
import { expect, type Page, test } from "@playwright/test";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { sweepParam } from "../src/link/sweepLink.ts";
import { tornadoParam } from "../src/link/tornadoLink.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";
import { LINK_RUN_ASK_SECONDS } from "../src/state/linkRunCost.ts";

const small = parseScenario({
  name: "Link run cluster",
  cluster: { gpus: 512, gpusPerHost: 8, replicas: 8 },
  failures: { perHostDay: 0.05 },
  training: { days: 5 },
});

async function marks(page: Page) {
  return page.evaluate(() => ({
    paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
    start: performance.getEntriesByName("link-run:start")[0]?.startTime ?? null,
  }));
}

test("a link's sweep starts after the first frame, and runs", async ({ page }) => {
  const sw = sweepParam({ axis: "gpus", points: 4, seeds: 20, range: null, run: true });
  await page.goto(`/${encodeScenarioHash(small)}&v=cluster&sw=${sw}`);
  await expect(page.getByTestId("sweep-status")).toHaveText(/^Done: \d points × 20 seeds/, {
    timeout: 60_000,
  });
  const { paint, start } = await marks(page);
  expect(paint).not.toBeNull();
  expect(start).not.toBeNull();
  expect(start as number).toBeGreaterThan(paint as number);
  // The threshold past which such a link asks first is stated beside the sweep.
  await expect(page.getByTestId("link-run-threshold")).toHaveText(
    `A link that runs a sweep or a tornado on open asks first when its estimate passes ${LINK_RUN_ASK_SECONDS} s on one core.`,
  );
});

test("a link's tornado plans after the first frame, and runs", async ({ page }) => {
  const tn = tornadoParam({ amount: 0.3, precision: 0.01, maxSeeds: 40, run: true });
  await page.goto(`/${encodeScenarioHash(small)}&v=cluster&tn=${tn}`);
  await expect(page.getByTestId("tornado-status")).toHaveText(/^Done: \d+ scenarios/, { timeout: 90_000 });
  const { paint, start } = await marks(page);
  expect(paint).not.toBeNull();
  expect(start).not.toBeNull();
  expect(start as number).toBeGreaterThan(paint as number);
});
