/**
 * Claims that ran ahead of the numbers, read on the page against the page's own numbers: a
 * cancelled sweep's sentence, a sweep link's ask, a replay's failure count and its long link,
 * "Use this fit"'s repair law and its feedback, a fitted link's origin, the story's chapter 3
 * drawn up to now and chapter 8's way to the Failure log, the phone's view tabs.
 * SHOTS=<folder> saves screenshots of each view at 1280×720 and 390×844.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { sweepParam } from "../src/link/sweepLink.ts";
import { fitLog } from "../src/sim/fit/fitLog.ts";
import { parseLog } from "../src/sim/fit/parseLog.ts";
import { presetById } from "../src/sim/presets.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";
import type { SweepAxisId } from "../src/sim/sweep/index.ts";
import { drawnLog, logEventList } from "../src/testing/engineLog.ts";

test.use({ viewport: { width: 1280, height: 720 }, permissions: ["clipboard-read", "clipboard-write"] });

const SHOTS = process.env.SHOTS;
async function shot(page: Page, name: string, at?: string): Promise<void> {
  if (!SHOTS) return;
  if (at) await page.getByTestId(at).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, `${name}-${page.viewportSize()?.width}.png`) });
  if (page.viewportSize()?.width !== 390) {
    const size = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    if (at) await page.getByTestId(at).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `${name}-390.png`) });
    if (size) await page.setViewportSize(size);
  }
}

const greyhound = parseScenario(presetById("slow-greyhound")?.scenario);
const EVICT = "slow.evictAfterMinutes" as SweepAxisId;
const num = (s: string) => Number(s.replace(/,/g, ""));

test("a cancelled sweep's best-at sentence is of the points done, and says so", async ({ page }) => {
  await page.goto(`/${encodeScenarioHash(greyhound)}&v=cluster`);
  await page.getByLabel("Sweep axis").selectOption(EVICT);
  await page.getByRole("spinbutton", { name: "Points", exact: true }).fill("20");
  await page.getByRole("spinbutton", { name: "Seeds per point" }).fill("200");
  await page.getByRole("button", { name: "Run sweep" }).click();
  // Two points drawn, then Cancel: most of the range is not done.
  await expect(
    page.locator('[data-testid^="sweep-point-"][data-testid$="-synchronous"]').nth(1),
  ).toBeAttached({
    timeout: 60_000,
  });
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("sweep-status")).toHaveText("Cancelled");
  const drawn = await page.locator('[data-testid^="sweep-point-"][data-testid$="-synchronous"]').count();
  expect(drawn).toBeLessThan(20);
  await expect(page.getByTestId("sweep-peaks-partial")).toHaveText(
    `Of the ${drawn} point${drawn === 1 ? "" : "s"} done out of 20 (the sweep was cancelled), not the whole range:`,
  );
  // The best of the points drawn, from their own labels.
  const points = await page
    .locator('[data-testid^="sweep-point-"][data-testid$="-synchronous"]')
    .evaluateAll((cs) => cs.map((c) => c.getAttribute("aria-label") ?? ""));
  const means = points.map((l) => Number(/ETTR ([\d.]+)%/.exec(l)?.[1]));
  const best = Math.max(...means);
  const words = page.getByTestId("sweep-peak-synchronous");
  await expect(words).toContainText(`Synchronous is best so far at `);
  await expect(words).toContainText(`: ${best.toFixed(1)} %`);
  await expect(words).not.toContainText("range");
  await shot(page, "sweep-cancelled", "sweep-peaks");
});

test("a sweep link whose estimate passes the stated threshold asks first, saying the estimate", async ({
  page,
}) => {
  const sw = sweepParam({ axis: EVICT, points: 20, seeds: 200, range: null, run: true });
  await page.goto(`/${encodeScenarioHash(greyhound)}&v=cluster&sw=${sw}`);
  const ask = page.getByTestId("sweep-confirm");
  await expect(ask).toBeVisible({ timeout: 30_000 });
  const threshold = Number(
    /passes (\d+) s on one core/.exec(
      (await page.getByTestId("link-run-threshold").textContent()) ?? "",
    )?.[1],
  );
  expect(threshold).toBe(10);
  const m = /about ([\d.]+) (s|min|h) on one core/.exec((await ask.textContent()) ?? "");
  expect(m).not.toBeNull();
  const seconds = Number(m?.[1]) * ({ s: 1, min: 60, h: 3600 }[m?.[2] as "s"] ?? 1);
  expect(seconds).toBeGreaterThan(threshold);
  await expect(ask).toContainText(`A link asks before a run estimated past ${threshold} s.`);
  // Nothing runs until asked.
  await expect(page.getByTestId("sweep-status")).not.toHaveText(/Running/);
  await shot(page, "sweep-link-asks", "sweep-confirm");
  await ask.getByRole("button", { name: "Not now" }).click();
  await expect(ask).toHaveCount(0);
});

/** A 60-day log of a 400-host fleet: 45 failures, 14 of them striking two hosts far apart. */
function splitLog(): string {
  const rows = ["time,host,cause"];
  for (let i = 0; i < 45; i++) {
    const t = (i + 0.5) * (59 / 45);
    rows.push(`${t},host-${(i * 7) % 400},GPU`);
    // A host of an earlier event: its index is not next to this event's new host's.
    if (i % 3 === 0 && i >= 3) rows.push(`${t},host-${((i - 2) * 7) % 400},GPU`);
  }
  return `${rows.join("\n")}\n`;
}

test("a replay says why its Failures exceed the log's events, and how long its link is", async ({ page }) => {
  const file = join(mkdtempSync(join(tmpdir(), "claims-")), "split-log.csv");
  writeFileSync(file, splitLog());
  await page.goto("/#v=cluster");
  const panel = page.getByRole("region", { name: "Failure log import" });
  await panel.getByTestId("fit-hosts").fill("400");
  await panel.getByTestId("fit-days").fill("60");
  await panel.getByTestId("fit-file-input").setInputFiles(file);
  await expect(panel.getByTestId("fit-rate")).toBeVisible({ timeout: 30_000 });
  const fitEvents = num(
    /([\d,]+) failures on 400 hosts/.exec((await panel.getByTestId("fit-rate").textContent()) ?? "")?.[1] ??
      "",
  );
  await panel.getByTestId("fit-replay-button").click();
  const line = page.getByTestId("replay-failure-count");
  await expect(line).toBeVisible({ timeout: 30_000 });
  const m =
    /^Failures ([\d,]+) on the cards: the log's ([\d,]+) events, of which ([\d,]+) struck hosts that are not side by side.*\(([\d,]+) in all\)/.exec(
      (await line.textContent()) ?? "",
    );
  expect(m).not.toBeNull();
  const [, shown, events, split, all] = (m as RegExpExecArray).map((x) => num(x ?? ""));
  // The log's events are the fit's failures; each split event adds a failure per run of hosts.
  expect(events).toBe(fitEvents);
  expect(split).toBeGreaterThan(0);
  expect(shown).toBe(all);
  expect(all).toBe((events ?? 0) + (split ?? 0));
  // The number on the cards is the one the line explains.
  const card = page.getByRole("article", { name: "FT-HSDP results" });
  await expect(card.getByTestId("card-failures-ftHsdp")).toHaveText((shown ?? 0).toLocaleString("en-US"));
  // And the card itself says why, beside the number.
  await expect(card.getByTestId("failures-note-ftHsdp")).toHaveText(
    `from the log's ${(events ?? 0).toLocaleString("en-US")} events: ${(split ?? 0).toLocaleString("en-US")} struck hosts not side by side, one failure per run of adjacent hosts`,
  );
  await expect(
    page.getByRole("article", { name: "Synchronous results" }).getByTestId("failures-note-synchronous"),
  ).toBeVisible();
  await shot(page, "replay-card", "card-failures-ftHsdp");
  await shot(page, "replay-count", "replay-failure-count");
  // Its link is long, and says how long: the scenario's characters in the address.
  const note = page.getByTestId("replay-link-long");
  const s = new URL(page.url()).hash.match(/[#&]s=([^&]*)/)?.[1] ?? "";
  if (s.length > 2000) {
    await expect(note).toContainText(`its scenario is ${s.length.toLocaleString("en-US")} characters`);
    await expect(note).toContainText(`the log's ${(events ?? 0).toLocaleString("en-US")} events`);
  } else await expect(note).toHaveCount(0);
});

/** A bursty 120-day log with repairs of minutes to weeks: the best-fitting lognormal's mean is far above the log's. */
const REPAIR_LOG = logEventList(
  drawnLog(
    {
      cluster: { gpus: 3200, gpusPerHost: 8, replicas: 4 },
      training: { days: 120 },
      failures: { perHostDay: 0.006, arrivals: "weibull", weibullShape: 0.6 },
    },
    4,
  ),
  (i) => (i % 10 === 0 ? 300 + 40 * (i % 7) : i % 3 === 0 ? 0.05 + 0.01 * (i % 5) : 12 + (i % 9)),
);

test("Use this fit: the repair law applied has the log's mean; the click says what changed; the link says it was fitted", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const fit = fitLog(parseLog(REPAIR_LOG), { hosts: 400 });
  const file = join(mkdtempSync(join(tmpdir(), "claims-")), "fleet-log.json");
  writeFileSync(file, REPAIR_LOG);
  await page.goto("/#v=cluster");
  const before = { sync: "", ft: "" };
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(/%$/);
  before.sync = (await page.getByTestId("ettr-synchronous").textContent()) ?? "";
  before.ft = (await page.getByTestId("ettr-ftHsdp").textContent()) ?? "";
  const panel = page.getByRole("region", { name: "Failure log import" });
  await panel.getByTestId("fit-hosts").fill("400");
  await panel.getByTestId("fit-file-input").setInputFiles(file);
  const words = panel.getByTestId("fit-use-words");
  await expect(words).toContainText("lognormal repairs", { timeout: 30_000 });
  const m =
    /median of ([\d.,]+) hours and σ ([\d.]+), so a mean of ([\d.,]+) hours, as the log's \(median ([\d.,]+) hours, mean ([\d.,]+) hours\).*best-fitting lognormal \(median ([\d.,]+) hours, σ ([\d.]+), the chart's\) has a mean of ([\d.,]+) hours/.exec(
      (await words.textContent()) ?? "",
    );
  expect(m, (await words.textContent()) ?? "").not.toBeNull();
  const [, median, sigma, mean, logMedian, logMean, mlMedian, mlSigma, mlMean] = (m as RegExpExecArray).map(
    (x) => num(x ?? ""),
  );
  const r = fit.repairs;
  if (!r?.lognormal) throw new Error("the fixture's log must have repairs");
  const g = (x: number) => Number(x.toPrecision(3));
  expect([logMedian, logMean]).toEqual([g(r.medianHours), g(r.meanHours)]);
  // The applied law's mean, from its own median and σ as written, is the log's (to the 3 digits shown).
  expect(mean).toBe(logMean);
  expect(((median ?? 0) * Math.exp((sigma ?? 0) ** 2 / 2)) / (logMean ?? 1)).toBeCloseTo(1, 1);
  // The best-fitting law's mean, from its median and σ as written, is far from the log's: the reason.
  expect(((mlMedian ?? 0) * Math.exp((mlSigma ?? 0) ** 2 / 2)) / (mlMean ?? 1)).toBeCloseTo(1, 1);
  expect(mlMean).toBeGreaterThan(1.5 * (logMean ?? 0));
  await shot(page, "fit-use-words", "fit-use-words");

  // Where it is clicked, the click says what changed: the ETTRs now on the cards, and before.
  await panel.getByTestId("fit-use").click();
  const applied = panel.getByTestId("fit-applied");
  await expect(applied).toContainText("Fit used. ETTR at seed", { timeout: 60_000 });
  const said = /Synchronous ([\d.]+%) \(was ([\d.]+%)\), FT-HSDP ([\d.]+%) \(was ([\d.]+%)\)/.exec(
    (await applied.textContent()) ?? "",
  );
  expect(said, (await applied.textContent()) ?? "").not.toBeNull();
  const [, syncNow, syncWas, ftNow, ftWas] = said as RegExpExecArray;
  expect([syncWas, ftWas]).toEqual([before.sync, before.ft]);
  // The cards above say the same, once they have drawn the fitted run.
  await expect(page.getByTestId("ettr-synchronous")).toHaveText(syncNow ?? "");
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(ftNow ?? "");
  await shot(page, "fit-applied", "fit-applied");
  await expect(page.getByTestId("fitted-source")).toContainText("Fitted to a failure log: fleet-log.json.");
  await shot(page, "fitted-source", "fitted-source");

  // Opened fresh from the link, the page says the scenario was fitted to that log.
  const fresh = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  await fresh.goto(page.url());
  await expect(fresh.getByTestId("fitted-source")).toContainText("Fitted to a failure log: fleet-log.json.");
  await page.goBack();
  await expect(page.getByTestId("fitted-source")).toHaveCount(0);
  await expect(panel.getByTestId("fit-applied")).toHaveCount(0);
});

test("chapter 3 draws its lanes only up to now: nothing right of the cursor at the Restart step", async ({
  page,
}) => {
  await page.goto("/#v=story&ch=lose-a-replica");
  const text = page.getByTestId("replay-text");
  const next = page.getByTestId("replay-next");
  await expect(next).toBeEnabled({ timeout: 30_000 });
  while (!/^Restart/.test((await text.textContent()) ?? "")) await next.click();
  const { cursor, rights } = await page.locator(".story-lanes").evaluate((svg) => {
    const line = svg.querySelector(".story-cursor");
    const rects = [...svg.querySelectorAll("rect")];
    return {
      cursor: Number(line?.getAttribute("x1")),
      rights: rects.map((r) => Number(r.getAttribute("x")) + Number(r.getAttribute("width"))),
    };
  });
  expect(rights.length).toBeGreaterThan(3);
  for (const right of rights) expect(right).toBeLessThanOrEqual(cursor + 0.5);
  await expect(page.getByTestId("replay-not-yet")).toBeVisible();
  await shot(page, "story-ch3-restart", "replay-text");
});

test("chapter 8 opens the Failure log panel, which lies at the end of the Cluster view", async ({ page }) => {
  await page.goto("/#v=story&ch=your-cluster");
  await page.getByTestId("open-failure-log").click();
  const heading = page.getByRole("heading", { name: "Failure log: fit the model to your fleet" });
  await expect(heading).toBeInViewport();
  await shot(page, "story-ch8-failure-log");
});

test("at 390 px every view's tab is on screen, whole", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/#v=cluster");
  const tabs = page.getByRole("tab");
  // Story, Cluster, One step, the lab, Live training and Papers.
  await expect(tabs).toHaveCount(6);
  for (const tab of await tabs.all()) {
    const box = await tab.boundingBox();
    expect(box, (await tab.textContent()) ?? "").not.toBeNull();
    expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
  }
  // A term's closing parenthesis stays on its line.
  const same = await page.locator(".term-tail").evaluateAll((ts) => ts.map((t) => t.getClientRects().length));
  expect(same.length).toBeGreaterThan(0);
  for (const n of same) expect(n).toBe(1);
  await shot(page, "tabs");
  await page.getByRole("tab", { name: "Live training" }).click();
  const help = page.getByTestId("train-failures-help");
  const value = await page.getByLabel("Failures (replica@step+down)").inputValue();
  const [replica, step, down] = /^(\d+)@(\d+)\+(\d+)/.exec(value)?.slice(1) ?? [];
  await expect(help).toHaveText(
    `${value.split(",")[0]}: replica ${replica} fails at step ${step} and is down for ${down} steps, then rejoins.`,
  );
});
