/**
 * Live training on its defaults (R = 4, 200 steps, one scheduled failure and its catch-up) in
 * every mode: Chromium's software adapter (SwiftShader) with one GPUDevice or one per replica,
 * and the CPU fallback; every check of the badge holds and the chart draws every run. And a
 * replica killed by the button while it trains recovers.
 */
import { expect, type Page, test } from "@playwright/test";
import { sealText } from "../src/link/sealedText.ts";

/** The address of the training view with these settings (t= carries its integrity check). */
const trainHash = (t: string) => `#v=train&t=${sealText(t)}`;

const RUNS = ["baseline", "ft-none", "ft-linear", "ft-sqrt", "sync"];

/** The view on its defaults: the address names nothing but the view. */
async function openTrain(page: Page, hash = "#v=train"): Promise<void> {
  await page.goto(`/${hash}`);
  await expect(page.getByTestId("train-start")).toBeEnabled({ timeout: 30_000 });
}

async function trainToTheEnd(page: Page): Promise<void> {
  await page.getByTestId("train-start").click();
  await expect(page.getByTestId("train-progress")).toContainText("Done", { timeout: 220_000 });
}

async function expectAllChecks(page: Page): Promise<void> {
  await expect(page.getByTestId("train-badge")).toHaveText("✓ verified");
  await expect(page.getByTestId("check-identical")).toContainText("0 mismatches");
  await expect(page.getByTestId("check-identical")).toContainText("catch-ups identical to their peer 3/3");
  await expect(page.getByTestId("check-identical")).toContainText(
    "rollbacks identical to the checkpoint 1/1",
  );
  await expect(page.getByTestId("check-reference")).toContainText("✓");
  await expect(page.getByTestId("check-end")).toContainText("✓");
  await expect(page.getByTestId("check-converges")).toContainText(/reached at step \d+/);
  // What the checks measured, for the record (the numbers a run's report quotes).
  for (const id of ["check-reference", "check-end", "check-converges"])
    console.log(await page.getByTestId(id).textContent());
  for (const panel of ["train-chart-time", "train-chart-steps"]) {
    const lines = page.getByTestId(panel).locator("path.train-line");
    await expect(lines).toHaveCount(RUNS.length);
    for (const id of RUNS)
      await expect(page.getByTestId(panel).locator(`path[data-run="${id}"]`)).toHaveCount(1);
  }
  // Replica 1 was down in the FT-HSDP lanes: red rectangles exist.
  await expect(
    page.getByTestId("train-lanes").locator("rect title", { hasText: "replica 1: down" }).first(),
  ).toBeAttached();
}

test("defaults, shared mode (software adapter): R = 4, 200 steps, a failure and a catch-up, verified", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await openTrain(page);
  await expect(page.getByTestId("adapter-badge")).toContainText("Software adapter");
  await expect(page.getByLabel("Mode")).toHaveValue("shared");
  await trainToTheEnd(page);
  await expectAllChecks(page);
  // The run's settings are in the link.
  expect(new URL(page.url()).hash).toContain(`t=${sealText("h64.r4.n200.lr0.1.k25.s1.pnls.f1@60+30")}`);
});

test("defaults, separate mode: a GPUDevice per replica, the catch-up copies through the host, verified", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await openTrain(page);
  await page.getByLabel("Mode").selectOption("separate");
  await trainToTheEnd(page);
  await expectAllChecks(page);
});

test("defaults, CPU fallback (no navigator.gpu): same run, same checks, and the page says so", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.addInitScript(() => {
    delete (Navigator.prototype as { gpu?: unknown }).gpu;
  });
  await openTrain(page);
  await expect(page.getByTestId("adapter-badge")).toContainText("CPU fallback");
  await expect(page.getByText("No WebGPU here: the replicas train on the CPU")).toBeVisible();
  await trainToTheEnd(page);
  await expectAllChecks(page);
});

test("Kill by button while training: the replica drops out, catches up, and the run verifies", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openTrain(page, trainHash("h32.r4.n100.lr0.1.k25.s2.pl.f"));
  await page.getByTestId("train-start").click();
  const kill = page.getByRole("button", { name: "Kill replica 2" });
  await expect(kill).toBeEnabled();
  // Kill once training is under way (a step is on the chart).
  await expect(page.getByTestId("train-progress")).toContainText(/step [1-9]/, { timeout: 60_000 });
  await kill.click();
  await expect(page.getByTestId("train-progress")).toContainText("Done", { timeout: 150_000 });
  await expect(page.getByTestId("train-badge")).toHaveText("✓ verified");
  await expect(page.getByTestId("check-identical")).toContainText("catch-ups identical to their peer 1/1");
  await expect(page.getByTestId("check-identical")).toContainText(
    "rollbacks identical to the checkpoint 1/1",
  );
  await expect(
    page.getByTestId("train-lanes").locator("rect title", { hasText: "replica 2: down" }).first(),
  ).toBeAttached();
});

test("Stop ends a run part-way; the badge says stopped and a new run can start", async ({ page }) => {
  await openTrain(page, trainHash("h32.r2.n800.lr0.1.k25.s4.pn.f"));
  await page.getByTestId("train-start").click();
  await expect(page.getByTestId("train-progress")).toContainText(/step [1-9]/, { timeout: 60_000 });
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByTestId("train-progress")).toContainText("Stopped");
  await expect(page.getByTestId("train-badge")).toHaveText("stopped");
  await expect(page.getByTestId("train-start")).toBeEnabled();
});
