/**
 * One step's DiLoCo panel: its outer sync time, utilisations and needed bandwidths are those of
 * src/step/outerSync.ts for the model on screen; its inputs travel in the link; "Use in the
 * Cluster view" writes DiLoCo's fields into the cluster scenario as one edit that Back undoes.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { decodeScenarioLink } from "../src/link/scenarioLink.ts";
import { isPolicyKey } from "../src/sim/policies/policyKeys.ts";
import { DEFAULT_SCENARIO } from "../src/sim/scenario/index.ts";
import { syncSecondsForScenario } from "../src/state/outerSyncToCluster.ts";
import { parseModelList } from "../src/step/modelList.ts";
import { outerSyncFigures } from "../src/step/outerSync.ts";
import { DEFAULT_OUTER_SYNC, type OuterSyncSettings } from "../src/step/outerSyncSettings.ts";
import { DEFAULT_STEP_CONFIG, presetInfo } from "../src/step/presetCatalog.ts";
import { pct } from "../src/ui/format.ts";
import { neededText, syncTimeText } from "../src/ui/step/outerSyncText.ts";

const SHOTS = "shots";

/** The default model (ResNet-50 on 4 nodes), as the pure module sees it. */
function expected(outer: OuterSyncSettings) {
  const list = readFileSync(new URL("../src/step/models/resnet50.json", import.meta.url), "utf8");
  const bytes = parseModelList(list).reduce((s, p) => s + p.bytes, 0);
  const c = presetInfo("resnet50").compute;
  const stepSeconds = (c.forwardMs + c.backwardMs + c.optimizerMs) / 1e3;
  return outerSyncFigures({ bytes, replicas: DEFAULT_STEP_CONFIG.parallel.replicas, stepSeconds }, outer);
}

async function openStep(page: Page, hash = "#v=step") {
  await page.goto(`/${hash}`);
  await expect(page.getByTestId("bucket-count")).toHaveText(/^\d+$/);
  await expect(page.getByTestId("outer-sync-table")).toBeVisible();
}

async function expectFigures(page: Page, outer: OuterSyncSettings) {
  const f = expected(outer);
  await expect(page.getByTestId("outer-sync-seconds")).toHaveText(syncTimeText(f.syncSeconds));
  for (const s of f.strategies) {
    await expect(page.getByTestId(`outer-util-${s.strategy.id}`)).toHaveText(pct(s.utilisation));
    for (const [i, b] of s.needed.entries())
      await expect(page.getByTestId(`outer-need-${s.strategy.id}-${i}`)).toHaveText(neededText(b));
  }
  return f;
}

async function setField(page: Page, testId: string, value: string) {
  const field = page.getByTestId(testId);
  await field.fill(value);
  await field.press("Enter");
}

test("the panel's figures are the outer-sync formulas' for the model on screen, and follow its inputs", async ({
  page,
}) => {
  await openStep(page);
  const f = await expectFigures(page, DEFAULT_OUTER_SYNC);
  // DiLoCo syncs 100× less often than data parallelism: it needs less bandwidth for 90 %.
  expect(f.strategies[1]!.needed[1]!).toBeLessThan(f.strategies[0]!.needed[1]!);
  // A slow, far link: 100 MB/s and 50 ms. DP's 99 % then needs more than α leaves: "—".
  await setField(page, "outer-bandwidth", "0.1");
  await setField(page, "outer-alpha", "50");
  await setField(page, "outer-sync-every", "500");
  const slow: OuterSyncSettings = { link: { alpha: 0.05, bandwidth: 1e8 }, syncEvery: 500, overlapSteps: 5 };
  const g = await expectFigures(page, slow);
  expect(g.strategies[0]!.needed[2]).toBeNull();
  await expect(page.getByTestId("outer-need-dp-2")).toHaveText("—");
  await expect(page.getByText(/"—": no bandwidth is enough, as α \(50 ms\) alone/)).toBeVisible();
  // τ ≥ H is refused by name and changes nothing.
  await setField(page, "outer-overlap", "500");
  await expect(page.getByText("overlap τ (500) must be below sync every H (500)")).toBeVisible();
  await expectFigures(page, slow);
  // The link carries the inputs: opened afresh, the same figures.
  await setField(page, "outer-overlap", "40");
  const streaming = { ...slow, overlapSteps: 40 };
  await expectFigures(page, streaming);
  await expect(page).toHaveURL(/st=2\./);
  const url = page.url();
  await page.goto("about:blank");
  await page.goto(url);
  await expect(page.getByTestId("outer-sync-table")).toBeVisible();
  await expectFigures(page, streaming);
});

test("Use in the Cluster view writes DiLoCo's sync into the cluster scenario, and Back undoes it", async ({
  page,
}) => {
  await openStep(page);
  await setField(page, "outer-overlap", "10");
  const outer = { ...DEFAULT_OUTER_SYNC, overlapSteps: 10 };
  const f = await expectFigures(page, outer);
  const T = syncSecondsForScenario(f.syncSeconds);
  await expect(page.getByTestId("outer-sync-use-words")).toContainText(
    `Sets DiLoCo's sync time ${syncTimeText(f.syncSeconds)}, H = 100 and τ = 10 on the Cluster view's scenario`,
  );
  await page.getByTestId("outer-sync-use").click();
  await expect(page).toHaveURL(/v=cluster/);
  const scenario = decodeScenarioLink(page.url());
  expect(scenario?.diloco).toMatchObject({ syncSeconds: T, syncEvery: 100, overlapSteps: 10 });
  // DiLoCo joins the strategies where this build can run it (its policy is a plug-in).
  expect((scenario?.policies as readonly string[] | undefined)?.includes("diloco")).toBe(
    isPolicyKey("diloco"),
  );
  // The Cluster view's knobs show what was written.
  const knob = page.getByRole("spinbutton", { name: /Outer sync \(T\)/ });
  await expect(knob).toHaveValue(String(T));
  await expect(page.getByRole("spinbutton", { name: /Overlap \(τ\)/ })).toHaveValue("10");
  await knob.scrollIntoViewIfNeeded();
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/outersync-cluster-1400.png` });
  // Back: the One step view, and the scenario as it was (no DiLoCo field off its default).
  await page.goBack();
  await expect(page).toHaveURL(/v=step/);
  await expect(page.getByTestId("outer-sync-table")).toBeVisible();
  const back = decodeScenarioLink(page.url()) ?? DEFAULT_SCENARIO;
  expect(back.diloco.syncSeconds).toBe(DEFAULT_SCENARIO.diloco.syncSeconds);
});

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
]) {
  test(`the panel fits ${viewport.width} px (screenshot in shots/)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await openStep(page);
    const panel = page.getByRole("region", { name: "DiLoCo outer sync" });
    await panel.scrollIntoViewIfNeeded();
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, "the page scrolls sideways").toBeLessThanOrEqual(innerWidth);
    mkdirSync(SHOTS, { recursive: true });
    await panel.screenshot({ path: `${SHOTS}/outersync-${viewport.width}.png` });
    await page.screenshot({ path: `${SHOTS}/outersync-page-${viewport.width}.png` });
  });
}
