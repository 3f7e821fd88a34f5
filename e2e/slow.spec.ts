/**
 * Slow hosts in the Cluster view (docs/model.md §6), as a person meets them: the
 * Greyhound preset's results, the badput bars' "Slow hosts" part in its own colour, and the
 * failure log's slow episodes as rows of their own, filtered by kind; with eviction on, the
 * evictions as rows of their own too. The filter is in the link.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";

const settled = (page: Page) => page.locator('section[aria-label="Results"][aria-busy="false"]');

/** Opens the Cluster view on the Greyhound preset and waits until its run is on screen. */
async function openGreyhound(page: Page) {
  await page.goto("/#v=cluster");
  await page.getByRole("button", { name: "Slow hosts as Greyhound reports them" }).click();
  await expect(page.getByTestId("preset-source")).toContainText("Greyhound (Alibaba), USENIX ATC '25");
  await expect(settled(page)).toBeVisible();
  // The views show the previous run until the preset's is drawn: wait for its slow rows.
  await expect(page.getByTestId("log-filter")).toBeVisible({ timeout: 30_000 });
}

const rows = (page: Page) => page.getByTestId("failure-log").locator("tbody tr:not(.spacer)");

/** The kinds of the rows in the DOM (the log is virtualised: those in view and a few more). */
const kindsShown = async (page: Page) =>
  new Set(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-kind"))));

/** "Slow episodes (83)" → 83. */
const countIn = async (page: Page, kind: string) =>
  Number(
    /\(([\d,]+)\)/
      .exec((await page.getByTestId(`log-filter-${kind}`).locator("..").textContent()) ?? "")?.[1]
      ?.replace(/,/g, ""),
  );

test("the Greyhound preset: results, the badput bars' slow part, and the failure log's slow rows and filter", async ({
  page,
}) => {
  await openGreyhound(page);
  // The results: every strategy has an ETTR, and each loses a share to slow hosts.
  for (const key of ["synchronous", "ftHsdp"]) {
    await expect(page.getByTestId(`ettr-${key}`)).toHaveText(/^\d{1,3}\.\d%$/);
    const seg = page.getByTestId(`badput-seg-${key}-slow`);
    await expect(seg).toBeVisible();
    // The preset is tuned so that slow hosts alone would leave 1/1.34 of the time: a large share,
    // less than 1 − 1/1.34 as failures take their own part of the same wall time.
    const share = Number(await seg.getAttribute("data-share"));
    expect(share).toBeGreaterThan(0.1);
    expect(share).toBeLessThan(0.4);
    await expect(seg).toHaveAttribute(
      "aria-label",
      /Slow hosts: \d+\.\d% of wall time, .*\. Training at a slow host's pace \(every step waits for the slowest\)\.$/,
    );
    // Its own colour: the slow category's, not another's.
    const colour = await seg.evaluate((el) => getComputedStyle(el).backgroundColor);
    const slowColour = await page.evaluate(() => {
      const probe = document.createElement("span");
      probe.style.backgroundColor = "var(--seg-slow)";
      document.body.append(probe);
      const c = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return c;
    });
    expect(colour).toBe(slowColour);
    const detection = page.getByTestId(`badput-seg-${key}-detection`);
    if (await detection.count())
      expect(await detection.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(colour);
  }
  await expect(page.locator(".badput-legend")).toContainText("Slow hosts");
  await page.getByTestId("badput-seg-ftHsdp-slow").hover();
  await expect(page.getByTestId("badput-active")).toContainText("FT-HSDP: Slow hosts:");

  // The failure log: slow episodes are rows of their own, beside the failures.
  const slowCount = await countIn(page, "slow");
  const failureCount = await countIn(page, "failure");
  expect(slowCount).toBeGreaterThan(10);
  expect(failureCount).toBeGreaterThan(10);
  // No eviction in this preset: none listed.
  expect(await countIn(page, "eviction")).toBe(0);
  expect(await kindsShown(page)).toEqual(new Set(["failure", "slow"]));
  const firstSlow = rows(page).and(page.locator('[data-kind="slow"]')).first();
  await expect(firstSlow).toContainText("slow host");
  await expect(firstSlow).toContainText("slow ×1.5");
  await expect(firstSlow).toContainText(/Slow ×1\.5 for [\d.]+ (s|min|h)(, to the run's end)?$/);

  // Filter: slow episodes only. The link says so.
  await page.getByTestId("log-filter-failure").uncheck();
  await expect(page).toHaveURL(/[#&]fl=slow,eviction(&|$)/);
  await expect.poll(() => kindsShown(page)).toEqual(new Set(["slow"]));
  await expect(page.getByTestId("failure-log")).toHaveAttribute(
    "aria-label",
    `Failure log, ${slowCount.toLocaleString("en-US")} slow episodes`,
  );
  // A slow row's time shows its episode on the timeline.
  await firstSlow.getByRole("button").click();
  await expect(page.getByTestId("timeline-window")).toHaveText(/^Showing /);
  // Failures only; then none, which says how to get rows back.
  await page.getByTestId("log-filter-failure").check();
  await page.getByTestId("log-filter-slow").uncheck();
  await expect.poll(() => kindsShown(page)).toEqual(new Set(["failure"]));
  await page.getByTestId("log-filter-failure").uncheck();
  await expect(page.getByTestId("failure-log-empty")).toHaveText(
    "No rows of the kinds chosen: tick one above.",
  );
  await expect(page).toHaveURL(/[#&]fl=eviction(&|$)/);
  // Back restores the filter before (failures shown).
  await page.goBack();
  await expect.poll(() => kindsShown(page)).toEqual(new Set(["failure"]));

  const result = await new AxeBuilder({ page }).include(".log-filter").include(".failure-log").analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
});

test("with eviction on, each eviction is a row of its own and the slow episode it ended says so", async ({
  page,
}) => {
  await openGreyhound(page);
  const evict = page.getByTestId("slow.evictAfterMinutes");
  await evict.fill("30");
  await evict.press("Enter");
  await expect(settled(page)).toBeVisible();
  await expect.poll(() => countIn(page, "eviction"), { timeout: 30_000 }).toBeGreaterThan(0);
  // Evictions only.
  await page.getByTestId("log-filter-failure").uncheck();
  await page.getByTestId("log-filter-slow").uncheck();
  await expect(page).toHaveURL(/[#&]fl=eviction(&|$)/);
  await expect.poll(() => kindsShown(page)).toEqual(new Set(["eviction"]));
  const first = rows(page).first();
  await expect(first).toContainText("eviction of a slow host");
  await expect(first).toContainText("at once");
  const at = (await first.getByRole("button").textContent()) ?? "";
  // Its slow episode's row names the eviction's time.
  await page.getByTestId("log-filter-slow").check();
  await expect(page.getByTestId("failure-log")).toContainText(`then evicted at ${at}`);
  // The link opens the same filter.
  const url = page.url();
  const other = await page.context().newPage();
  await other.goto(url);
  await expect(other.getByTestId("log-filter-failure")).not.toBeChecked({ timeout: 30_000 });
  await expect(other.getByTestId("log-filter-slow")).toBeChecked();
  await expect(other.getByTestId("log-filter-eviction")).toBeChecked();
});

test("a scenario without slow hosts lists its failures as before, with no filter; a bad fl= is refused by name", async ({
  page,
}) => {
  await page.goto("/#v=cluster&fl=slowness");
  await expect(page.getByTestId("link-error")).toContainText("fl=");
  await expect(page.getByTestId("failure-log")).toHaveAttribute("aria-label", /^Failure log, \d+ failures$/);
  await expect(page.getByTestId("log-filter")).toHaveCount(0);
  expect(await kindsShown(page)).toEqual(new Set(["failure"]));
});
