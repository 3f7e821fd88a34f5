/**
 * The cause-mix editor in the cluster knobs and each failure's recovery in the failure log
 * (docs/model.md §3), driven as a person would: rows added and edited, a refused value named in
 * the validator's words while the previous results stay, the Llama 3 mix one click away, and a
 * reloaded link that brings the same mix back.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";

const settled = (page: Page) => page.locator('section[aria-label="Results"][aria-busy="false"]');

async function results(page: Page) {
  await expect(settled(page)).toBeVisible();
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(/%$/);
  return page.getByTestId("ettr-ftHsdp").textContent();
}

async function rowsOf(page: Page) {
  const mix = page.getByTestId("cause-mix");
  const n = await mix.locator("li.cause-row").count();
  const rows: string[][] = [];
  for (let i = 0; i < n; i++) {
    rows.push([
      await mix.getByTestId(`causes.${i}.name`).inputValue(),
      await mix.getByTestId(`causes.${i}.share`).inputValue(),
      await mix.getByTestId(`causes.${i}.scope`).inputValue(),
      String(await mix.getByTestId(`causes.${i}.hang`).isChecked()),
      String(await mix.getByTestId(`causes.${i}.newHost`).isChecked()),
    ]);
  }
  return rows;
}

async function axeClean(page: Page, selector: string) {
  const result = await new AxeBuilder({ page }).include(selector).analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("a cause mix is edited row by row; a refused share is named and the previous results kept; the link carries the mix", async ({
  page,
}) => {
  await page.goto("/#v=cluster");
  const mix = page.getByTestId("cause-mix");
  await expect(mix.getByTestId("causes.none")).toBeVisible();
  await results(page);

  // Two causes: a host cause and a job-scope one (which can break no host).
  await mix.getByTestId("causes.add").click();
  await mix.getByTestId("causes.add").click();
  await mix.getByTestId("causes.1.name").fill("Software bug");
  await mix.getByTestId("causes.1.scope").selectOption("job");
  await expect(mix.getByTestId("causes.1.newHost")).not.toBeChecked();
  await expect(mix.getByTestId("causes.1.newHost")).toBeDisabled();
  await expect(mix.getByTestId("causes.0.share")).toHaveValue("50");
  // The results use the mix: the details table counts its causes; the hang fraction is off.
  await expect(page.getByTestId("cause-row-1")).toContainText("Software bug");
  await expect(page.getByTestId("failures.hangFraction")).toBeDisabled();
  await expect(page.getByTestId("failures.hangFractionNote")).toBeVisible();
  const withMix = await results(page);
  const link = page.url();

  // A zero share is refused beside its row, saying what a share is; nothing else moves.
  await mix.getByTestId("causes.1.share").fill("0");
  await expect(mix.getByTestId("causes.1.error")).toHaveText(
    "Cause 2's share: got “0”; a share is a percentage above 0 and below 100 (the other causes share the rest).",
  );
  await expect(mix.getByTestId("causes.1.share")).toHaveAttribute("aria-invalid", "true");
  await expect(mix.getByTestId("causes.refused")).toContainText("the previous mix (2 causes)");
  await expect(settled(page)).toBeVisible();
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(withMix ?? "");
  expect(page.url()).toBe(link);

  // Shares are percentages: 10 for one of two causes is 10 %, and the other takes the rest.
  await mix.getByTestId("causes.1.share").fill("10");
  await expect(mix.getByTestId("causes.refused")).toHaveCount(0);
  await expect(mix.getByTestId("causes.0.share")).toHaveValue("90");
  await expect.poll(() => page.url()).not.toBe(link);

  // Fixed: three failures in four are the job-wide bug, and the results follow.
  await mix.getByTestId("causes.1.share").fill("75");
  await expect(mix.getByTestId("causes.0.share")).toHaveValue("25");
  await expect(page.getByTestId("ettr-ftHsdp")).not.toHaveText(withMix ?? "");
  expect(page.url()).not.toBe(link);

  // Llama 3's mix in one click, taken from its preset: 18 causes, the first 148 of 419.
  await mix.getByTestId("causes.llama3").click();
  await expect(mix.locator("li.cause-row")).toHaveCount(18);
  await expect(mix.getByTestId("causes.0.name")).toHaveValue("Faulty GPU");
  await expect(mix.getByTestId("causes.0.share")).toHaveValue("35.3");
  await expect(page.getByTestId("cause-row-2")).toContainText("Software bug");
  const llama = await rowsOf(page);
  const llamaEttr = await results(page);

  // The link round-trips the mix: a reload brings back the same rows and the same numbers.
  await page.reload();
  await expect(mix.locator("li.cause-row")).toHaveCount(18);
  expect(await rowsOf(page)).toEqual(llama);
  expect(await results(page)).toBe(llamaEttr);

  // Removing a row and clearing the mix: the hang fraction applies again.
  await mix.getByTestId("causes.17.remove").click();
  await expect(mix.locator("li.cause-row")).toHaveCount(17);
  // The keyboard stays in the list: on the row that is now last.
  await expect(mix.getByTestId("causes.16.remove")).toBeFocused();
  await mix.getByTestId("causes.clear").click();
  await expect(mix.getByTestId("causes.add")).toBeFocused();
  await expect(mix.getByTestId("causes.none")).toBeVisible();
  await expect(page.getByTestId("failures.hangFraction")).toBeEnabled();
});

test("a mix set over a hang fraction zeroes it, says so, and gives it back when cleared", async ({
  page,
}) => {
  await page.goto("/#v=cluster");
  await page.getByTestId("failures.hangFraction").fill("0.3");
  await results(page);
  const mix = page.getByTestId("cause-mix");
  await mix.getByTestId("causes.add").click();
  await expect(mix.getByTestId("causes.hangNote")).toContainText("Hang fraction 0.3 set to 0");
  await expect(page.getByTestId("failures.hangFraction")).toHaveValue("0");
  await axeClean(page, ".knobs");
  await mix.getByTestId("causes.clear").click();
  await expect(page.getByTestId("failures.hangFraction")).toHaveValue("0.3");
});

test("the editor is keyboard-usable, passes axe and fits a phone's knob drawer", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/#v=cluster");
  await page.getByRole("button", { name: /Show scenario knobs/ }).click();
  const mix = page.getByTestId("cause-mix");
  await mix.getByTestId("causes.llama3").focus();
  await page.keyboard.press("Enter");
  await expect(mix.locator("li.cause-row")).toHaveCount(18);
  // Tab from the Llama button reaches Clear, Add, then the first row's name, which typing edits.
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(mix.getByTestId("causes.0.name")).toBeFocused();
  await page.keyboard.press("End");
  await page.keyboard.type(" (H100)");
  await expect(page.getByTestId("cause-row-0")).toContainText("Faulty GPU (H100)");
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, "the page scrolls sideways").toBeLessThanOrEqual(innerWidth);
  await axeClean(page, ".cause-mix");
});

test("the failure log shows each failure's recovery phase by phase; with a dry spare pool, the wait", async ({
  page,
}) => {
  await page.goto("/#v=cluster");
  await page.getByRole("button", { name: /spare pool that runs dry/ }).click();
  await results(page);
  const log = page.getByTestId("failure-log");
  await expect(log.getByRole("columnheader", { name: "Recovery: FT-HSDP" })).toBeVisible();
  const first = log.getByTestId("recovery-ftHsdp-0");
  await expect(first.locator("[data-phase=detect]")).toHaveCount(1);
  await expect(first.locator("[data-phase=restart]")).toHaveCount(1);
  await expect(first.getByRole("img")).toHaveAttribute(
    "aria-label",
    /^FT-HSDP: detect 60 s · restart 7\.0 min/,
  );
  // The synchronous job's first recovery is cut short: the second failure strikes 28 s later.
  await expect(log.getByTestId("recovery-synchronous-0").getByRole("img")).toHaveAttribute(
    "aria-label",
    "Synchronous job: detect 28 s; struck again by failure #2",
  );
  // 12 spares, 4 h repairs: the pool runs dry within hours, and a replica's bar shows its wait.
  const waiting = log.locator("[data-testid^=recovery-ftHsdp-] [data-phase=waitSpare]").first();
  for (let k = 0; k < 40 && (await waiting.count()) === 0; k++) {
    await log.evaluate((el) => {
      el.scrollTop += 240;
    });
  }
  await expect(waiting).toBeVisible();
  const bar = log.locator("[data-testid^=recovery-ftHsdp-]:has([data-phase=waitSpare])").first();
  await expect(bar.getByRole("img")).toHaveAttribute("aria-label", /wait for spare \d/);
  await axeClean(page, "[data-testid=failure-log]");
});
