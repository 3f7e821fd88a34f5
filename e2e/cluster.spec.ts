// The test realm validates scenarios against the plug-in list, as the page and the CLI do.
import "../src/testing/registerPlugins.ts";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";

const PERCENT = /^\d{1,3}\.\d%$/;

/** The CLI, as a person would run it: `npm run sim -- <file> ...`. */
function cli(args: string[]): string {
  return execFileSync("npx", ["tsx", "src/cli/sim.ts", ...args], { encoding: "utf8" });
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

test("opens on the default scenario with both ETTRs", async ({ page }) => {
  await page.goto("/#v=cluster");
  const sync = page.getByTestId("ettr-synchronous");
  const ft = page.getByTestId("ettr-ftHsdp");
  await expect(sync).toHaveText(PERCENT);
  await expect(ft).toHaveText(PERCENT);
  const s = Number.parseFloat((await sync.textContent()) ?? "");
  const f = Number.parseFloat((await ft.textContent()) ?? "");
  // The headline: Poisson arrivals on the FT-HSDP paper's cluster; FT-HSDP well ahead.
  expect(f).toBeGreaterThan(s + 10);
  await expect(page.getByLabel("GPUs", { exact: true })).toHaveValue("98304");
  // The Monte Carlo band fills in without blocking anything.
  await expect(page.getByTestId("ettr-mc-ftHsdp")).toHaveText(
    /^\d{1,3}\.\d{1,2}% ± \d+\.\d{1,2} \(95%, \d+ runs\)$/,
  );
});

test("a share link in a fresh browser shows the same numbers as the CLI", async ({ browser }) => {
  const dir = mkdtempSync(join(tmpdir(), "ftx-"));
  const file = join(dir, "scenario.json");
  writeFileSync(
    file,
    JSON.stringify({
      seed: 7,
      cluster: { gpus: 16_384, gpusPerHost: 8, replicas: 16 },
      training: { days: 14 },
      failures: { perHostDay: 0.02, hangFraction: 0.1 },
      sync: { checkpointMinutes: 30, checkpointWriteSeconds: 20 },
      ft: { catchUpSeconds: 60 },
    }),
  );
  const link = cli([file, "--link"]).trim();
  const hash = link.slice(link.indexOf("#"));
  const expected = JSON.parse(cli([file, "--json", "--seeds", "1"])) as {
    synchronous: { ettr: { mean: number } };
    ftHsdp: { ettr: { mean: number } };
  };
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/${hash}`);
  await expect(page.getByTestId("ettr-synchronous")).toHaveText(pct(expected.synchronous.ettr.mean));
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(pct(expected.ftHsdp.ettr.mean));
  await expect(page.getByLabel("Replicas (R)", { exact: true })).toHaveValue("16");
  await context.close();
});

test("a broken link shows a message and the default scenario, not a crash", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/#s=1.thisIsNotAScenario");
  await expect(page.getByTestId("link-error")).toContainText("could not be used");
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(PERCENT);
  await page.goto("/#s=7.abc");
  await page.reload();
  await expect(page.getByTestId("link-error")).toContainText("format");
  expect(errors).toEqual([]);
});

test("knobs validate, update the results and the link", async ({ page, context }) => {
  await page.goto("/#v=cluster");
  const ft = page.getByTestId("ettr-ftHsdp");
  await expect(ft).toHaveText(PERCENT);
  const before = await ft.textContent();
  const replicas = page.getByLabel("Replicas (R)", { exact: true });
  await replicas.fill("10");
  await expect(page.getByRole("alert").filter({ hasText: "cluster.replicas" })).toContainText("12,288 hosts");
  await expect(ft).toHaveText(before ?? "");
  await replicas.fill("48");
  await expect(ft).not.toHaveText(before ?? "");
  await expect(page).toHaveURL(/[#&]s=2\./);
  const after = await ft.textContent();
  // The address bar is the share link: a fresh page on it shows the same.
  const other = await context.newPage();
  await other.goto(page.url());
  await expect(other.getByTestId("ettr-ftHsdp")).toHaveText(after ?? "");
  await expect(other.getByLabel("Replicas (R)", { exact: true })).toHaveValue("48");
});

test("a long Monte Carlo shows its band from the first run, then tightens it to the cap", async ({
  page,
}) => {
  test.setTimeout(300_000);
  // 800K GPUs for 60 days: about 39,000 failures a run, one run a chunk; capped at 40 runs,
  // with a precision (±0.01 point) it cannot reach by then. 40 runs: on a quiet machine 12 were all
  // done before the band's first number could be read.
  const s = { cluster: { gpus: 786_432 }, training: { days: 60 } };
  await page.goto(`/${encodeScenarioHash(parseScenario(s))}&v=cluster&mcp=0.01&mcn=40`);
  const band = page.getByTestId("ettr-mc-ftHsdp");
  // A number as soon as the first run is in, before the Monte Carlo ends.
  await expect(band).toHaveText(
    /^\d{1,3}\.\d%( ± \d+\.\d{1,2} \(95%, \d+ runs\)| \(1 run, no interval yet\))$/,
    {
      timeout: 60_000,
    },
  );
  const early = Number(await band.getAttribute("data-runs"));
  expect(early).toBeLessThan(40);
  await expect(page.getByTestId("mc-status")).toHaveText(
    "Cap reached: 40 runs, before the precision ±0.01 points.",
    {
      timeout: 240_000,
    },
  );
  await expect(band).toHaveText(/^\d{1,3}\.\d{1,2}% ± \d+\.\d{1,2} \(95%, 40 runs\)$/);
});
