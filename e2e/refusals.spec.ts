/**
 * A refusal names the key and changes nothing else; the last good state
 * stays on screen (results and link included); what is used with a correction is said.
 */
// The test realm validates scenarios against the plug-in list, as the page and the CLI do.
import "../src/testing/registerPlugins.ts";
import { expect, test } from "@playwright/test";
import { encodeScenarioHash, encodeScenarioParam } from "../src/link/scenarioLink.ts";
import { sweepParam } from "../src/link/sweepLink.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";
import { addressWrites, expectNoAddressWrite, linkRuns } from "./pageSignals.ts";

const sixteen = encodeScenarioParam(parseScenario({ cluster: { replicas: 16 } }));
/** One character changed: refused by its integrity check. */
const altered = sixteen.slice(0, -3) + (sixteen.at(-3) === "A" ? "B" : "A") + sixteen.slice(-2);

test("a refused s= with sw=…,run runs no sweep and leaves s= in the address as it was", async ({ page }) => {
  const sw = sweepParam({ axis: "gpus", points: 4, seeds: 20, range: null, run: true });
  await page.goto(`/#v=cluster&s=${altered}&sw=${sw}`);
  const banner = page.getByTestId("link-error");
  await expect(banner).toContainText("The link's scenario could not be decoded");
  await expect(banner).toContainText("The link's sweep (sw=) was not run: its scenario (s=) was refused");
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(/%/);
  // The sw= part is read with the address, before the banner shows: a sweep it let through would
  // have been asked for then (it runs once the page is idle, up to seconds later).
  expect(await linkRuns(page)).toEqual({ asked: 0, waiting: 0 });
  await expect(page.getByTestId("sweep-status")).toHaveText("");
  expect(new URL(page.url()).hash).toContain(`s=${altered}`);
});

test("a link pasted into the open tab with a changed s= keeps the scenario on screen and names s=", async ({
  page,
}) => {
  await page.goto(`/#v=cluster&s=${sixteen}&mcp=2`);
  const replicas = page.getByTestId("cluster.replicas");
  await expect(replicas).toHaveValue("16");
  const ettr = page.getByTestId("ettr-ftHsdp");
  await expect(ettr).toHaveText(/%/);
  const shown = await ettr.textContent();
  await page.evaluate((h) => {
    location.hash = h;
  }, `v=cluster&s=${altered}&mcp=2`);
  const banner = page.getByTestId("link-error");
  await expect(banner).toContainText("The link's scenario could not be decoded");
  await expect(banner).toContainText("keeps what was on screen");
  await expect(replicas).toHaveValue("16");
  await expect(ettr).toHaveText(shown ?? "");
});

test("a bad key of a view not loaded yet is named on open", async ({ page }) => {
  await page.goto("/#v=story&st=2.AAAAAAAA");
  await expect(page.getByTestId("link-error")).toContainText(/step settings could not be decoded/);
});

test("a window narrower than 10 s is widened, and the banner says so", async ({ page }) => {
  await page.goto(`/${encodeScenarioHash(parseScenario({ seed: 2 }))}&v=cluster&w=0.01,0.04`);
  const note = page.getByTestId("link-note");
  await expect(note).toContainText("Part of this link was adjusted.");
  await expect(note).toContainText("w=0.01,0.04 was shown as 0.0,10.0: a window is at least 10 s wide");
  await expect(page.getByTestId("link-refused")).toHaveCount(0);
});

test("v=CLUSTER opens the Cluster view, saying it was read as v=cluster", async ({ page }) => {
  await page.goto("/#v=CLUSTER");
  await expect(page.getByTestId("link-note")).toContainText("v=CLUSTER was read as v=cluster");
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(/%/);
});

test("a link's sweep of 100,000 runs on the default scenario asks first, saying the estimated time", async ({
  page,
}) => {
  const sw = sweepParam({ axis: "gpus", points: 50, seeds: 2000, range: null, run: true });
  await page.goto(`/#v=cluster&sw=${sw}`);
  const ask = page.getByTestId("sweep-confirm");
  await expect(ask).toContainText(
    /50 points × 2,000 seeds, about [\d,]+ failures to simulate, about [\d.]+ (s|min) on one core/,
  );
  await expect(ask).toContainText("A link asks before a run estimated past 10 s.");
  await expect(page.getByTestId("sweep-status")).toHaveText("");
});

test("One step: Forward 5,000,000 ms is refused by the knob, naming its range, and st= stays as it was", async ({
  page,
}) => {
  await page.goto("/#v=step");
  await expect(page.getByTestId("bucket-count")).toHaveText(/\d/);
  const url = page.url();
  const writes = await addressWrites(page);
  const forward = page.getByRole("spinbutton", { name: /^Forward/ });
  await forward.fill("5000000");
  await forward.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: /Forward/ })).toContainText(/\[0, 1,000,000\]/);
  await expectNoAddressWrite(page, writes);
  expect(page.url()).toBe(url);
});
