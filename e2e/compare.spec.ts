/**
 * "Compare with…" in the Cluster view: a pasted link becomes the baseline, the panel lists the
 * knobs that differ and each strategy's ETTR both ways with the difference the cards show, and the
 * page's own link reopens the same comparison with the same numbers.
 */
import { expect, type Page, test } from "@playwright/test";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { runScenario } from "../src/sim/engine.ts";
import { seedOf } from "../src/sim/monteCarlo/mcSummary.ts";
import { parseScenario, type Scenario } from "../src/sim/scenario/index.ts";
import { BADPUT_CATEGORIES, type BadputCategory } from "../src/sim/types.ts";
import { shareText } from "../src/ui/cluster/badputPairs.ts";

const SMALL = { cluster: { gpus: 4096, replicas: 8 }, training: { days: 3 }, seed: 11 };
const A = parseScenario(SMALL);
const B = parseScenario({ ...SMALL, sync: { restartSeconds: 900 } });
const POLICIES = B.policies;
/** Where the panel's screenshots go (SHOTS=folder to keep them elsewhere). */
const SHOTS = process.env.SHOTS ?? "/tmp/compare-scn";

/** Each of the first n seeds' badput shares, one engine run a seed: [policy][category][run]. */
function perSeedBadput(s: Scenario, n: number): Record<string, Record<BadputCategory, number[]>> {
  const out: Record<string, Record<BadputCategory, number[]>> = {};
  for (const p of s.policies)
    out[p] = Object.fromEntries(BADPUT_CATEGORIES.map((c) => [c, [] as number[]])) as Record<
      BadputCategory,
      number[]
    >;
  for (let i = 0; i < n; i++) {
    const run = runScenario(s, { seed: seedOf(s, i) });
    for (const p of s.policies) for (const c of BADPUT_CATEGORIES) out[p]![c].push(run[p]!.badput[c]);
  }
  return out;
}

/** Mean and 95 % half-width, 1.96·sd/√n, written out here. */
function meanHalf(xs: number[]): { mean: number; half: number } {
  const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  return { mean, half: (1.96 * sd) / Math.sqrt(xs.length) };
}

/** Both bands stopped at 40 runs (the cap, and the least a precision stop runs to): the numbers no longer move. */
async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId("mc-status")).toHaveAttribute("data-stop", /^(cap|precision)$/, {
    timeout: 60_000,
  });
  for (const p of POLICIES)
    await expect(page.getByTestId(`compare-delta-${p}`)).toHaveText(/paired by seed, 40 runs\)$/, {
      timeout: 60_000,
    });
}

async function panelNumbers(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const p of POLICIES)
    for (const col of ["base", "this", "delta"])
      out.push((await page.getByTestId(`compare-${col}-${p}`).textContent()) ?? "");
  return out;
}

test("paste a link into Compare with…: the differing knobs, both ETTRs as the bands, and the page's link reopens it", async ({
  page,
  browser,
}) => {
  await page.goto(`/${encodeScenarioHash(B)}&v=cluster&mcn=40`);
  await expect(page.getByTestId("compare-none")).toBeVisible();

  // A bad link is refused by name and changes nothing.
  await page.getByTestId("compare-link").fill("https://example.org/#s=2.garbage");
  await page.getByTestId("compare-link-use").click();
  await expect(page.getByTestId("compare-error")).toContainText("link");
  await expect(page.getByTestId("compare-none")).toBeVisible();
  await expect(page).not.toHaveURL(/base=/);

  await page.getByTestId("compare-link").fill(`https://example.org/${encodeScenarioHash(A)}&v=cluster`);
  await page.getByTestId("compare-link-use").click();
  await expect(page.getByTestId("compare-error")).toHaveCount(0);
  await expect(page).toHaveURL(/[#&]base=2\./);

  const rows = page.getByTestId("compare-diff").locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-path", "sync.restartSeconds");
  await expect(rows.first()).toContainText("540");
  await expect(rows.first()).toContainText("900");

  await settled(page);
  for (const p of POLICIES) {
    await expect(page.getByTestId(`compare-this-${p}`)).toHaveText(
      (await page.getByTestId(`ettr-mc-${p}`).textContent()) ?? "",
    );
    await expect(page.getByTestId(`compare-base-${p}`)).toHaveText(
      (await page.getByTestId(`ettr-base-${p}`).textContent()) ?? "",
    );
    await expect(page.getByTestId(`compare-delta-${p}`)).toHaveText(
      (await page.getByTestId(`ettr-delta-${p}`).textContent()) ?? "",
    );
  }
  // A restart of 900 s instead of 540 s costs the synchronous strategy ETTR.
  await expect(page.getByTestId("compare-delta-synchronous")).toHaveText(/^−\d/);
  // Where the time goes, side by side: each category's share over the same 40 seeds, seed by seed
  // from the engine, and the difference paired by seed with its 95 % half-width.
  const [inA, inB] = [perSeedBadput(A, 40), perSeedBadput(B, 40)];
  await expect(page.getByTestId("compare-badput-basis")).toHaveText("(paired by seed, 40 runs)", {
    timeout: 30_000,
  });
  for (const c of BADPUT_CATEGORIES) {
    const lost = POLICIES.some((p) => [...inA[p]![c], ...inB[p]![c]].some((x) => x > 0));
    const row = page.getByTestId("compare-badput").locator(`tr[data-category="${c}"]`);
    if (!lost) {
      await expect(row).toHaveCount(0);
      continue;
    }
    for (const p of POLICIES) {
      const a = inA[p]![c];
      const b = inB[p]![c];
      const base = meanHalf(a).mean;
      const current = meanHalf(b).mean;
      const d = {
        kind: "paired" as const,
        n: 40,
        firstSeed: 11,
        aMean: current,
        bMean: base,
        ...meanHalf(b.map((x, i) => x - a[i]!)),
      };
      await expect(page.getByTestId(`compare-badput-${p}-${c}`)).toHaveText(shareText({ base, current, d }));
    }
  }
  // The slower restart costs the synchronous job recovery time, well beyond the error.
  await expect(page.getByTestId("compare-badput-synchronous-recovery")).toHaveText(
    /^1\.\d% → 3\.\d% \(\+1\.\d ± 0\.\d points\)$/,
  );
  await expect(page.getByTestId("compare-badput-ftHsdp-recovery")).toHaveText("none in either");
  const numbers = await panelNumbers(page);

  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByTestId("compare-ettr").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/compare-1280.png` });
  await page.getByTestId("compare-badput").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/compare-badput-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("compare-diff").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/compare-390.png`, fullPage: false });
  await page.getByTestId("compare-ettr").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/compare-390-ettr.png`, fullPage: false });
  await page.getByTestId("compare-badput").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/compare-390-badput.png`, fullPage: false });

  // Opened fresh, the page's link shows the same comparison and the same numbers.
  const fresh = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const other = await fresh.newPage();
  await other.goto(page.url());
  await expect(other.getByTestId("compare-diff").locator("tbody tr")).toHaveCount(1);
  await settled(other);
  expect(await panelNumbers(other)).toEqual(numbers);
  await fresh.close();
});

test("a scenario file is compared too; a refused one is named and keeps the comparison on screen", async ({
  page,
}) => {
  await page.goto(`/${encodeScenarioHash(B)}&v=cluster&mcn=40`);
  const file = page.getByTestId("compare-file");
  await file.setInputFiles({
    name: "a.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(A)),
  });
  await expect(page).toHaveURL(/[#&]base=2\./);
  const rows = page.getByTestId("compare-diff").locator("tbody tr");
  await expect(rows).toHaveCount(1);
  const url = page.url();

  await file.setInputFiles({
    name: "bad.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify({ cluster: { gpus: -1 } })),
  });
  await expect(page.getByTestId("compare-error")).toContainText("cluster.gpus");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-path", "sync.restartSeconds");
  expect(page.url()).toBe(url);
});
