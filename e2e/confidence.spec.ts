/**
 * Each ETTR with its 95 % interval and run count, the precision that
 * stops the Monte Carlo and the cap, and a pinned baseline with its deltas, all in the link.
 */

import { execFileSync } from "node:child_process";
import { expect, type Page, test } from "@playwright/test";
import { DISPLAY_SETTINGS, settingAllowed } from "../src/link/displaySettings.ts";

/** "84.01% ± 0.06 (95%, 103 runs)". */
const CI = /^(\d{1,3}\.\d{1,2})% ± (\d+\.\d{1,2}) \(95%, ([\d,]+) runs?\)$/;

function parseCi(text: string | null): { mean: string; half: number; runs: number } {
  const m = CI.exec(text ?? "");
  if (!m) throw new Error(`not a band with its interval: ${JSON.stringify(text)}`);
  return { mean: m[1]!, half: Number(m[2]), runs: Number(m[3]!.replace(/,/g, "")) };
}

/** The CLI, as a person runs it, on the page's own link. */
function cliMonteCarlo(
  link: string,
  seeds: number,
): { synchronous: { ettr: { mean: number } }; ftHsdp: { ettr: { mean: number } } } {
  return JSON.parse(
    execFileSync("npx", ["tsx", "src/cli/sim.ts", link, "--seeds", String(seeds), "--json"], {
      encoding: "utf8",
      // Its progress lines go to stderr: not this test's output.
      stdio: ["ignore", "pipe", "ignore"],
    }),
  );
}

async function settled(page: Page, stop: "precision" | "cap" = "precision"): Promise<void> {
  await expect(page.getByTestId("mc-status")).toHaveAttribute("data-stop", stop, { timeout: 60_000 });
}

test("each ETTR says its mean ± 95% interval and its run count, the CLI's mean over the same seeds", async ({
  page,
}) => {
  await page.goto("/#v=cluster");
  await settled(page);
  const status = page.getByTestId("mc-status");
  await expect(status).toHaveText(/^Precision ±0\.5 points reached after \d+ runs \(every strategy\)\.$/);
  const sync = parseCi(await page.getByTestId("ettr-mc-synchronous").textContent());
  const ft = parseCi(await page.getByTestId("ettr-mc-ftHsdp").textContent());
  // The default precision (±0.5 point) was asked for and reached, after at least 100 runs.
  expect(sync.runs).toBe(ft.runs);
  expect(sync.runs).toBeGreaterThanOrEqual(100);
  expect(sync.half).toBeLessThanOrEqual(0.5);
  expect(ft.half).toBeLessThanOrEqual(0.5);
  await expect(status).toContainText(`after ${sync.runs} runs`);
  // The same seeds through the command line give the same means.
  const cli = cliMonteCarlo(page.url(), sync.runs);
  const digits = (s: string) => s.split(".")[1]!.length;
  expect((cli.synchronous.ettr.mean * 100).toFixed(digits(sync.mean))).toBe(sync.mean);
  expect((cli.ftHsdp.ettr.mean * 100).toFixed(digits(ft.mean))).toBe(ft.mean);
  await expect(page.getByTestId("ettr-p5p95-ftHsdp")).toHaveText(/^\d{1,3}\.\d% – \d{1,3}\.\d%$/);
});

test("a tighter precision runs more seeds until it is reached, and the link keeps it", async ({
  page,
  context,
}) => {
  await page.goto("/#v=cluster");
  await settled(page);
  const before = parseCi(await page.getByTestId("ettr-mc-synchronous").textContent()).runs;
  const field = page.getByTestId("mc.precision");
  await field.fill("0.1");
  await field.press("Enter");
  await expect(page).toHaveURL(/[#&]mcp=0\.1(&|$)/);
  await expect(page.getByTestId("mc-status")).toContainText("±0.1 points reached", { timeout: 60_000 });
  const sync = parseCi(await page.getByTestId("ettr-mc-synchronous").textContent());
  const ft = parseCi(await page.getByTestId("ettr-mc-ftHsdp").textContent());
  expect(sync.runs).toBeGreaterThan(before);
  expect(sync.half).toBeLessThanOrEqual(0.1);
  expect(ft.half).toBeLessThanOrEqual(0.1);
  // A fresh page on the link runs to the same precision and stops at the same run count.
  const other = await context.newPage();
  await other.goto(page.url());
  await expect(other.getByTestId("mc.precision")).toHaveValue("0.1");
  await expect(other.getByTestId("mc-status")).toContainText(`±0.1 points reached after ${sync.runs} runs`, {
    timeout: 60_000,
  });
  await expect(other.getByTestId("ettr-mc-synchronous")).toHaveText(
    (await page.getByTestId("ettr-mc-synchronous").textContent()) ?? "",
  );
});

test("a cap reached before the precision is shown as such, with the runs it stopped at", async ({ page }) => {
  await page.goto("/#v=cluster&mcp=0.01&mcn=40");
  await settled(page, "cap");
  await expect(page.getByTestId("mc-status")).toHaveText(
    "Cap reached: 40 runs, before the precision ±0.01 points.",
  );
  await expect(page.getByTestId("ettr-mc-ftHsdp")).toHaveText(/\(95%, 40 runs\)$/);
  await expect(page.getByTestId("mc.cap")).toHaveValue("40");
});

test("a bad precision or cap is refused by name, and changes nothing", async ({ page }) => {
  await page.goto("/#v=cluster&mcp=99");
  await expect(page.getByTestId("link-error")).toContainText("mcp=");
  await expect(page.getByTestId("link-error")).toContainText(settingAllowed("mcPrecision"));
  await expect(page.getByTestId("mc.precision")).toHaveValue("0.5");
  await settled(page);
  const cap = page.getByTestId("mc.cap");
  await cap.fill("5");
  await cap.press("Enter");
  await expect(page.locator(".mc-controls [role=alert], .mc-controls .field-error").first()).toContainText(
    DISPLAY_SETTINGS.mcCap.label,
  );
  await expect(page).not.toHaveURL(/mcn=/);
  await expect(page.getByTestId("mc-status")).toHaveAttribute("data-stop", "precision");
});

test("pin a baseline: each ETTR shows its difference and error; the link carries the pin; unpin", async ({
  page,
  browser,
}) => {
  await page.goto("/#v=cluster");
  await settled(page);
  await page.getByTestId("baseline-pin").click();
  await expect(page).toHaveURL(/[#&]base=2\./);
  // Pinned on the scenario on screen: no difference yet.
  await expect(page.getByTestId("ettr-delta-ftHsdp")).toHaveText(/^\+0\.00? ± 0\.00? points/);
  const replicas = page.getByLabel("Replicas (R)", { exact: true });
  await replicas.fill("48");
  await replicas.press("Enter");
  await settled(page);
  // 48 replicas: a failure takes a smaller share of the job offline, so FT-HSDP gains.
  const delta = page.getByTestId("ettr-delta-ftHsdp");
  // The two stop at their own run counts: the difference pairs the seeds both ran, and says so.
  await expect(delta).toHaveText(
    /^\+\d+\.\d{1,2} ± \d+\.\d{1,2} points \(paired by seed(, \d+ runs| over the [\d,]+ seeds both ran, .*)\)$/,
  );
  const text = (await delta.textContent()) ?? "";
  expect(Number(/^\+(\d+\.\d+)/.exec(text)?.[1])).toBeGreaterThan(0.5);
  await expect(page.getByTestId("ettr-base-ftHsdp")).toHaveText(/^\d{1,3}\.\d{1,2}% ± /);
  await expect(page.getByTestId("baseline-pinned")).toContainText("12 replicas");
  const url = page.url();

  // A fresh browser context on the link shows the same pin and the same differences.
  const fresh = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const other = await fresh.newPage();
  await other.goto(url);
  await expect(other.getByTestId("baseline-pinned")).toContainText("12 replicas");
  await expect(other.getByTestId("ettr-delta-ftHsdp")).toHaveText(text, { timeout: 60_000 });
  await expect(other.getByTestId("ettr-delta-synchronous")).toHaveText(
    (await page.getByTestId("ettr-delta-synchronous").textContent()) ?? "",
  );
  await fresh.close();

  await page.getByTestId("baseline-unpin").click();
  await expect(page).not.toHaveURL(/base=/);
  await expect(page.getByTestId("ettr-delta-ftHsdp")).toHaveCount(0);
  await expect(page.getByTestId("baseline-pin")).toBeVisible();
});

/** "+3.1 ± 0.4 points" as a number of points. */
const points = (text: string | null) =>
  Number(
    /^([+−])(\d+\.\d+)/
      .exec(text ?? "")
      ?.slice(1)
      .join("")
      .replace("−", "-"),
  );

test("a baseline of another seed is paired by seed, and the difference adds up from the means it names", async ({
  page,
}) => {
  await page.goto("/#v=cluster&mcn=150&mcp=0.01");
  await settled(page, "cap");
  await page.getByTestId("baseline-pin").click();
  const seedField = page.getByTestId("seed");
  const seed = Number(await seedField.inputValue());
  await seedField.fill(String(seed + 40));
  await seedField.press("Enter");
  await settled(page, "cap");
  // Runs 0..149 of each: the baseline's seeds seed..seed+149, these seed+40..seed+189. The same
  // scenario on the same seeds: exactly no difference (paired by index, runs of other seeds differed).
  const basis = page.getByTestId("ettr-delta-basis-ftHsdp");
  const seeds = `the 110 seeds both ran, ${seed + 40}–${seed + 149}`;
  await expect(basis).toContainText(`(paired by seed over ${seeds}: `);
  await expect(page.getByTestId("ettr-delta-ftHsdp")).toHaveText(/^\+0\.00? ± 0\.00? points/);
  // Another cluster on those seeds: the difference is the two named means' (to their rounding),
  // not that of all 150 runs of each.
  const replicas = page.getByLabel("Replicas (R)", { exact: true });
  await replicas.fill("48");
  await replicas.press("Enter");
  await settled(page, "cap");
  await expect(basis).toHaveText(
    new RegExp(
      `^\\(paired by seed over ${seeds}: (\\d+\\.\\d\\d)% here, (\\d+\\.\\d\\d)% in the baseline\\)$`,
    ),
  );
  const [, here, there] =
    /: (\d+\.\d\d)% here, (\d+\.\d\d)% in/.exec((await basis.textContent()) ?? "") ?? [];
  const delta = points(await page.getByTestId("ettr-delta-ftHsdp").textContent());
  expect(delta).toBeGreaterThan(0.5);
  expect(Math.abs(delta - (Number(here) - Number(there)))).toBeLessThan(0.011);
});

test("a looser precision keeps the runs already done; a tighter one goes on from them", async ({ page }) => {
  await page.goto("/#v=cluster&mcp=0.01&mcn=300");
  await settled(page, "cap");
  await expect(page.getByTestId("ettr-mc-ftHsdp")).toHaveText(/\(95%, 300 runs\)$/);
  const field = page.getByTestId("mc.precision");
  await field.fill("0.5");
  await field.press("Enter");
  await expect(page).toHaveURL(/[#&]mcn=300(&|$)/);
  await settled(page);
  // ±0.5 is met from 100 runs on (the defaults stop near there): the 300 are kept, and it says so.
  await expect(page.getByTestId("mc-status")).toHaveText(
    "Precision ±0.5 points reached: the 300 runs already done are kept (every strategy). A fresh start, such as this page's link, stops as soon as it is reached, from 100 runs on.",
  );
  await expect(page.getByTestId("ettr-mc-ftHsdp")).toHaveText(/\(95%, 300 runs\)$/);
  // A higher cap with the tight precision goes on from the 300 to the new cap.
  const cap = page.getByTestId("mc.cap");
  await field.fill("0.01");
  await field.press("Enter");
  await cap.fill("320");
  await cap.press("Enter");
  await settled(page, "cap");
  await expect(page.getByTestId("ettr-mc-ftHsdp")).toHaveText(/\(95%, 320 runs\)$/);
});
