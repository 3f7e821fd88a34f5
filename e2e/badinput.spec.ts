/**
 * Bad input never changes what is shown. Each test reproduces one case where it did, driven the way
 * a person does: a refusal keeps the last good state (results, link, history) and says why beside
 * the control.
 */
// The test realm validates scenarios against the plug-in list, as the page and the CLI do.
import "../src/testing/registerPlugins.ts";
import { expect, type Page, test } from "@playwright/test";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { sweepParam } from "../src/link/sweepLink.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";

const historyLength = (page: Page) => page.evaluate(() => history.length);

test("a refused paste keeps Llama 3 8B's buckets, its link and its history, and says why beside the paste box", async ({
  page,
}) => {
  await page.goto("/#v=step");
  await page.locator('select:has(option[value="llama3-8b"])').selectOption("llama3-8b");
  await expect(page.getByTestId("bucket-count")).toHaveText("162");
  await expect(page.getByTestId("sweep-best")).toBeVisible();
  await expect.poll(() => page.url()).toContain("st=");
  const url = page.url();
  const entries = await historyLength(page);
  await page.getByText("Paste your model's parameters").click();
  await page
    .getByLabel("Parameter list to paste")
    .fill('[{"name":"w","shape":[64],"dtype":"torch.float33"}]');
  await page.getByRole("button", { name: "Use pasted list" }).click();
  const problem = page.locator(".step-problem");
  await expect(problem).toContainText("torch.float33");
  await expect(page.getByTestId("bucket-count")).toHaveText("162");
  await expect(page.getByTestId("sweep-best")).toBeVisible();
  expect(page.url()).toBe(url);
  expect(await historyLength(page)).toBe(entries);
  // The link still opens Llama 3 8B, with no error.
  await page.reload();
  await expect(page.getByTestId("bucket-count")).toHaveText("162");
  await expect(page.locator(".step-problem")).toHaveCount(0);
});

test("typing 1e308 into Failure rate key by key applies no prefix: the refusal keeps the results, the link and the history", async ({
  page,
}) => {
  await page.goto("/#v=cluster");
  const ettr = page.getByTestId("ettr-ftHsdp");
  await expect(ettr).toHaveText(/\d+\.\d %|\d+\.\d%/);
  const shown = await ettr.textContent();
  const url = page.url();
  const entries = await historyLength(page);
  const rate = page.getByTestId("failures.perHostDay");
  await rate.fill("");
  // A person typing: each key well inside the pause that commits a value.
  await rate.pressSequentially("1e308", { delay: 120 });
  const knob = page.locator('[data-control="failures.perHostDay"]');
  await expect(knob.getByRole("alert")).toHaveText(/must be a number in \[0, 10\]/);
  await rate.press("Enter");
  await rate.blur();
  await expect(knob.getByRole("alert")).toBeVisible();
  await expect(ettr).toHaveText(shown ?? "");
  expect(page.url()).toBe(url);
  expect(await historyLength(page)).toBe(entries);
  // A value typed whole is one edit and one history entry.
  await rate.fill("");
  await rate.pressSequentially("0.02", { delay: 120 });
  await rate.press("Enter");
  await expect.poll(() => page.url()).not.toBe(url);
  await expect(knob.getByRole("alert")).toHaveCount(0);
  expect(await historyLength(page)).toBe(entries + 1);
});

test("a cause name past 40 characters is refused beside its row, not cut without a word", async ({
  page,
}) => {
  await page.goto("/#v=cluster");
  const mix = page.getByTestId("cause-mix");
  await mix.getByTestId("causes.add").click();
  await expect.poll(() => page.url()).toContain("s=");
  const url = page.url();
  const name = `${"a".repeat(39)}😀b`;
  await mix.getByTestId("causes.0.name").fill(name);
  await expect(mix.getByTestId("causes.0.name")).toHaveValue(name);
  await expect(mix.getByTestId("causes.0.error")).toContainText(
    // Counted and cut in code points, as the check counts: the emoji is one character.
    'failures.causes[0].name: got "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa😀…" (41 characters); must be a string of 1–40 characters',
  );
  expect(page.url()).toBe(url);
});

test("a hide= id that names no control, or is not an id, is named in the link banner", async ({ page }) => {
  await page.goto("/#v=cluster&hide=knobs.faalures,presets");
  await expect(
    page.getByText(/hide= names "knobs\.faalures", which is not a control on this page/),
  ).toBeVisible();
  // The ids it does know are hidden; the misspelt Failures section is shown, and said so.
  await expect(page.locator('[data-control="presets"]')).toBeHidden();
  await expect(page.locator('[data-control="knobs.failures"]')).toBeVisible();
  await page.goto("/#v=cluster&hide=a%20b,presets");
  await page.reload();
  await expect(page.getByText(/hide= names "a b", not control ids/)).toBeVisible();
});

test("a link that runs a sweep past the budget asks first, saying the estimate, and runs nothing until told", async ({
  page,
}) => {
  const heavy = parseScenario({
    cluster: { gpus: 1_000_000, gpusPerHost: 1, replicas: 1000 },
    training: { days: 100 },
    failures: { perHostDay: 0.01 },
  });
  const sw = sweepParam({ axis: "gpus", points: 50, seeds: 2000, range: null, run: true });
  await page.goto(`/${encodeScenarioHash(heavy)}&v=cluster&sw=${sw}`);
  const ask = page.getByTestId("sweep-confirm");
  await expect(ask).toContainText(
    /50 points × 2,000 seeds, about [\d,]+ failures to simulate, about [\d.]+ (min|h) on one core\. That is past the budget of 1,000,000,000/,
  );
  await expect(page.getByTestId("sweep-status")).toHaveText("");
  await expect(page.getByRole("button", { name: "Cancel" })).toBeDisabled();
  await ask.getByRole("button", { name: "Not now" }).click();
  await expect(ask).toHaveCount(0);
  await expect(page.getByTestId("sweep-status")).toHaveText("");
});
