import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

/**
 * Every claim on screen is true for the scenario on screen: sentences about
 * the current scenario follow it, and a closed form shows a number only where it applies.
 */

test("default scenario (checkpoint interval 0): nothing claims a rollback that does not happen", async ({
  page,
}) => {
  await page.goto("/#v=cluster");
  await expect(page.getByTestId("ettr-synchronous")).toHaveText(/%$/);
  await expect(page.getByTestId("intro-sync-rollback")).toHaveText(/rolls nothing back/);
  await expect(page.getByTestId("intro-sync-rollback")).not.toContainText("last checkpoint");
  const explainer = page.getByTestId("loss-explainer");
  await expect(explainer).toContainText("Why does the synchronous job lose only its stalls here?");
  await expect(explainer).toContainText("nothing is hatched");
  await expect(page.getByText("Why does the synchronous job lose more than its stall?")).toHaveCount(0);
  await expect(page.getByText(/no work is lost: with a checkpoint interval of 0/)).toBeVisible();
  await expect(page.getByText(/rolls back to its last checkpoint/)).toHaveCount(0);
});

test("checkpoints on: the page says the job rolls back, and how much it lost in this run", async ({
  page,
}) => {
  await page.goto("/#v=cluster");
  await expect(page.getByTestId("ettr-synchronous")).toHaveText(/%$/);
  await page.getByTestId("sync.checkpointWriteSeconds").fill("10");
  await page.getByTestId("sync.checkpointMinutes").fill("30");
  await expect(page.getByTestId("intro-sync-rollback")).toHaveText(
    "rolls back to its last checkpoint (one every 30 min)",
  );
  const explainer = page.getByTestId("loss-explainer");
  await expect(explainer).toContainText("Why does the synchronous job lose more than its stall?");
  // The run's own figures, as the details table shows them.
  await expect(explainer).toContainText(
    /in this run, [\d.]+ (h|d|min) of training rolled back and [\d,]+ checkpoint writes/,
  );
  await expect(page.getByText(/lost work is training rolled back to the last checkpoint/)).toBeVisible();
});

test("closed forms: each row says what it assumes, and — with the reason where the scenario breaks it", async ({
  page,
}) => {
  await page.goto("/#v=cluster");
  await expect(page.getByTestId("ettr-synchronous")).toHaveText(/%$/);
  // The default is Poisson with no checkpoints: the exact forms apply, the fixed-arrival one does not.
  await expect(page.getByTestId("cf-poisson-synchronous")).toContainText(/\d%/);
  await expect(page.getByTestId("cf-fixed-synchronous")).toContainText("—");
  await expect(page.getByTestId("cf-fixed-synchronous")).toContainText("Poisson arrivals");
  await expect(page.getByText(/Assumes a failure exactly every τ/)).toBeVisible();
  // A limited spare pool breaks every Poisson form: no number stays beside the simulation.
  await page.getByTestId("spares.pool").selectOption("limited");
  for (const id of ["cf-poisson-synchronous", "cf-v2-synchronous", "cf-v2-ftHsdp"]) {
    await expect(page.getByTestId(id)).toContainText("—");
    await expect(page.getByTestId(id)).toContainText("limited spare pool");
  }
});

test("a year-long run (~29,000 failures) exports to Perfetto, sized first, without a long task", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto("/#v=cluster");
  await expect(page.getByTestId("ettr-synchronous")).toHaveText(/%$/);
  await page.getByTestId("training.days").fill("365");
  await expect(page.getByTestId("gain")).toContainText(/Over 365(\.0)? days/, { timeout: 120_000 });
  await expect(page.getByRole("button", { name: /Perfetto trace/ })).toBeEnabled({ timeout: 120_000 });
  // Watch for main-thread tasks over 200 ms from here on (Chromium's Long Tasks API).
  await page.evaluate(() => {
    const w = window as unknown as { longest: number };
    w.longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longest = Math.max(w.longest, e.duration);
    }).observe({ type: "longtask" });
  });
  await page.getByRole("button", { name: /Perfetto trace/ }).click();
  // Nothing is zoomed: the whole run is the only window, and its size is said before saving.
  await expect(page.getByTestId("perfetto-size")).toHaveText(/[\d.]+ MB, [\d,]+ events\./, {
    timeout: 120_000,
  });
  const longest = await page.evaluate(() => (window as unknown as { longest: number }).longest);
  test.info().annotations.push({ type: "longest task while building (ms)", description: String(longest) });
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: /^Save \d/ }).click();
  const file = await (await download).path();
  const { statSync } = await import("node:fs");
  expect(statSync(file).size).toBeGreaterThan(10_000_000);
});

test("with the timeline zoomed, the export offers the visible window by default and is smaller", async ({
  page,
}) => {
  await page.goto("/#v=cluster");
  await expect(page.getByTestId("ettr-synchronous")).toHaveText(/%$/);
  await page.getByTestId("timeline-canvas").focus();
  await page.keyboard.press("+");
  await page.keyboard.press("+");
  await expect(page.getByTestId("timeline-window")).toContainText("Showing");
  await page.getByRole("button", { name: /Perfetto trace/ }).click();
  await expect(page.getByLabel(/The visible window/)).toBeChecked();
  const size = page.getByTestId("perfetto-size");
  await expect(size).toHaveText(/events\./);
  const events = async () =>
    Number((await size.textContent())?.match(/([\d,]+) events/)?.[1]?.replace(/,/g, ""));
  const visible = await events();
  await page.getByLabel(/The whole run/).check();
  await expect(size).toHaveText(/events\./);
  await expect.poll(events).toBeGreaterThan(visible);
});

test("one list, one step: resnet50.json pasted gives the ResNet-50 preset's step, and says where its times come from", async ({
  page,
}) => {
  await page.goto("/#v=step");
  await expect(page.getByTestId("bucket-count")).toHaveText(/^\d+$/);
  const presetStep = await page.getByTestId("step-time").textContent();
  await expect(page.getByTestId("compute-origin")).toContainText("ResNet-50's times");
  const text = readFileSync(new URL("../src/step/models/resnet50.json", import.meta.url), "utf8");
  await page.getByText("Paste your model's parameters").click();
  await page.getByLabel("Parameter list to paste").fill(text);
  await page.getByRole("button", { name: "Use pasted list" }).click();
  await expect(page.getByText(/^pasted model: 161 parameters/)).toBeVisible();
  await expect(page.getByTestId("compute-origin")).toContainText("your pasted list is that preset's list");
  await expect(page.getByTestId("step-time")).toHaveText(presetStep ?? "");
});

test("racks say they do nothing until a rack-scope cause exists; then the results show replicas struck per failure", async ({
  page,
}) => {
  await page.goto("/#v=cluster");
  await expect(page.getByTestId("ettr-synchronous")).toHaveText(/%$/);
  await expect(page.getByTestId("rack-note")).toContainText("change nothing yet");
  await expect(page.getByTestId("struck-per-failure")).toHaveCount(0);
  await page.getByRole("button", { name: /Rack failures, striped/ }).click();
  await expect(page.getByTestId("rack-note")).toHaveCount(0);
  await expect(page.getByTestId("struck-per-failure")).toContainText("striped placement");
  await expect(page.getByTestId("struck-per-failure")).toContainText("at most 8");
});

test("the Story has a classroom link whose checklist names controls in words", async ({ page }) => {
  await page.goto("/#v=story&ch=gradients");
  // The list is read from the page when opened: once the chapter's figure (and its control) is in.
  await expect(page.getByTestId("gradients-step")).toBeVisible({ timeout: 60_000 });
  await page.getByText("Classroom link: hide controls").click();
  const list = page.locator(".classroom-link ul");
  await expect(list).toContainText("bucket_cap_mb");
  await expect(list).not.toContainText("story.capMb");
});
