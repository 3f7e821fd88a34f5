/**
 * Issue 21: bad input never changes what is shown. Each test is one reproducer of the issue,
 * driven the way a person does: a refusal keeps the last good state (results, link, history) and
 * says why beside the control.
 */
import { expect, type Page, test } from "@playwright/test";

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
