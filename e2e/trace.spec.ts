/**
 * The One step view's Trace panel: two rank files opened at once (DDP-shaped GPU traces built
 * from stated figures by src/testing/ddpTrace.ts), the overlap read per rank and step, the last
 * step switched on, the link fitted and the model put beside the measurement; a bad file says
 * why in place and the open traces stay open.
 */
import { expect, type Page, test } from "@playwright/test";
import { ddpGpuTrace, exampleSpec } from "../src/testing/ddpTrace.ts";

const rankFile = (k: number) => ({
  name: `rank${k}.json`,
  mimeType: "application/json",
  buffer: Buffer.from(ddpGpuTrace(exampleSpec(k))),
});

async function openTraces(page: Page) {
  await page.goto("/#v=step");
  await expect(page.getByTestId("bucket-count")).toHaveText(/^\d+$/);
  await page.getByLabel("Open trace files").setInputFiles([rankFile(0), rankFile(1)]);
  await expect(page.getByTestId("trace-verdict")).toContainText("hidden on rank 0");
}

test("two rank files: overlap per rank and step, the last step, the fit, the model beside", async ({
  page,
}) => {
  await openTraces(page);
  const table = page.getByTestId("trace-table");
  // 4 profiled steps, the last dropped: 3 step rows and a total per rank.
  await expect(table.locator('tr[data-rank="0"]')).toHaveCount(4);
  await expect(table.locator('tr[data-rank="1"]')).toHaveCount(4);
  const overlap = table.locator('tr[data-rank="0"][data-step="ProfilerStep#5"] .trace-overlap');
  await expect(overlap).toHaveText(/^\d+\.\d\d %$/);
  // The panel's figure is the command line's (src/cli/trace.ts prints the same traceJson).
  const verdict = await page.getByTestId("trace-verdict").textContent();
  expect(verdict).toMatch(/exposes .* on rank/);

  await page.getByLabel("Keep the last step (HTA drops it)").check();
  await expect(table.locator('tr[data-rank="0"]')).toHaveCount(5);
  await expect(table.locator('tr[data-rank="1"][data-step="ProfilerStep#8"]')).toBeVisible();

  const fit = page.getByTestId("trace-fit");
  // 4 steps × 4 buckets × 2 ranks, all-reduces of exactly 40 µs + size / 5 GB/s.
  await expect(fit).toContainText("Least squares over 32 all-reduces");
  await expect(fit).toContainText("α = 20.00 µs and B = 5.0 GB/s");
  const before = await page.getByTestId("trace-model-error").textContent();
  await page.getByRole("button", { name: "Use the fitted link" }).click();
  await expect(page.getByRole("button", { name: "The model uses the fitted link" })).toBeDisabled();
  await expect(page.getByTestId("trace-model-error")).not.toHaveText(before ?? "");
  await expect(page.getByTestId("trace-model-error")).toContainText("α 20.00 µs, 5.0 GB/s");
  await expect(page.getByTestId("trace-gantt")).toBeVisible();
  // The fitted link is an edit of the step's state: it is in the address.
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/st=/);
});

test("a broken file is named in place and the open traces stay open", async ({ page }) => {
  await openTraces(page);
  await page
    .getByLabel("Open trace files")
    .setInputFiles([
      { name: "notes.json.gz", mimeType: "application/gzip", buffer: Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]) },
    ]);
  await expect(page.getByRole("alert").filter({ hasText: "gzip" })).toBeVisible();
  await expect(page.getByTestId("trace-table").locator('tr[data-rank="1"]')).toHaveCount(4);
});
