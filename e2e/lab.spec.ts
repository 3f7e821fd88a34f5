/**
 * The WebGPU lab in Chromium's software adapter (SwiftShader): real kernels, every run checked
 * against the float64 reference, FTAR's recovery from a killed device, and the CPU fallback.
 * Sizes stay small so the suite is quick on two cores; the property tests cover odd sizes.
 */
import { existsSync } from "node:fs";
import { chromium, expect, type Locator, type Page, test } from "@playwright/test";

async function openLab(page: Page, query = ""): Promise<{ run: Locator; fault: Locator }> {
  await page.goto(`/${query}#v=lab`);
  const run = page.getByRole("region", { name: "Run a collective" });
  const fault = page.getByRole("region", { name: "FTAR under a fault" });
  await expect(run.getByRole("button", { name: "Run", exact: true })).toBeEnabled({ timeout: 30_000 });
  return { run, fault };
}

/** Runs the form's collective and returns the new (top) row of the results table. */
async function runOnce(run: Locator): Promise<Locator> {
  const rows = run.getByRole("table", { name: "Results" }).locator("tbody tr");
  const before = await rows.count();
  await run.getByRole("button", { name: "Run", exact: true }).click();
  await expect(rows).toHaveCount(before + 1, { timeout: 30_000 });
  return rows.first();
}

const KiB = 1024;

for (const mode of ["shared", "separate"] as const) {
  test(`${mode} mode: ring, halving-doubling${mode === "shared" ? " and one-shot" : ""} verified for 2, 4 and 8 devices`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { run } = await openLab(page);
    await expect(page.getByTestId("adapter-badge")).toContainText("Software adapter");
    await run.getByLabel("Mode").selectOption({ value: mode });
    const algorithms =
      mode === "shared" ? ["ring", "halving-doubling", "one-shot"] : ["ring", "halving-doubling"];
    const sizes: Record<number, number[]> = {
      2: [4 * KiB, 256 * KiB],
      4: [16 * KiB, 1024 * KiB],
      8: [4 * KiB, 64 * KiB],
    };
    for (const devices of [2, 4, 8]) {
      await run.getByLabel("Devices", { exact: true }).fill(String(devices));
      for (const size of sizes[devices] ?? []) {
        await run.getByLabel("Size / device").selectOption(String(size));
        for (const algorithm of algorithms) {
          await run.getByLabel("Algorithm").selectOption(algorithm);
          const row = await runOnce(run);
          const cells = row.locator("td");
          await expect(cells.nth(0)).toHaveText(mode);
          await expect(cells.nth(1)).toHaveText(algorithm);
          await expect(cells.nth(2)).toHaveText(String(devices));
          await expect(cells.nth(8)).toHaveText("✓ verified");
          // algbw and busbw are measured, positive figures, in the unit their header names.
          await expect(cells.nth(5)).toHaveText(/^\d[\d,]*(\.\d+)?$/);
          await expect(cells.nth(5)).not.toHaveText(/^0(\.0*)?$/);
          await expect(run.getByRole("columnheader", { name: /^algbw \([kMG]B\/s\)$/ })).toBeVisible();
        }
      }
    }
    // The chart draws one line per algorithm run at the chosen mode and device count.
    await expect(page.getByRole("img", { name: `busbw vs size, ${mode} mode, 8 devices` })).toBeVisible();
    await expect(page.locator(".lab-chart path")).toHaveCount(algorithms.length);
  });
}

test("reduce-scatter and all-gather alone are verified too", async ({ page }) => {
  const { run } = await openLab(page);
  await run.getByLabel("Devices", { exact: true }).fill("4");
  for (const algorithm of ["reduce-scatter", "all-gather"]) {
    await run.getByLabel("Algorithm").selectOption(algorithm);
    const row = await runOnce(run);
    await expect(row.locator("td").nth(8)).toHaveText("✓ verified");
  }
});

test("FTAR: a device killed at a chosen step is dropped and the survivors get their average", async ({
  page,
}) => {
  const { fault } = await openLab(page);
  await fault.getByLabel("Devices", { exact: true }).selectOption("6");
  await fault.getByLabel("Victim").selectOption("2");
  await fault.getByLabel("Kill at step").selectOption({ label: "4" });
  await fault.getByLabel("Slow motion").uncheck();
  await fault.getByRole("button", { name: "Run fault demo" }).click();
  const result = page.getByTestId("fault-result");
  await expect(result).toContainText("✓", { timeout: 30_000 });
  await expect(result).toContainText("Ring 0·1·2·3·4·5 → 0·1·3·4·5 (dropped 2)");
  await expect(result).toContainText("result verified equal to the survivors' average");
  await expect(result).toContainText(/recovered in \d+ ms/);
  const log = fault.getByRole("list", { name: "Fault demo log" });
  await expect(log).toContainText("Device 2 killed before step 4");
  await expect(log).toContainText("Timeout: step 4 did not complete within");
  await expect(log).toContainText("Attempt 2: ring 0 → 1 → 3 → 4 → 5 → 0");
});

test("FTAR in separate mode: the Kill button during a slowed-down ring", async ({ page }) => {
  const { fault } = await openLab(page);
  await fault.getByLabel("Mode").selectOption("separate");
  // Six devices: eleven slowed-down steps leave seconds to press the button in.
  await fault.getByLabel("Devices", { exact: true }).selectOption("6");
  await fault.getByLabel("Victim").selectOption("1");
  await fault.getByLabel("Kill at step").selectOption("button");
  await fault.getByLabel("Slow motion").check();
  await fault.getByRole("button", { name: "Run fault demo" }).click();
  const kill = fault.getByRole("button", { name: "Kill device 1" });
  await expect(kill).toBeEnabled({ timeout: 15_000 });
  await kill.click();
  const result = page.getByTestId("fault-result");
  await expect(result).toContainText("(dropped 1)", { timeout: 30_000 });
  await expect(result).toContainText("result verified equal to the survivors' average");
  await expect(fault.getByRole("img", { name: /ring 0 → 2 → 3 → 4 → 5$/ })).toBeVisible();
  await expect(kill).toBeDisabled();
});

test("CPU fallback when the page has no navigator.gpu: the badge says so and runs still verify", async ({
  page,
}) => {
  await page.addInitScript(() => {
    delete (Navigator.prototype as { gpu?: unknown }).gpu;
  });
  const { run } = await openLab(page);
  await expect(page.getByTestId("adapter-badge")).toContainText("CPU fallback");
  await expect(run.getByLabel("Mode").locator("option")).toHaveText(["CPU typed arrays"]);
  await run.getByLabel("Devices", { exact: true }).fill("8");
  for (const algorithm of ["ring", "halving-doubling", "one-shot"]) {
    await run.getByLabel("Algorithm").selectOption(algorithm);
    const row = await runOnce(run);
    await expect(row.locator("td").nth(0)).toHaveText("cpu");
    await expect(row.locator("td").nth(8)).toHaveText("✓ verified");
  }
});

test("Chromium without --enable-unsafe-webgpu (no adapter) falls back to the CPU; the fault demo still recovers", async ({
  baseURL,
}) => {
  const executablePath = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
    (p): p is string => !!p && existsSync(p),
  );
  // A browser of its own: launch options are per worker, and this one must lack the WebGPU flag.
  const browser = await chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: ["--no-sandbox"],
  });
  try {
    const page = await browser.newPage({ baseURL, viewport: { width: 1400, height: 900 } });
    const { run, fault } = await openLab(page);
    await expect(page.getByTestId("adapter-badge")).toContainText("CPU fallback");
    const row = await runOnce(run);
    await expect(row.locator("td").nth(8)).toHaveText("✓ verified");
    await fault.getByLabel("Slow motion").uncheck();
    await fault.getByRole("button", { name: "Run fault demo" }).click();
    await expect(page.getByTestId("fault-result")).toContainText(
      "result verified equal to the survivors' average",
      {
        timeout: 30_000,
      },
    );
  } finally {
    await browser.close();
  }
});

test("FTAR at normal speed: Kill re-forms the ring, or the page says the ring finished first", async ({
  page,
}) => {
  const { fault } = await openLab(page);
  // Eight devices of 4 MiB: fourteen steps on the software adapter, long enough to press in.
  await fault.getByLabel("Devices", { exact: true }).selectOption("8");
  await fault.getByLabel("Size / device").selectOption({ label: "4 MiB" });
  await fault.getByLabel("Victim").selectOption("3");
  await fault.getByLabel("Kill at step").selectOption("button");
  await fault.getByLabel("Slow motion").uncheck();
  await fault.getByRole("button", { name: "Run fault demo" }).click();
  const kill = fault.getByRole("button", { name: "Kill device 3" });
  await expect(kill).toBeEnabled({ timeout: 15_000 });
  await kill.click();
  const result = page.getByTestId("fault-result");
  await expect(result).toContainText("result verified equal to the survivors' average", { timeout: 30_000 });
  // Either the press landed between two steps, or the ring was done first and the page says so.
  const text = await result.textContent();
  // Which of the two happened, for whoever reads the report.
  test.info().annotations.push({
    type: "kill",
    description: text?.includes("(dropped 3)") ? "landed mid-ring" : "ring finished first",
  });
  if (text?.includes("(dropped 3)")) {
    await expect(fault.getByRole("list", { name: "Fault demo log" })).toContainText(
      "Device 3 killed before step",
    );
    await expect(fault.getByTestId("kill-note")).toHaveCount(0);
  } else {
    await expect(result).toContainText("(no fault happened)");
    await expect(fault.getByTestId("kill-note")).toHaveText(
      "The ring finished before the kill arrived; use slow motion to kill mid-collective.",
    );
  }
});

test("the fault demo shows its steps on a bar, and Cancel stops it", async ({ page }) => {
  const { fault } = await openLab(page);
  await fault.getByLabel("Kill at step").selectOption("button");
  await fault.getByLabel("Slow motion").check();
  await fault.getByRole("button", { name: "Run fault demo" }).click();
  const bar = fault.getByRole("progressbar", { name: "Fault demo" });
  // Six devices in slow motion: about five seconds, step by step.
  await expect(fault.locator(".lab-job output")).toContainText(/attempt 1: step [1-9]\d* \/ 11/, {
    timeout: 15_000,
  });
  await expect(bar).toHaveAttribute("max", "11");
  await fault.getByRole("button", { name: "Cancel" }).click();
  await expect(fault.getByText("Cancelled.")).toBeVisible();
  await expect(bar).toHaveCount(0);
  await expect(page.getByTestId("fault-result")).toHaveCount(0);
  await expect(fault.getByRole("button", { name: "Run fault demo" })).toBeEnabled();
});

test("a long run shows its progress, and Cancel stops it between runs", async ({ page }) => {
  const { run } = await openLab(page);
  // 4 × 16 MiB: the first run also measures the adapter's ceilings, seconds on the software adapter.
  await run.getByLabel("Devices", { exact: true }).fill("4");
  await run.getByLabel("Size / device").selectOption({ label: "16 MiB" });
  await run.getByRole("button", { name: "Run", exact: true }).click();
  await expect(run.getByRole("progressbar", { name: "Run" })).toBeVisible();
  await run.getByRole("button", { name: "Cancel" }).click();
  await expect(run.getByText("Cancelled.")).toBeVisible({ timeout: 30_000 });
  await expect(run.getByRole("table", { name: "Results" }).locator("tbody tr")).toHaveCount(0);
  await expect(run.getByRole("button", { name: "Run", exact: true })).toBeEnabled();
});

test("a lab worker that crashes mid-demo is replaced, the page says so, and the demo runs again", async ({
  page,
}) => {
  const { fault } = await openLab(page);
  await fault.getByLabel("Kill at step").selectOption({ label: "4" });
  await fault.getByLabel("Slow motion").check();
  await fault.getByRole("button", { name: "Run fault demo" }).click();
  // Crash it between the first steps and the kill at step 4 (slow motion: ~0.5 s a step).
  await expect(fault.locator(".lab-job output")).toContainText(/attempt 1: step [1-3] \/ 11/, {
    timeout: 15_000,
  });
  const lab = page.workers().find((w) => w.url().includes("gpu.worker"));
  expect(lab).toBeDefined();
  // An uncaught error inside the worker: what a bug or a broken driver call would throw.
  await lab?.evaluate(() => {
    setTimeout(() => {
      throw new Error("e2e: the lab worker crashed");
    });
  });
  await expect(page.getByTestId("worker-notice")).toContainText("The WebGPU lab worker died");
  const result = page.getByTestId("fault-result");
  await expect(result).toContainText("(dropped 3)", { timeout: 30_000 });
  await expect(result).toContainText("result verified equal to the survivors' average");
  await expect(fault.getByText(/The lab's worker died .*run again/)).toBeVisible();
});
