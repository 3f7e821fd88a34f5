/**
 * One step's knobs take what its own link takes, the bucket slider ends at the
 * cap its label names, and figures with nothing to divide by say "—" rather than NaN.
 */
import { expect, type Page, test } from "@playwright/test";
import { STEP_RANGES } from "../src/step/stepRanges.ts";
import { addressWrites, expectNoAddressWrite } from "./pageSignals.ts";

async function openStep(page: Page) {
  await page.goto("/#v=step");
  await expect(page.getByTestId("bucket-count")).toHaveText(/^\d+$/);
  await expect(page.getByTestId("step-time")).toHaveText(/\d/);
  return page.getByRole("complementary", { name: "Step knobs" });
}

const range = (min: number, max: number) =>
  `[${min.toLocaleString("en-US", { maximumFractionDigits: 6 })}, ${max.toLocaleString("en-US", { maximumFractionDigits: 6 })}]`;

const { computeMs, firstBucketMb, alphaSeconds, bandwidthBytesPerSecond } = STEP_RANGES;
const cases = [
  { label: /^Backward/, name: "Backward", typed: "1e308", range: range(computeMs.min, computeMs.max) },
  {
    label: /^First bucket/,
    name: "First bucket",
    typed: "1000",
    range: range(firstBucketMb.min, firstBucketMb.max),
  },
  { label: /^α/, name: "α", typed: "2000000", range: range(alphaSeconds.min * 1e6, alphaSeconds.max * 1e6) },
  {
    label: /^B\b/,
    name: "B",
    typed: "2000000",
    range: range(bandwidthBytesPerSecond.min / 1e9, bandwidthBytesPerSecond.max / 1e9),
  },
];

for (const c of cases) {
  test(`${c.name} ${c.typed} is refused by the knob, naming its range, and neither st= nor the step changes`, async ({
    page,
  }) => {
    const knobs = await openStep(page);
    const url = page.url();
    const writes = await addressWrites(page);
    const stepTime = await page.getByTestId("step-time").textContent();
    const field = knobs.getByRole("spinbutton", { name: c.label }).last();
    await field.fill(c.typed);
    await field.press("Enter");
    await expect(knobs.getByRole("alert").filter({ hasText: `${c.name}:` })).toContainText(c.range);
    await expectNoAddressWrite(page, writes);
    expect(page.url()).toBe(url);
    await expect(page.getByTestId("step-time")).toHaveText(stepTime ?? "");
  });
}

test("the bucket slider's last stop is the cap its end label names, and its first stop too", async ({
  page,
}) => {
  const knobs = await openStep(page);
  const slider = knobs.getByRole("slider", { name: /bucket_cap_mb/ });
  const max = await slider.getAttribute("max");
  await slider.fill(max ?? "");
  await expect(page.getByTestId("cap-value")).toHaveText(
    (await page.getByTestId("cap-max").textContent()) ?? "",
  );
  await expect(page.getByTestId("cap-value")).toHaveText("512 MiB");
  await slider.fill("0");
  await expect(page.getByTestId("cap-value")).toHaveText(
    (await page.getByTestId("cap-min").textContent()) ?? "",
  );
  // One step up from the bottom is a tenth of a MiB, not a hundredth.
  await slider.focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("cap-value")).toHaveText("0.60 MiB");
});

test("a step of 0 ms (no compute, one GPU) says its saving is — of it, not NaN %", async ({ page }) => {
  const knobs = await openStep(page);
  for (const [label, value] of [
    [/^GPUs per/, "1"],
    [/^(Replicas R|Nodes)/, "1"],
    [/^Forward/, "0"],
    [/^Backward/, "0"],
    [/^Optimizer/, "0"],
  ] as const) {
    const field = knobs.getByRole("spinbutton", { name: label });
    await field.fill(value);
    await field.press("Enter");
  }
  await expect(page.getByTestId("step-time")).toHaveText("0.000 ms");
  const metrics = page.getByRole("region", { name: "Step metrics" });
  await expect(metrics).toContainText("Saved by overlap");
  await expect(metrics).toContainText("—");
  await expect(metrics).not.toContainText("NaN");
});

test("a pasted list whose parameters are all empty is refused by name, not shown as NaN %", async ({
  page,
}) => {
  await openStep(page);
  await page.getByText("Paste your model's parameters").click();
  await page
    .getByLabel("Parameter list to paste")
    .fill(
      '[{"name": "a", "shape": [0], "dtype": "torch.float32"}, {"name": "b", "shape": [4, 0], "dtype": "torch.float32"}]',
    );
  await page.getByRole("button", { name: "Use pasted list" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "empty" })).toContainText(
    "Every parameter of the list is empty",
  );
  await expect(page.locator("body")).not.toContainText("NaN");
});
