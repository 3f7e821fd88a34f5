/**
 * The page shows any selection of strategies: a link selecting all four draws
 * one lane group per selected policy, in the link's order, and its replay and failure log work;
 * a link selecting only in-memory checkpoints draws that one lane. No console errors.
 */
// The test realm validates scenarios against the plug-in list, as the page and the CLI do.
import "../src/testing/registerPlugins.ts";
import { expect, type Page, test } from "@playwright/test";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";

const base = {
  cluster: { gpus: 2048, gpusPerHost: 8, replicas: 16 },
  training: { days: 2 },
  failures: { perHostDay: 0.05 },
  sync: { checkpointMinutes: 30, checkpointWriteSeconds: 20 },
};

function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}

/** The top of each whole-job lane, by its canvas attribute (null when the run has none). */
async function laneY(page: Page, attr: string): Promise<number | null> {
  const v = await page.getByTestId("timeline-canvas").getAttribute(attr);
  return v === null ? null : Number(v.split(",")[0]);
}

test("a link selecting all four strategies: a lane group per policy in its order; replay and failure log work", async ({
  page,
}) => {
  const errors = errorsOf(page);
  const s = parseScenario({ ...base, policies: ["hotSpare", "synchronous", "ftHsdp", "inMemory"] });
  await page.goto(`/${encodeScenarioHash(s)}&v=cluster`);
  const canvas = page.getByTestId("timeline-canvas");
  await expect(canvas).toHaveAttribute("data-lane-in-memory", /\d/);
  const hot = await laneY(page, "data-lane-hot-spare");
  const sync = await laneY(page, "data-lane-synchronous");
  const mem = await laneY(page, "data-lane-in-memory");
  const ft = Number(((await canvas.getAttribute("data-replica-lanes-ft-hsdp")) ?? "").split(",")[0]);
  expect(hot).not.toBeNull();
  // In the link's order, top to bottom: hot spares, synchronous, FT-HSDP's replica lanes, in-memory.
  expect(hot!).toBeLessThan(sync!);
  expect(sync!).toBeLessThan(ft);
  expect(ft).toBeLessThan(mem!);
  await expect(canvas).toHaveAttribute(
    "aria-label",
    /the hot spares job, the synchronous job, \d+ FT-HSDP replicas and the in-memory checkpoints job/,
  );

  // The failure log has a recovery bar per policy on each row, in the same order.
  const log = page.getByTestId("failure-log");
  const heads = await log.getByRole("columnheader").allTextContents();
  expect(heads.filter((h) => h.startsWith("Recovery: "))).toEqual([
    "Recovery: Hot spares",
    "Recovery: Synchronous",
    "Recovery: FT-HSDP",
    "Recovery: In-memory checkpoints",
  ]);
  for (const key of ["hotSpare", "synchronous", "ftHsdp", "inMemory"])
    await expect(log.getByTestId(`recovery-${key}-0`)).toBeVisible();

  // The replay: a counter per policy, each moving as the cursor does.
  await page.getByTestId("replay-play").click();
  await expect(page.getByTestId("replay-readout")).toBeVisible();
  for (const key of ["hotSpare", "synchronous", "ftHsdp", "inMemory"])
    await expect(page.getByTestId(`replay-useful-${key}`)).toHaveText(/\d+\.\d\d h/);
  await expect(page.getByTestId("replay-useful-inMemory")).not.toHaveText("0.00 h");
  await page.getByTestId("replay-play").click();

  await page.setViewportSize({ width: 1280, height: 720 });
  await canvas.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("four-policies-1280.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await canvas.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("four-policies-390.png") });
  expect(errors).toEqual([]);
});

test("a link selecting only in-memory checkpoints: its one lane, its replay counter and its failure-log column", async ({
  page,
}) => {
  const errors = errorsOf(page);
  const s = parseScenario({ ...base, policies: ["inMemory"] });
  await page.goto(`/${encodeScenarioHash(s)}&v=cluster`);
  const canvas = page.getByTestId("timeline-canvas");
  await expect(canvas).toHaveAttribute("data-lane-in-memory", /\d/);
  await expect(canvas).not.toHaveAttribute("data-lane-synchronous", /./);
  await expect(canvas).not.toHaveAttribute("data-replica-lanes-ft-hsdp", /./);
  const heads = await page.getByTestId("failure-log").getByRole("columnheader").allTextContents();
  expect(heads.filter((h) => h.startsWith("Recovery: "))).toEqual(["Recovery: In-memory checkpoints"]);
  await page.getByTestId("replay-play").click();
  await expect(page.getByTestId("replay-useful-inMemory")).toHaveText(/\d+\.\d\d h/);
  await expect(page.getByTestId("replay-phase-detect")).toHaveCount(0);
  expect(errors).toEqual([]);
});
