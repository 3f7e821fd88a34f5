import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";

/** Cluster model v2 (docs/model.md §3) in the cluster view's knobs. */

test("the v2 knobs change the results, and a bad value names its field", async ({ page }) => {
  await page.goto("/#v=cluster");
  const ft = page.getByTestId("ettr-ftHsdp");
  await expect(ft).toHaveText(/%$/);
  const before = await ft.textContent();
  await page.getByTestId("spares.pool").selectOption("limited");
  const hosts = page.getByTestId("spares.hosts");
  await hosts.fill("1");
  await page.getByTestId("spares.repairHours").fill("200");
  // One spare host that takes 200 h to repair: FT-HSDP replicas wait for hosts, so ETTR drops.
  await expect(ft).not.toHaveText(before ?? "");
  await expect(page.getByTestId("cluster.hostsPerRack")).toBeVisible();
  await expect(page.getByTestId("cluster.placement")).toBeVisible();
  await expect(page.getByTestId("ft.hangTimeoutSeconds")).toBeVisible();
  // The shape is a Weibull setting: its knob is on only with Weibull arrivals.
  await expect(page.getByTestId("failures.weibullShape")).toBeDisabled();
  await page.getByTestId("failures.arrivals").selectOption("weibull");
  await page.getByTestId("failures.weibullShape").fill("9");
  await expect(page.getByText(/Weibull shape.*5/).first()).toBeVisible();
});

test("the Young/Daly button sets each checkpoint interval to √(2W/λ)", async ({ page }) => {
  await page.goto("/#v=cluster");
  const button = page.getByTestId("sync.youngDaly");
  // No write time: the formula says nothing useful, so the button says why instead.
  await expect(button).toBeDisabled();
  await page.getByTestId("sync.checkpointWriteSeconds").fill("20");
  await expect(button).toBeEnabled();
  await button.click();
  // The default scenario: 98,304 GPUs / 8 per host at 0.00651 failures per host-day.
  const lambda = ((98_304 / 8) * 0.00651) / 86_400;
  const minutes = Math.sqrt((2 * 20) / lambda) / 60;
  const shown = Number(await page.getByTestId("sync.checkpointMinutes").inputValue());
  expect(Math.abs(shown - minutes)).toBeLessThan(0.01);
  // FT-HSDP's checkpoint only serves job-scope failures; the default has none.
  await page.getByTestId("ft.checkpointWriteSeconds").fill("20");
  await expect(page.getByTestId("ft.youngDaly")).toBeDisabled();
});

/** A v2 scenario's share link, made by the CLI as a person would (`npm run sim -- file --link`). */
function linkFor(scenario: object): string {
  const dir = mkdtempSync(join(tmpdir(), "ftx-v2-"));
  const file = join(dir, "scenario.json");
  writeFileSync(file, JSON.stringify(scenario));
  const link = execFileSync("npx", ["tsx", "src/cli/sim.ts", file, "--link"], { encoding: "utf8" }).trim();
  return link.slice(link.indexOf("#"));
}

const MIX = {
  seed: 3,
  cluster: { gpus: 4096, gpusPerHost: 8, replicas: 8, hostsPerRack: 4 },
  training: { days: 20 },
  failures: {
    perHostDay: 0.02,
    causes: [
      { name: "GPU", share: 6, scope: "host", hang: false, newHost: true },
      { name: "Switch", share: 1, scope: "rack", hang: false, newHost: true },
      { name: "Storage", share: 1, scope: "job", hang: false, newHost: false },
    ],
  },
  spares: { pool: "limited", hosts: 2, repairHours: 48 },
};

test("the details table counts job restarts, spare waits and each cause; closed forms say why not", async ({
  page,
}) => {
  await page.goto(`/${linkFor(MIX)}`);
  const table = page.getByTestId("metrics-table");
  await expect(table.getByRole("row", { name: /Job restarts/ })).toBeVisible();
  await expect(table.getByRole("row", { name: /Longest spare wait/ })).toBeVisible();
  await expect(table.getByRole("row", { name: /Pool empty/ })).toBeVisible();
  for (const [i, name] of ["GPU", "Switch", "Storage"].entries()) {
    await expect(page.getByTestId(`cause-row-${i}`)).toContainText(name);
  }
  // A limited pool is outside the Poisson forms: "—" and the reason, not a number.
  await expect(page.getByTestId("cf-v2-synchronous")).toContainText("—");
  await expect(page.getByTestId("cf-v2-synchronous")).toContainText(/limited spare pool/);
  // A job-scope cause without an FT checkpoint: the knobs say the model is optimistic.
  await expect(page.getByTestId("ft.checkpointNote")).toContainText("optimistic");
});

test("the failure log names each failure's cause, scope, hosts and replicas", async ({ page }) => {
  await page.goto(`/${linkFor(MIX)}`);
  const log = page.getByTestId("failure-log");
  await expect(log.getByRole("columnheader", { name: "Cause" })).toBeVisible();
  const rows = log.locator("tbody tr:not(.spacer)");
  await expect(rows.first()).toBeVisible();
  const cells = await rows.evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].slice(2, 6).map((td) => td.textContent ?? "")),
  );
  expect(cells.length).toBeGreaterThan(5);
  // Each cause's scope as MIX defines it; a rack strikes its 4 hosts, a job-scope cause every replica.
  const scopeOf: Record<string, string> = { GPU: "host", Switch: "rack", Storage: "job" };
  for (const [cause, scope, hosts, replicas] of cells) {
    expect(scopeOf[cause ?? ""]).toBe(scope);
    if (scope === "host") expect(hosts).toMatch(/^[\d,]+$/);
    if (scope === "rack") expect(hosts).toMatch(/^[\d,]+ \+3$/);
    if (scope === "job") expect([hosts, replicas]).toEqual(["all", "all"]);
  }
});

test("the timeline draws waiting for a spare host in its own colour, with a legend entry", async ({
  page,
}) => {
  await page.goto(`/${linkFor(MIX)}`);
  await expect(page.getByLabel("Timeline legend")).toContainText("Waiting for a spare host");
  const canvas = page.getByTestId("timeline-canvas");
  await expect(canvas).toBeVisible();
  // MIX's two spares with 48 h repairs run dry: some replica waits, drawn in --st-waitspare.
  const colour = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue("--st-waitspare").trim(),
  );
  expect(colour).toBe("#e07b39");
  await expect
    .poll(() =>
      canvas.evaluate((c) => {
        const el = c as HTMLCanvasElement;
        const d = el.getContext("2d")?.getImageData(0, 0, el.width, el.height).data ?? [];
        for (let i = 0; i < d.length; i += 4)
          if (d[i] === 0xe0 && d[i + 1] === 0x7b && d[i + 2] === 0x39) return true;
        return false;
      }),
    )
    .toBe(true);
});
