/**
 * A policy's colour is one presentation unit (its registry entry), read by every
 * chart. With all four strategies selected, each policy's computed colour is the same on its
 * results card, its badput bar, the timeline's spare-pool legend, the goodput curve, the sweep's
 * line and the tornado's swatch, and the four differ, in the light and the dark theme.
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { policyOf } from "../src/sim/policies/index.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";
import { V3_POLICIES } from "../src/testing/scenario.arbitrary.ts";

// Small and failing often, with a limited spare pool (so the timeline draws each pool's line).
const all = parseScenario({
  name: "Colour test cluster",
  policies: [...V3_POLICIES],
  cluster: { gpus: 512, gpusPerHost: 8, replicas: 8 },
  failures: { perHostDay: 0.05 },
  training: { days: 5 },
  spares: { pool: "limited", hosts: 2, repairHours: 48 },
});

const css = (l: Locator, prop: string) =>
  l.evaluate((e, p) => getComputedStyle(e).getPropertyValue(p), prop).then((v) => v.trim());

/** What the browser computes for a CSS colour (the light theme's values are the registry's fallbacks). */
async function computed(page: Page, colour: string): Promise<string> {
  return page.evaluate((c) => {
    const probe = document.createElement("i");
    probe.style.color = c;
    document.body.append(probe);
    const v = getComputedStyle(probe).color;
    probe.remove();
    return v;
  }, colour);
}

/** Every place each policy's colour shows, as computed now. */
async function coloursOf(page: Page, key: string): Promise<Record<string, string>> {
  const label = policyOf(key).label;
  const card = page.getByRole("article", { name: `${label} results`, exact: true });
  const badput = page.locator(".badput-row").filter({ hasText: label }).first();
  return {
    card: await css(card, "border-top-color"),
    badputBar: await css(badput.locator(".badput-bar"), "border-left-color"),
    badputSwatch: await css(badput.locator(".policy-swatch"), "background-color"),
    goodput: await css(page.locator(`.gp-policy[data-policy=${key}]`), "stroke"),
    timelineLegend: await css(page.getByTestId(`legend-spares-${key}`), "background-color"),
    sweepLine: await css(page.getByTestId(`sweep-legend-${key}`).locator("line.mean"), "stroke"),
    sweepPoint: await css(page.getByTestId(`sweep-point-0-${key}`), "fill"),
    tornadoSwatch: await css(page.getByTestId(`tornado-swatch-${key}`), "background-color"),
  };
}

test("each policy's colour is the same on every chart, and the four differ, in both themes", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto(`/${encodeScenarioHash(all)}&v=cluster`);
  for (const key of V3_POLICIES) await expect(page.getByTestId(`ettr-${key}`)).toHaveText(/%/);
  await expect(page.getByTestId("legend-spares")).toBeVisible();

  await page.getByLabel("Sweep axis").selectOption("gpus");
  await page.getByLabel("Points", { exact: true }).fill("2");
  await page.getByLabel("Seeds per point").fill("4");
  await page.getByRole("button", { name: "Run sweep" }).click();
  await expect(page.getByTestId("sweep-status")).toHaveText(/Done/, { timeout: 60_000 });

  await page.getByTestId("tornado-seeds").fill("20");
  await page.getByTestId("tornado-run").click();
  await expect(page.getByTestId("tornado-status")).toHaveText(/^Done: \d+ scenarios/, { timeout: 120_000 });

  // The button names the theme a click switches to, so its label changes with the theme.
  const toggle = page.getByRole("button", { name: /(Dark|Light) theme$/ });
  const seen: Record<string, string[]> = {};
  for (const theme of ["light", "dark"] as const) {
    if ((await page.locator("html").getAttribute("data-theme")) !== theme) await toggle.click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    const each: string[] = [];
    for (const key of V3_POLICIES) {
      const places = await coloursOf(page, key);
      const values = Object.values(places);
      // One colour everywhere, and a real one (a missing --policy computes to black or none).
      expect(new Set(values), `${theme} ${key}: ${JSON.stringify(places)}`).toEqual(new Set([values[0]]));
      expect(values[0]).toMatch(/^rgb\(/);
      if (theme === "light") {
        const { fallback } = policyOf(key).colour;
        expect(values[0], `${key} is its registry colour`).toBe(await computed(page, fallback));
      }
      each.push(values[0] ?? "");
    }
    expect(new Set(each).size, `${theme}: ${each.join(" ")}`).toBe(V3_POLICIES.length);
    seen[theme] = each;
  }
  // The dark theme has its own policy colours (brighter on the dark panel).
  expect(seen.dark).not.toEqual(seen.light);
});
