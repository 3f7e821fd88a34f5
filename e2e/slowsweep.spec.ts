/**
 * How long to wait before dropping a slow replica: the Greyhound preset's sweep of
 * "Evict after" on the page. What the model gives (measured with 100 seeds, 12 points: no U): a
 * synchronous job loses at every delay (each eviction is a host failure, a whole-job restart), so
 * its curve rises towards never evicting; FT-HSDP gains most from evicting at once (a replica
 * restart ends the wait for the slowest replica), so its curve falls as the delay grows.
 */
// The test realm validates scenarios against the plug-in list, as the page and the CLI do.
import "../src/testing/registerPlugins.ts";
import { expect, test } from "@playwright/test";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { presetById } from "../src/sim/presets.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";
import { buildSweep } from "../src/sim/sweep/index.ts";

const preset = presetById("slow-greyhound");
if (!preset) throw new Error("no Greyhound preset");
const greyhound = parseScenario(preset.scenario);

test("a sweep of the eviction delay on the Greyhound preset: sync rises towards never, FT-HSDP falls from evicting at once", async ({
  page,
}) => {
  await page.goto(`/${encodeScenarioHash(greyhound)}&v=cluster`);
  const picker = page.getByLabel("Sweep axis");
  await expect(picker.locator("option[value='slow.evictAfterMinutes']")).toHaveText("Evict after (min)");
  await picker.selectOption("slow.evictAfterMinutes");
  await page.getByRole("spinbutton", { name: "Points", exact: true }).fill("4");
  await page.getByRole("spinbutton", { name: "Seeds per point" }).fill("20");
  await page.getByRole("button", { name: "Run sweep" }).click();
  await expect(page.getByTestId("sweep-status")).toHaveText(/^Done: 4 points × 20 seeds/, {
    timeout: 90_000,
  });
  const xs = buildSweep(greyhound, "slow.evictAfterMinutes", 4).map((p) => p.x);
  expect(xs).toEqual([1, 4.932, 24.33, 120]);
  const ettr = async (i: number, p: string) => {
    const label = await page.getByTestId(`sweep-point-${i}-${p}`).getAttribute("aria-label");
    expect(label, `${i} ${p}`).toMatch(/at Evict after [\d.]+: ETTR/);
    return Number(/ETTR ([\d.]+)%/.exec(label ?? "")?.[1]);
  };
  const sync = await Promise.all(xs.map((_, i) => ettr(i, "synchronous")));
  const ft = await Promise.all(xs.map((_, i) => ettr(i, "ftHsdp")));
  // Every point a number, and the two directions the model gives, end to end (8+ points apart at 100 seeds).
  for (const v of [...sync, ...ft]) expect(v).toBeGreaterThan(0);
  expect(sync[0]).toBeLessThan(sync[3] as number);
  expect(ft[0]).toBeGreaterThan(ft[3] as number);
});
