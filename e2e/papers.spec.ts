/**
 * The Published numbers view: every claim beside the model's value and verdict, and a row's link
 * opened fresh gives the value the row shows (the Cluster view runs the same seeds).
 */
import { expect, test } from "@playwright/test";
import { recordedRows } from "../src/sim/papers/recorded.ts";
import { modelText, verdictText } from "../src/sim/papers/words.ts";

const ROWS = recordedRows();

test("every claim shows its published figure, the model's value and the computed verdict", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto("/#v=papers");
  await expect(page.getByRole("tab", { name: "Papers" })).toHaveAttribute("aria-selected", "true");
  await expect(page.locator("article.claim")).toHaveCount(ROWS.length);
  for (const r of ROWS) {
    const card = page.getByTestId(`claim-${r.claim.id}`);
    await expect(card.getByTestId("claim-published")).toHaveText(r.claim.published.text);
    await expect(card.getByTestId("claim-model")).toHaveText(modelText(r.claim.metric, r.model));
    await expect(card.getByTestId("claim-verdict")).toHaveText(verdictText(r));
  }
  const off = ROWS.filter((r) => r.verdict.kind === "off").length;
  await expect(page.getByTestId("papers-summary")).toContainText(`${ROWS.length - off} agree, ${off} do not`);
  await page.screenshot({ path: "test-results/papers-1280.png" });
});

test("on a phone the cards fit the width", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/#v=papers");
  await expect(page.locator("article.claim")).toHaveCount(ROWS.length);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/papers-390.png" });
});

test("a row's link opened fresh runs the row's seeds to the value the row shows", async ({
  page,
  browser,
}) => {
  const row = ROWS.find((r) => r.claim.id === "ft-hsdp-sync-poisson")!;
  await page.goto("/#v=papers");
  const href = await page.getByTestId(`claim-${row.claim.id}`).getByTestId("claim-link").getAttribute("href");
  expect(href).toMatch(/^#v=cluster&s=/);
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(`/${href}`);
  await expect(fresh.getByTestId("mc-status")).toHaveAttribute("data-stop", "cap", { timeout: 60_000 });
  const band = fresh.getByTestId("ettr-mc-synchronous");
  await expect(band).toHaveAttribute("data-runs", String(row.claim.runs));
  await expect(band).toContainText(`${row.model.mean.toFixed(2)}%`);
});

test("the Story's last chapter points to the Papers view", async ({ page }) => {
  await page.goto("/#v=story&ch=your-cluster");
  await page.getByTestId("story-papers").getByRole("link", { name: "Papers" }).click();
  await expect(page.locator("article.claim")).toHaveCount(ROWS.length);
  expect(page.url()).toContain("v=papers");
});
