/**
 * The One step view's slow rank, as a person uses it: pick a slow backward or a
 * slow link, read the longer step, the hatched waits and the sentence of what it added; copy the
 * link and open it afresh. The expected figures come from the step model itself, run here on the
 * same preset and settings, and written as the view writes them.
 */
import { readFileSync } from "node:fs";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { encodeStepPayload } from "../src/link/stepLink.ts";
import { validateModelList } from "../src/step/modelList.ts";
import { DEFAULT_STEP_CONFIG } from "../src/step/presetCatalog.ts";
import type { SlowRank } from "../src/step/slowRank.ts";
import { slowRankSentence } from "../src/step/slowRankText.ts";
import { runStep } from "../src/step/stepTimeline.ts";
import { ms } from "../src/ui/step/units.ts";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

/** ResNet-50's list as presets.ts reads it (Playwright cannot import JSON modules). */
const resnet50 = validateModelList(
  JSON.parse(readFileSync(new URL("../src/step/models/resnet50.json", import.meta.url), "utf8")),
);

/** The default model (ResNet-50 on 4 × 8 GPUs) with this slow rank: its step time and sentence. */
function expected(slowRank: SlowRank) {
  const config = { ...DEFAULT_STEP_CONFIG, slowRank };
  const r = runStep(resnet50, config);
  return {
    stepTime: ms(r.metrics.stepMs),
    sentence: slowRankSentence(config, r, ms) ?? "",
    effect: r.slowRank,
  };
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

const knobs = (page: Page) => page.getByRole("group", { name: "A slow rank" });

test("a slow rank makes every all-reduce wait: the longer step, the hatched waits and the link", async ({
  page,
  browser,
}) => {
  await page.goto("/#v=step");
  const even = expected({ kind: "none", factor: 1.5 });
  await expect(page.getByTestId("step-time")).toHaveText(even.stepTime);
  await expect(page.getByTestId("slow-rank-line")).toHaveCount(0);
  await expect(page.getByTestId("step-wait")).toHaveCount(0);
  await expect(knobs(page).getByLabel("Slowdown factor")).toBeDisabled();

  // A rank at 1.5× backward (the factor's default).
  await knobs(page).getByText("Slow backward", { exact: true }).click();
  const compute = expected({ kind: "compute", factor: 1.5 });
  expect(compute.effect?.exposedWaitMs).toBeGreaterThan(0);
  await expect(page.getByTestId("step-time")).toHaveText(compute.stepTime);
  await expect(page.getByTestId("slow-rank-line")).toHaveText(compute.sentence);
  expect(compute.sentence).toMatch(
    /^One rank \(rank 31 of 32\) at 1\.5× backward makes every all-reduce wait/,
  );
  // Both timelines (with and without overlap) hatch their waits, and the legend names the rank.
  await expect(page.getByTestId("step-wait")).toHaveCount(2);
  await expect(page.getByTestId("step-wait-legend")).toContainText("hatched: waiting for rank 31");
  await expect(page.getByRole("heading", { name: /a healthy GPU; rank 31 is slow/ })).toBeVisible();

  // 3× backward: a longer step still, as the model says.
  await knobs(page).getByLabel("Slowdown factor").fill("3");
  await knobs(page).getByLabel("Slowdown factor").blur();
  const compute3 = expected({ kind: "compute", factor: 3 });
  await expect(page.getByTestId("step-time")).toHaveText(compute3.stepTime);
  await expect(page.getByTestId("slow-rank-line")).toHaveText(compute3.sentence);

  // Out of range: refused where typed, naming the range; the step stays.
  await knobs(page).getByLabel("Slowdown factor").fill("101");
  await knobs(page).getByLabel("Slowdown factor").blur();
  await expect(knobs(page)).toContainText("[1, 100]");
  await expect(page.getByTestId("step-time")).toHaveText(compute3.stepTime);
  await knobs(page).getByLabel("Slowdown factor").fill("2");
  await knobs(page).getByLabel("Slowdown factor").blur();

  // A slow link at 1/2 of its bandwidth.
  await knobs(page).getByText("Slow link", { exact: true }).click();
  const link = expected({ kind: "link", factor: 2 });
  await expect(page.getByTestId("step-time")).toHaveText(link.stepTime);
  await expect(page.getByTestId("slow-rank-line")).toHaveText(link.sentence);
  expect(link.sentence).toMatch(/100 Gb\/s Ethernet link across nodes at 1\/2 of its bandwidth/);
  await expect(page.getByTestId("step-wait-legend")).toContainText("slow link's pace");

  // The link carries it: a fresh browser shows the same step, sentence and knob.
  const copied = await copyLink(page);
  expect(copied).toMatch(/#.*v=step.*&st=2\./);
  const other = await openFresh(browser, copied);
  await expect(other.getByTestId("step-time")).toHaveText(link.stepTime);
  await expect(other.getByTestId("slow-rank-line")).toHaveText(link.sentence);
  await expect(knobs(other).getByRole("radio", { name: "Slow link" })).toBeChecked();
  await expect(knobs(other).getByLabel("Slowdown factor")).toHaveValue("2");
  await expect(other.getByTestId("link-error")).toHaveCount(0);

  // None again: the step as it was.
  await knobs(page).getByText("None", { exact: true }).click();
  await expect(page.getByTestId("step-time")).toHaveText(even.stepTime);
  await expect(page.getByTestId("slow-rank-line")).toHaveCount(0);
});

test("a link with a slowdown out of range names the field and opens with none", async ({ page }) => {
  await page.goto(`/#v=step&st=${encodeStepPayload({ slowRank: { kind: "compute", factor: 101 } })}`);
  await expect(page.getByTestId("link-error")).toContainText(/slowRank\.factor: Too big/);
  await expect(page.getByTestId("step-time")).toHaveText(expected({ kind: "none", factor: 1.5 }).stepTime);
  await expect(knobs(page).getByRole("radio", { name: "None" })).toBeChecked();
});
