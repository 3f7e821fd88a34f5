/**
 * The Cluster view's "Failure log" panel (docs/model.md §5), as a person uses it: open a log the
 * engine drew (InfiniteHBD's event-list format), read the fit in words, use it (Back undoes it),
 * copy the link and open it fresh: the same scenario, the same numbers. A refused log is named.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { runScenario } from "../src/sim/engine.ts";
import { fitText } from "../src/sim/fit/fitFile.ts";
import { fitLog } from "../src/sim/fit/fitLog.ts";
import { parseLog } from "../src/sim/fit/parseLog.ts";
import { nthPercentile, placeAmong } from "../src/sim/fit/replayPercentile.ts";
import { replayPair } from "../src/sim/fit/replayScenarios.ts";
import { seedOf } from "../src/sim/monteCarlo/monteCarlo.ts";
import { DEFAULT_SCENARIO } from "../src/sim/scenario/index.ts";
import { drawnLog, logEventList } from "../src/testing/engineLog.ts";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

/** A bursty (k = 0.6) 120-day log of a 400-host fleet with two causes, drawn by the engine. */
const LOG = logEventList(
  drawnLog(
    {
      cluster: { gpus: 3200, gpusPerHost: 8, replicas: 4 },
      training: { days: 120 },
      failures: {
        perHostDay: 0.006,
        arrivals: "weibull",
        weibullShape: 0.6,
        causes: [
          { name: "GPU", share: 3, scope: "host", hang: false, newHost: true },
          { name: "NIC", share: 1, scope: "host", hang: false, newHost: true },
        ],
      },
    },
    4,
  ),
);
const FIT = fitLog(parseLog(LOG), { hosts: 400 });
const logFile = join(mkdtempSync(join(tmpdir(), "fitlog-")), "fleet-log.json");
writeFileSync(logFile, LOG);

const settled = (page: Page) => page.locator('section[aria-label="Results"][aria-busy="false"]');

async function ettr(page: Page): Promise<string | null> {
  await expect(settled(page)).toBeVisible();
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(/%$/);
  return page.getByTestId("ettr-ftHsdp").textContent();
}

async function copyLink(page: Page): Promise<string> {
  await page.getByTestId("copy-link").click();
  const shown = page.getByLabel("Share link");
  await expect(page.getByRole("status").filter({ hasText: "Link copied" }).or(shown)).toBeVisible();
  if (await shown.isVisible()) return shown.inputValue();
  return page.evaluate(() => navigator.clipboard.readText());
}

async function openFresh(browser: Browser, link: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  return page;
}

test("a log is fitted in words and charts, used as an edit Back undoes, and its link reopens the same numbers", async ({
  page,
  browser,
}) => {
  // Four runs of the cluster and a fresh page: more than the default minute on a loaded machine.
  test.setTimeout(150_000);
  await page.goto("/#v=cluster");
  const before = await ettr(page);
  const panel = page.getByRole("region", { name: "Failure log import" });
  await panel.getByTestId("fit-hosts").fill("400");
  await panel.getByTestId("fit-file-input").setInputFiles(logFile);

  // The figures are the library's, in words.
  await expect(panel.getByTestId("fit-file")).toHaveText("fleet-log.json");
  await expect(panel.getByTestId("fit-arrivals")).toContainText("Bursty: failures cluster.");
  // What bursty means for this fleet, before any Weibull shape.
  await expect(panel.getByTestId("fit-bursty-fleet")).toContainText(
    /^On this fleet, [\d.]+ % of failures came less than an hour after the one before/,
  );
  const k = FIT.weibull!;
  const g = (x: number) => Number(x.toPrecision(2)).toLocaleString("en-US");
  await expect(panel.getByTestId("fit-arrivals")).toContainText(
    `In the fit's terms: a Weibull shape of ${g(k.shape)} (95 % sure it lies between ${g(k.shapeLo)} and ${g(k.shapeHi)})`,
  );
  const rate = Number(FIT.perHostDay!.toPrecision(3)).toLocaleString("en-US", {
    maximumSignificantDigits: 3,
  });
  await expect(panel.getByTestId("fit-rate")).toContainText(
    `${FIT.bursts.toLocaleString("en-US")} failures on 400 hosts`,
  );
  await expect(panel.getByTestId("fit-rate")).toContainText(`${rate} per host-day`);
  await expect(panel.getByTestId("fit-causes")).toContainText("GPU");
  await expect(panel.getByTestId("fit-notes")).toContainText("Not estimated: repairs.");
  await expect(panel.locator(".fit-chart")).toHaveCount(3);
  const axe = await new AxeBuilder({ page }).include(".failure-log-import").analyze();
  const bad = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

  // Use this fit: one edit; the knobs show the fitted rate and shape; Back undoes it.
  await panel.getByTestId("fit-use").click();
  await expect(page.getByTestId("failures.perHostDay")).toHaveValue(
    String(Number(FIT.perHostDay!.toPrecision(6))),
  );
  await expect(page.getByTestId("failures.weibullShape")).toHaveValue(String(Number(k.shape.toPrecision(6))));
  // The fitted scenario's own run replaces the one before (a new rate: a new number).
  await expect(page.getByTestId("ettr-ftHsdp")).not.toHaveText(before!);
  const fitted = await ettr(page);
  const link = await copyLink(page);

  await page.goBack();
  await expect(page.getByTestId("failures.perHostDay")).toHaveValue("0.00651");
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(before!);
  await page.goForward();
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(fitted!);

  const fresh = await openFresh(browser, link);
  await expect(fresh.getByTestId("ettr-ftHsdp")).toHaveText(fitted!);
  await expect(fresh.getByTestId("failures.perHostDay")).toHaveValue(
    String(Number(FIT.perHostDay!.toPrecision(6))),
  );
});

/** The page's numbers, computed here by the engine from the same file: the replay and the model. */
function expectedReplay() {
  const o = fitText(LOG, { unit: "days", name: "fleet-log.json", hosts: 400 });
  if (!o.ok || !o.replay.ok) throw new Error("the fixture's log must fit and replay");
  return replayPair(DEFAULT_SCENARIO, o.scenario, o.replay.log);
}

/** Each strategy's words once the model's runs are done: the log's value and its percentile. */
async function replayWords(page: Page): Promise<string[]> {
  const block = page.getByTestId("fit-replay");
  await expect(block).toHaveAttribute("data-done", "true", { timeout: 60_000 });
  return block.locator("li").allTextContents();
}

test("Replay the log: the log's failures on its fleet beside the model's runs, its percentile, an edit Back undoes, a link that reopens the same numbers", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { model, replay } = expectedReplay();
  const run = runScenario(replay);
  await page.goto("/#v=cluster");
  const before = await ettr(page);
  const panel = page.getByRole("region", { name: "Failure log import" });
  await panel.getByTestId("fit-hosts").fill("400");
  await panel.getByTestId("fit-file-input").setInputFiles(logFile);
  await expect(panel.getByTestId("fit-arrivals")).toContainText("Bursty: failures cluster.");
  await panel.getByTestId("fit-replay-button").click();

  // The scenario on screen is the replay on the log's 400 hosts: one value per strategy, the engine's.
  await expect(page.getByTestId("ettr-replay-ftHsdp")).toBeVisible();
  for (const p of replay.policies) {
    const value = `${(run[p]!.ettr * 100).toFixed(1)}%`;
    await expect(page.getByTestId(`ettr-${p}`)).toHaveText(value);
    await expect(panel.getByTestId(`fit-replay-log-${p}`)).toHaveText(value);
  }
  await expect(page.getByTestId("baseline-pinned")).toContainText("Model fitted to fleet-log.json");
  const words = await replayWords(page);

  // The percentile is where the log's value falls among the model's runs (seeds 0 … n − 1).
  const n = Number((await panel.getByTestId("fit-replay-runs").textContent())!.replace(/\D/g, ""));
  expect(n).toBeGreaterThanOrEqual(100);
  const runs = Array.from({ length: n }, (_, i) => runScenario(model, { seed: seedOf(model, i) }));
  for (const p of replay.policies) {
    const place = placeAmong(
      runs.map((r) => r[p]!.ettr),
      run[p]!.ettr,
    )!;
    await expect(panel.getByTestId(`fit-replay-pct-${p}`)).toContainText(
      `fell at the ${nthPercentile(place)} percentile of the model's ${n.toLocaleString("en-US")} runs`,
    );
  }
  const link = await copyLink(page);
  expect(link).toContain("base=");

  // One edit: Back returns the scenario and the pin before it.
  await page.goBack();
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(before!);
  await expect(page.getByTestId("baseline-pinned")).toHaveCount(0);
  await expect(panel.getByTestId("fit-replay")).toHaveCount(0);

  // The link opened fresh: the same replay, the same model, the same words.
  const fresh = await openFresh(browser, link);
  expect(await replayWords(fresh)).toEqual(words);
  await expect(fresh.getByTestId("ettr-ftHsdp")).toHaveText(`${(run.ftHsdp!.ettr * 100).toFixed(1)}%`);
});

test("a refused log is named by its event and the problem; nothing changes", async ({ page }) => {
  await page.goto("/#v=cluster");
  const before = await ettr(page);
  const bad = join(mkdtempSync(join(tmpdir(), "fitlog-")), "bad.json");
  writeFileSync(
    bad,
    JSON.stringify([
      { node_id: "a", event_time: 1, event_type: "fault_start" },
      { node_id: "a", event_time: 2, event_type: "fault_begin" },
    ]),
  );
  const panel = page.getByRole("region", { name: "Failure log import" });
  await panel.getByTestId("fit-file-input").setInputFiles(bad);
  await expect(panel.getByTestId("fit-error")).toHaveText(
    'This log was not fitted: event 2: unknown event_type "fault_begin"; "fault_start" or "fault_end".',
  );
  await expect(panel.getByTestId("fit-use")).toHaveCount(0);
  expect(await ettr(page)).toBe(before);

  // A counts table is fitted (rate and mix) but has nothing to replay: said, and nothing changes.
  const counts = join(mkdtempSync(join(tmpdir(), "fitlog-")), "llama.json");
  writeFileSync(
    counts,
    JSON.stringify({ gpus: 16_384, gpusPerHost: 8, days: 54, causes: { GPU: 268, other: 151 } }),
  );
  await panel.getByTestId("fit-file-input").setInputFiles(counts);
  await panel.getByTestId("fit-replay-button").click();
  await expect(panel.getByTestId("fit-replay-error")).toHaveText(
    "The log was not replayed: a counts table has no times or hosts to replay.",
  );
  await expect(page.getByTestId("baseline-pinned")).toHaveCount(0);
  expect(await ettr(page)).toBe(before);
  expect(page.url()).not.toContain("base=");
});

test.describe("at 390 × 844", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test("the fitted log's words, charts and replay fit the phone's width", async ({ page }) => {
    await page.goto("/#v=cluster");
    const panel = page.getByRole("region", { name: "Failure log import" });
    await panel.getByTestId("fit-hosts").fill("400");
    await panel.getByTestId("fit-file-input").setInputFiles(logFile);
    await expect(panel.getByTestId("fit-arrivals")).toContainText("Bursty: failures cluster.");
    await expect(panel.locator(".fit-chart")).toHaveCount(3);
    await panel.getByTestId("fit-replay-button").click();
    await expect(panel.getByTestId("fit-replay")).toHaveAttribute("data-done", "true", { timeout: 60_000 });
    await expect(panel.locator(".fit-replay-strip")).toHaveCount(2);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, "the page scrolls sideways").toBeLessThanOrEqual(innerWidth);
    const chart = await panel.locator(".fit-chart svg").first().boundingBox();
    expect(chart!.width).toBeLessThanOrEqual(390);
  });
});
