import { expect, test } from "@playwright/test";

/** Cluster model v2 (SIMULATION.md §3) in the cluster view's knobs. */

test("the v2 knobs change the results, and a bad value names its field", async ({ page }) => {
  await page.goto("/#v=cluster");
  const ft = page.getByTestId("ettr-ftHsdp");
  await expect(ft).toHaveText(/%$/);
  const before = await ft.textContent();
  await page.getByTestId("spares.pool").selectOption("limited");
  const hosts = page.getByTestId("spares.hosts");
  await hosts.fill("1");
  await page.getByTestId("spares.repairHours").fill("200");
  // One spare host that takes 200 h to repair: FT-HSDP replicas wait for hosts, so ETTR drops.
  await expect(ft).not.toHaveText(before ?? "");
  await expect(page.getByTestId("cluster.hostsPerRack")).toBeVisible();
  await expect(page.getByTestId("cluster.placement")).toBeVisible();
  await expect(page.getByTestId("ft.hangTimeoutSeconds")).toBeVisible();
  await page.getByTestId("failures.weibullShape").fill("9");
  await expect(page.getByText(/Weibull shape.*5/).first()).toBeVisible();
});

test("the Young/Daly button sets each checkpoint interval to √(2W/λ)", async ({ page }) => {
  await page.goto("/#v=cluster");
  const button = page.getByTestId("sync.youngDaly");
  // No write time: the formula says nothing useful, so the button says why instead.
  await expect(button).toBeDisabled();
  await page.getByTestId("sync.checkpointWriteSeconds").fill("20");
  await expect(button).toBeEnabled();
  await button.click();
  // The default scenario: 98,304 GPUs / 8 per host at 0.00651 failures per host-day.
  const lambda = ((98_304 / 8) * 0.00651) / 86_400;
  const minutes = Math.sqrt((2 * 20) / lambda) / 60;
  const shown = Number(await page.getByTestId("sync.checkpointMinutes").inputValue());
  expect(Math.abs(shown - minutes)).toBeLessThan(0.01);
  // FT-HSDP's checkpoint only serves job-scope failures; the default has none.
  await page.getByTestId("ft.checkpointWriteSeconds").fill("20");
  await expect(page.getByTestId("ft.youngDaly")).toBeDisabled();
});
