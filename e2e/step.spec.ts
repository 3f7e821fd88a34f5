import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";

/** Twenty 1 MiB float32 gradients, as `named_parameters()` would list them. */
const MODEL = JSON.stringify(
  Array.from({ length: 20 }, (_, i) => ({
    name: `layer${i}.weight`,
    shape: [512, 512],
    dtype: "torch.float32",
  })),
);

async function openStepTab(page: Page) {
  await page.goto("/");
  await page.getByRole("tab", { name: /One step/ }).click();
  await expect(page.getByTestId("bucket-count")).toHaveText(/^\d+$/);
}

async function paste(page: Page, text: string) {
  await page.getByText("Paste your model's parameters").click();
  await page.getByLabel("Parameter list to paste").fill(text);
  await page.getByRole("button", { name: "Use pasted list" }).click();
}

test("a pasted model's buckets follow the bucket-size slider", async ({ page }) => {
  await openStepTab(page);
  await paste(page, MODEL);
  await expect(page.getByText("pasted model: 20 parameters, 20.00 MiB of gradients")).toBeVisible();
  // 25 MiB cap: the 1 MiB first bucket takes one gradient, the other 19 MiB stay in one open bucket.
  await expect(page.getByTestId("bucket-count")).toHaveText("2");
  const slider = page.getByRole("slider", { name: /bucket_cap_mb/ });
  await slider.fill("0");
  await expect(page.getByTestId("cap-value")).toHaveText("0.50 MiB");
  // 0.5 MiB cap: every 1 MiB gradient closes a bucket of its own.
  await expect(page.getByTestId("bucket-count")).toHaveText("20");
  await expect(
    page.getByRole("table", { name: "Buckets in all-reduce order" }).locator("tbody tr"),
  ).toHaveCount(20);
  await slider.fill("20");
  await expect(page.getByTestId("bucket-count")).not.toHaveText("20");
  // The sweep marks its fastest size.
  await expect(page.getByTestId("sweep-best")).toContainText(/best .* MiB/);
});

test("a bad paste names the entry at fault", async ({ page }) => {
  await openStepTab(page);
  await paste(
    page,
    '[{"name": "fc.weight", "shape": [10, 4], "dtype": "torch.float32"}, {"name": "fc.bias", "dtype": "torch.float32"}]',
  );
  await expect(page.getByRole("alert")).toHaveText('entry 1 ("fc.bias"): "shape" is missing.');
});

test("the named_parameters() printout pastes as it prints, and a small model's memory shows in MB", async ({
  page,
}) => {
  await openStepTab(page);
  await paste(page, "layer1.weight torch.Size([1024, 1024])\nlayer1.bias torch.Size([1024])\n");
  await expect(page.getByText("pasted model: 2 parameters, 4.00 MiB of gradients")).toBeVisible();
  // 1,049,600 float32 elements: 4.2 MB of parameters, the same of gradients, 12 bytes each of Adam.
  await expect(page.getByTestId("memory-fit")).toContainText(
    "parameters 4.2 MB + gradients 4.2 MB + Adam state 12.6 MB",
  );
  await expect(page.getByTestId("memory-fit")).not.toContainText(/\b0 GB/);
});

test("choosing Pasted list before pasting is in the link", async ({ page }) => {
  await openStepTab(page);
  const model = page.getByRole("group", { name: "Model" }).first().getByRole("combobox");
  await model.selectOption({ label: "Pasted list" });
  await expect(model).toHaveValue("paste");
  await expect(page).toHaveURL(/st=2\./);
  await page.reload();
  await expect(page.getByRole("group", { name: "Model" }).first().getByRole("combobox")).toHaveValue("paste");
});

test("exports the step as a Perfetto trace", async ({ page }) => {
  await openStepTab(page);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: /Export to Perfetto/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^step-resnet-50-.*\.json$/);
  const path = await file.path();
  const trace = JSON.parse(readFileSync(path, "utf8")) as { traceEvents: { ph: string; name: string }[] };
  const names = trace.traceEvents.filter((e) => e.ph === "M").map((e) => e.name);
  expect(names).toContain("process_name");
  expect(names).toContain("thread_name");
  expect(trace.traceEvents.some((e) => e.ph === "X" && e.name.startsWith("all-reduce bucket"))).toBe(true);
  expect(trace.traceEvents.some((e) => e.ph === "s")).toBe(true);
});

test("the step view has no accessibility violations axe can find", async ({ page }) => {
  await openStepTab(page);
  await expect(page.getByTestId("sweep-best")).toBeVisible();
  const results = await new AxeBuilder({ page }).include(".view-layout").analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
});
