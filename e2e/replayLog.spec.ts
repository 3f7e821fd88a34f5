/**
 * §5 in the page: a run's failures replayed. A replay link opens a replay that says so
 * and shows one value per strategy, no band; its link, copied and opened fresh, gives the same
 * numbers; "Back to drawn arrivals" returns to a Monte Carlo band.
 */
// The test realm validates scenarios against the plug-in list, as the page and the CLI do.
import "../src/testing/registerPlugins.ts";
import { expect, type Page, test } from "@playwright/test";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

const replay = parseScenario({
  cluster: { gpus: 128, gpusPerHost: 8, replicas: 4 },
  training: { days: 2 },
  failures: {
    arrivals: "log",
    log: {
      hosts: 16,
      days: 2,
      events: [
        [3600, 0, 3],
        [7200, 1, 5, 6],
        [50_000, 0, 12],
        [90_000, 0, 1],
      ],
    },
  },
});

async function ettr(page: Page) {
  await expect(page.getByTestId("ettr-replay-ftHsdp")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("ettr-ftHsdp")).not.toHaveText("…");
  return [
    await page.getByTestId("ettr-synchronous").textContent(),
    await page.getByTestId("ettr-ftHsdp").textContent(),
  ];
}

test("a replay link: one value, 'replay of a log', and its copied link gives the same numbers", async ({
  page,
  browser,
}) => {
  await page.goto(`/${encodeScenarioHash(replay)}`);
  const first = await ettr(page);
  await expect(page.getByTestId("ettr-replay-synchronous")).toContainText("one value, no band");
  await expect(page.getByTestId("mc-status")).toContainText("A replay of a log");
  await expect(page.getByTestId("ettr-mc-ftHsdp")).toHaveCount(0);
  await expect(page.getByTestId("failures.log")).toContainText(
    "Replay of a log: 4 events on 16 hosts over 2 days",
  );
  await page.getByTestId("copy-link").click();
  const shown = page.getByLabel("Share link");
  await expect(page.getByRole("status").filter({ hasText: "Link copied" }).or(shown)).toBeVisible();
  const link = (await shown.isVisible())
    ? await shown.inputValue()
    : await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toContain("s=3.");
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(link);
  expect(await ettr(fresh)).toEqual(first);
  // Back to drawn arrivals: a Monte Carlo band again.
  await page.getByTestId("log-back-to-drawn").click();
  await expect(page.getByTestId("ettr-mc-ftHsdp")).toBeVisible();
  await expect(page.getByTestId("ettr-replay-ftHsdp")).toHaveCount(0);
});
