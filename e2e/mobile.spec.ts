/**
 * Phones and small screens: at 390 × 844 every view's results stay uncovered (what sits at the
 * centre of each result is that result), the page never scrolls sideways, and the knobs live in a
 * drawer that opens and closes. Also writes a screenshot of every view at 1280 × 720 and
 * 390 × 844 into shots/ (git-ignored), for a person to look at, checking on the way that the
 * Story and Live training views do not scroll sideways either.
 */
import { mkdirSync } from "node:fs";
import { expect, type Locator, type Page, test } from "@playwright/test";

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 720 };
const SHOTS = "shots";

/** Scrolls the element into view and asks the page what is drawn at its centre. */
async function expectUncovered(el: Locator, what: string) {
  await el.scrollIntoViewIfNeeded();
  const hit = await el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {
      ok: top !== null && (top === node || node.contains(top)),
      found: top ? `${top.tagName.toLowerCase()}.${top.className}` : "nothing",
    };
  });
  expect(hit.ok, `${what} is covered by ${hit.found}`).toBe(true);
}

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, "the page scrolls sideways").toBeLessThanOrEqual(innerWidth);
}

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  const { width } = page.viewportSize() ?? LAPTOP;
  await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: width < 600 });
}

async function openCluster(page: Page) {
  await page.goto("/#v=cluster");
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(/%/);
  await expect(page.getByTestId("timeline-canvas")).toBeVisible();
  await expect(page.getByTestId("goodput-chart")).toBeVisible();
}

test.describe("at 390 × 844", () => {
  test.use({ viewport: PHONE, hasTouch: true });

  test("Cluster: the knobs are a drawer above the results, and nothing covers the results", async ({
    page,
  }) => {
    await openCluster(page);
    for (const [testId, what] of [
      ["ettr-synchronous", "the synchronous ETTR card"],
      ["ettr-ftHsdp", "the FT-HSDP ETTR card"],
      ["timeline-canvas", "the timeline"],
      ["goodput-chart", "the goodput chart"],
      ["failure-log", "the failure log"],
    ] as const)
      await expectUncovered(page.getByTestId(testId), what);
    await expectNoSidewaysScroll(page);

    const toggle = page.getByRole("button", { name: /Show scenario knobs/ });
    const replicas = page.getByTestId("cluster.replicas");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(replicas).toBeHidden();

    // Open the drawer, change a knob, see the result change; the results are still uncovered.
    await toggle.click();
    await expect(page.getByRole("button", { name: /Hide scenario knobs/ })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    const before = await page.getByTestId("ettr-ftHsdp").textContent();
    await replicas.fill("2");
    await expect(page.getByTestId("ettr-ftHsdp")).not.toHaveText(before ?? "");
    await expectUncovered(page.getByTestId("ettr-ftHsdp"), "the FT-HSDP ETTR card, drawer open");
    await expectUncovered(page.getByTestId("timeline-canvas"), "the timeline, drawer open");
    await expectNoSidewaysScroll(page);
    await page.getByRole("button", { name: /Hide scenario knobs/ }).click();
    await expect(replicas).toBeHidden();

    // The replay works on a phone too: its read-out and the timeline stay uncovered and inside the page.
    const play = page.getByTestId("replay-play");
    await play.scrollIntoViewIfNeeded();
    await play.tap();
    const canvas = page.getByTestId("timeline-canvas");
    await expect.poll(async () => Number(await canvas.getAttribute("data-cursor"))).toBeGreaterThan(0);
    await play.tap();
    await expect(play).toHaveAttribute("aria-pressed", "false");
    await expectUncovered(page.getByTestId("replay-readout"), "the replay read-out");
    await expectUncovered(canvas, "the timeline, replaying");
    await expectNoSidewaysScroll(page);
  });

  test("One step: the Gantt, the sweep and the bucket table fit, uncovered", async ({ page }) => {
    await page.goto("/#v=step");
    await expect(page.getByTestId("bucket-count")).toHaveText(/^\d+$/);
    await expect(page.getByRole("button", { name: /Show step knobs/ })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
    const gantt = page.getByRole("img", { name: /Gantt of the step/ });
    await expectUncovered(gantt, "the step Gantt");
    const box = await gantt.boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(PHONE.width);
    await expectUncovered(
      page.getByRole("region", { name: "Buckets" }).getByRole("table"),
      "the bucket table",
    );
    await expectNoSidewaysScroll(page);
  });

  test("WebGPU lab: the results table and the rings fit, uncovered", async ({ page }) => {
    await page.goto("/#v=lab");
    const run = page.getByRole("region", { name: "Run a collective" });
    await expect(run.getByRole("button", { name: "Run", exact: true })).toBeEnabled({ timeout: 30_000 });
    await expectNoSidewaysScroll(page);
    await run.getByLabel("Size / device").selectOption({ label: "4 KiB" });
    await run.getByRole("button", { name: "Run", exact: true }).click();
    const table = run.getByRole("table", { name: "Results" });
    await expect(table.locator("tbody tr")).toHaveCount(1, { timeout: 30_000 });
    await expectUncovered(table, "the lab's results table");
    await expectUncovered(page.getByRole("img", { name: /Ring before the fault/ }), "the ring diagram");
    await expectNoSidewaysScroll(page);
  });
});

test.describe("screenshots", () => {
  for (const viewport of [LAPTOP, PHONE]) {
    test(`every view at ${viewport.width} × ${viewport.height}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await openCluster(page);
      await shot(page, "cluster");
      await page.goto("/#v=step");
      await expect(page.getByTestId("bucket-count")).toHaveText(/^\d+$/);
      await shot(page, "step");
      await page.goto("/#v=lab");
      await expect(page.getByRole("button", { name: "Run", exact: true })).toBeEnabled({ timeout: 30_000 });
      await shot(page, "lab");
      await page.goto("/#v=story");
      await expect(page.getByTestId("story-chapter")).toBeVisible();
      await expectNoSidewaysScroll(page);
      await shot(page, "story");
      await page.goto("/#v=train");
      await expect(page.getByTestId("train-start")).toBeVisible();
      await expectNoSidewaysScroll(page);
      await shot(page, "train");
    });
  }
});
