/**
 * Live training on its defaults (R = 4, 200 steps, one scheduled failure and its catch-up) in
 * every mode: Chromium's software adapter (SwiftShader) with one GPUDevice or one per replica,
 * and the CPU fallback; every check of the badge holds and the chart draws every run. And a
 * replica killed by the button while it trains recovers.
 */
import { type Browser, expect, type Page, test } from "@playwright/test";
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

/** The runs table as on screen: per run its step, simulated wall time, held-out loss and accuracy. */
function runsTable(page: Page): Promise<string[]> {
  return page.getByRole("table", { name: "Runs" }).locator("tbody tr").allInnerTexts();
}

/** The link opened in a new browser context: no state shared with the page that made it. */
async function openFresh(browser: Browser, link: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  return page;
}

/** The fresh page trains by itself (nobody presses Start) and shows what the first one showed. */
async function expectSameRun(fresh: Page, seen: { table: string[]; failures: string; badge: string }) {
  await expect(fresh.getByTestId("train-progress")).toContainText("Done", { timeout: 150_000 });
  await expect(fresh.getByLabel("Failures (replica@step+down)")).toHaveValue(seen.failures);
  expect(await runsTable(fresh)).toEqual(seen.table);
  await expect(fresh.getByTestId("train-badge")).toHaveText(seen.badge);
}

async function seenOn(page: Page) {
  return {
    table: await runsTable(page),
    failures: await page.getByLabel("Failures (replica@step+down)").inputValue(),
    badge: (await page.getByTestId("train-badge").textContent()) ?? "",
  };
}

test("a replica killed by button joins the link's failures; the link trains the same run at once", async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  await openTrain(page, trainHash("h32.r4.n60.lr0.1.k10.s2.pl.f"));
  await page.getByTestId("train-start").click();
  await expect(page.getByTestId("train-progress")).toContainText(/step [1-9]/, { timeout: 60_000 });
  await page.getByRole("button", { name: "Kill replica 2" }).click();
  await expect(page.getByTestId("train-progress")).toContainText("Done", { timeout: 150_000 });
  // The kill is now a scheduled failure (20 steps down: the schedule had none to copy).
  await expect(page.getByLabel("Failures (replica@step+down)")).toHaveValue(/^2@\d+\+20$/);
  const seen = await seenOn(page);
  expect(seen.table).toHaveLength(3);
  await expect.poll(() => new URL(page.url()).hash).toContain("tr=1");
  await expectSameRun(await openFresh(browser, page.url()), seen);
});

test("the training mode is in the link, and a finished run's link reruns it in that mode", async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  await openTrain(page, trainHash("h32.r3.n40.lr0.1.k10.s3.pl.f2@20+10"));
  await page.getByLabel("Mode").selectOption("separate");
  await trainToTheEnd(page);
  const seen = await seenOn(page);
  await expect.poll(() => new URL(page.url()).hash).toContain("tr=1");
  const link = page.url();
  expect(new URL(link).hash).toContain("tm=separate");
  const fresh = await openFresh(browser, link);
  await expect(fresh.getByLabel("Mode")).toHaveValue("separate");
  await expectSameRun(fresh, seen);
});
