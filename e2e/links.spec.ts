/**
 * Share links of every view, as a person uses them: change settings through the controls, copy
 * the link, open it in a fresh browser; Back and Forward; a link edited in the address bar; bad
 * links. (The story's chapter and the training run join here with their views, through the same
 * address module: add a `test` per view that copies and reopens its link.)
 */
// The test realm validates scenarios against the plug-in list, as the page and the CLI do.
import "../src/testing/registerPlugins.ts";
import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { encodeScenarioHash } from "../src/link/scenarioLink.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";
import { addressSettled } from "./pageSignals.ts";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

/** Press Copy link and return the link, from the clipboard or, where it is closed, the shown field. */
async function copyLink(page: Page): Promise<string> {
  await page.getByTestId("copy-link").click();
  const shown = page.getByLabel("Share link");
  await expect(page.getByRole("status").filter({ hasText: "Link copied" }).or(shown)).toBeVisible();
  if (await shown.isVisible()) return shown.inputValue();
  return page.evaluate(() => navigator.clipboard.readText());
}

/** The link opened in a new browser context: no state shared with the page that made it. */
async function openFresh(browser: Browser, link: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  return page;
}

async function stepNumbers(page: Page) {
  const stepTime = page.getByTestId("step-time");
  await expect(page.getByText("· computing…")).toHaveCount(0);
  await expect(stepTime).toHaveText(/\d/);
  return {
    stepTime: await stepTime.textContent(),
    buckets: await page.getByTestId("bucket-count").textContent(),
    cap: await page.getByTestId("cap-value").textContent(),
  };
}

async function stepSettings(page: Page) {
  const knobs = page.getByRole("complementary", { name: "Step knobs" });
  return {
    model: await knobs.getByRole("group", { name: "Model" }).getByRole("combobox").inputValue(),
    first: await knobs.getByLabel("First bucket").inputValue(),
    hsdp: await knobs.getByRole("radio", { name: "HSDP" }).isChecked(),
    replicas: await knobs.getByLabel(/Replicas R|Nodes/).inputValue(),
    missing: await knobs.getByLabel(/One replica missing/).isChecked(),
    across: await knobs.getByLabel(/Link across/).inputValue(),
    alpha: await knobs.getByLabel("α").nth(1).inputValue(),
  };
}

const selected = (page: Page) => page.getByRole("tab", { selected: true });

type StepNumbers = Awaited<ReturnType<typeof stepNumbers>>;

/** Wait until the step view shows these numbers (a restored state is computed in the worker). */
async function expectStep(page: Page, n: StepNumbers) {
  await expect(page.getByTestId("step-time")).toHaveText(n.stepTime ?? "");
  await expect(page.getByTestId("bucket-count")).toHaveText(n.buckets ?? "");
  await expect(page.getByTestId("cap-value")).toHaveText(n.cap ?? "");
}

test("One step: the settings changed through the controls come back from the copied link", async ({
  page,
  browser,
}) => {
  await page.goto("/#v=step");
  const knobs = page.getByRole("complementary", { name: "Step knobs" });
  await expect(page.getByTestId("bucket-count")).toHaveText(/^\d+$/);
  await knobs
    .getByRole("group", { name: "Model" })
    .getByRole("combobox")
    .selectOption({ label: "Llama 3 8B" });
  await page.getByRole("slider", { name: /bucket_cap_mb/ }).fill("800");
  await knobs.getByLabel("First bucket").fill("25");
  await knobs.getByRole("radiogroup", { name: "Mode" }).getByText("HSDP", { exact: true }).click();
  await knobs.getByLabel("Replicas R").fill("16");
  await knobs.getByLabel(/One replica missing/).check();
  await knobs.getByLabel("Link across replicas").selectOption({ label: "400 Gb/s RoCE/IB" });
  await knobs.getByLabel("α").nth(1).fill("12");
  await knobs.getByLabel("α").nth(1).blur();
  const numbers = await stepNumbers(page);
  const settings = await stepSettings(page);
  expect(settings).toEqual({
    model: "llama3-8b",
    first: "25",
    hsdp: true,
    replicas: "16",
    missing: true,
    across: "roce-400",
    alpha: "12",
  });

  const link = await copyLink(page);
  expect(link).toMatch(/#.*v=step.*&st=2\./);
  const other = await openFresh(browser, link);
  await expect(selected(other)).toHaveText(/One step/);
  await expectStep(other, numbers);
  expect(await stepSettings(other)).toEqual(settings);
  await expect(other.getByTestId("link-error")).toHaveCount(0);
});

test("One step: a pasted list rides in the link while it fits; a long one is offered as a file", async ({
  page,
  browser,
}) => {
  await page.goto("/#v=step");
  const list = (n: number, name: (i: number) => string) =>
    JSON.stringify(
      Array.from({ length: n }, (_, i) => ({ name: name(i), shape: [64, 64], dtype: "torch.float32" })),
    );
  const paste = async (text: string) => {
    const box = page.getByLabel("Parameter list to paste");
    if (!(await box.isVisible())) await page.getByText("Paste your model's parameters").click();
    await box.fill(text);
    await page.getByRole("button", { name: "Use pasted list" }).click();
  };
  await paste(list(12, (i) => `block${i}.weight`));
  await expect(page.getByText("pasted model: 12 parameters")).toBeVisible();
  await expect(page.getByTestId("paste-left-out")).toHaveCount(0);
  const other = await openFresh(browser, await copyLink(page));
  await expect(other.getByText("pasted model: 12 parameters")).toBeVisible();

  // Names that do not compress: 600 of them pass the link's budget.
  await paste(list(600, (i) => `p${((i + 1) * 2654435761) % 4294967291}.w`));
  await expect(page.getByText("pasted model: 600 parameters")).toBeVisible();
  const note = page.getByTestId("paste-left-out");
  await expect(note).toContainText("too long for a link");
  const download = page.waitForEvent("download");
  await note.getByRole("button", { name: "Download the list" }).click();
  expect((await download).suggestedFilename()).toBe("model-parameters.json");
});

async function labReady(page: Page): Promise<{ run: Locator; fault: Locator }> {
  const run = page.getByRole("region", { name: "Run a collective" });
  const fault = page.getByRole("region", { name: "FTAR under a fault" });
  await expect(run.getByRole("button", { name: "Run", exact: true })).toBeEnabled({ timeout: 30_000 });
  return { run, fault };
}

async function labSettings(page: Page) {
  const { run, fault } = await labReady(page);
  const values = async (region: Locator, labels: string[]) =>
    Promise.all(labels.map((l) => region.getByLabel(l, { exact: true }).inputValue()));
  return {
    run: await values(run, ["Mode", "Devices", "Size / device", "Algorithm"]),
    fault: await values(fault, ["Mode", "Devices", "Size / device", "Victim", "Kill at step"]),
    slow: await fault.getByLabel("Slow motion").isChecked(),
  };
}

test("the lab: run form and fault plan come back from the copied link", async ({ page, browser }) => {
  await page.goto("/#v=lab");
  const { run, fault } = await labReady(page);
  await run.getByLabel("Mode").selectOption("separate");
  await run.getByLabel("Devices", { exact: true }).fill("8");
  await run.getByLabel("Size / device").selectOption(String(16 * 1024));
  await run.getByLabel("Algorithm").selectOption("halving-doubling");
  await fault.getByLabel("Devices", { exact: true }).selectOption("9");
  await fault.getByLabel("Victim").selectOption("7");
  await fault.getByLabel("Kill at step").selectOption("button");
  await fault.getByLabel("Slow motion").uncheck();
  const settings = await labSettings(page);
  expect(settings).toEqual({
    run: ["separate", "8", String(16 * 1024), "halving-doubling"],
    fault: ["shared", "9", String(256 * 1024), "7", "button"],
    slow: false,
  });
  const link = await copyLink(page);
  expect(link).toMatch(/#.*v=lab.*&lab=2\./);
  const other = await openFresh(browser, link);
  await expect(selected(other)).toHaveText(/WebGPU/);
  expect(await labSettings(other)).toEqual(settings);
  await expect(other.getByTestId("link-error")).toHaveCount(0);
});

test("Back and Forward step through a view switch and three committed edits", async ({ page }) => {
  await page.goto("/#v=cluster");
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(/%/);
  await page.getByRole("tab", { name: /One step/ }).click();
  const knobs = page.getByRole("complementary", { name: "Step knobs" });
  const states = [await stepNumbers(page)];
  await knobs.getByRole("group", { name: "Model" }).getByRole("combobox").selectOption({ label: "ViT-B/16" });
  states.push(await stepNumbers(page));
  await knobs.getByRole("radiogroup", { name: "Mode" }).getByText("HSDP", { exact: true }).click();
  states.push(await stepNumbers(page));
  // Typed one key at a time: one entry for the edit, not one per keystroke.
  await knobs.getByLabel("First bucket").fill("");
  await knobs.getByLabel("First bucket").pressSequentially("64");
  await knobs.getByLabel("First bucket").press("Tab");
  states.push(await stepNumbers(page));
  expect(new Set(states.map((s) => s.stepTime)).size).toBe(4);

  for (let i = 2; i >= 0; i--) {
    await page.goBack();
    await expectStep(page, states[i]!);
  }
  await expect(knobs.getByRole("group", { name: "Model" }).getByRole("combobox")).toHaveValue("resnet50");
  await page.goBack();
  await expect(selected(page)).toHaveText(/Cluster/);
  await page.goForward();
  await expect(selected(page)).toHaveText(/One step/);
  for (let i = 1; i <= 3; i++) {
    await page.goForward();
    await expectStep(page, states[i]!);
  }
  await expect(knobs.getByLabel("First bucket")).toHaveValue("64");
});

test("a time window edited in the address bar survives the hash change", async ({ page }) => {
  const first = encodeScenarioHash(parseScenario({ seed: 3 }));
  await page.goto(`/${first}&w=1000.0,5000.0`);
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(/%/);
  const second = encodeScenarioHash(parseScenario({ seed: 4, training: { days: 10 } }));
  await page.evaluate(
    (h) => {
      location.hash = h;
    },
    `${second.slice(1)}&w=2000.0,90000.0`,
  );
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(/%/);
  // The timeline drew the link's window (not the whole run a new scenario starts from), and no
  // write of the address is queued.
  await expect(page.getByTestId("timeline-window")).toHaveText(/^Showing .* from day /);
  await addressSettled(page);
  const keys = () => new URLSearchParams(new URL(page.url()).hash.slice(1));
  expect(keys().get("w")).toBe("2000.0,90000.0");
  expect(`#s=${keys().get("s")}`).toBe(second);
  // A reload (the same address, read afresh) keeps it too.
  await page.reload();
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(/%/);
  expect(keys().get("w")).toBe("2000.0,90000.0");
});

for (const [view, hash, message] of [
  ["Cluster", "#s=2.AAAAAAAA", /scenario could not be decoded: .*integrity check/],
  ["One step", "#v=step&st=2.AAAAAAAA", /step settings could not be decoded: .*integrity check/],
  ["One step", "#v=step&s=7.abc", /format tag is "7"/],
  ["WebGPU", "#v=lab&lab=2.AAAAAAAA", /lab settings could not be decoded: .*integrity check/],
  ["Story", "#v=steps", /view "steps"/],
] as const) {
  test(`a bad link in the ${view} view says what was wrong (${hash})`, async ({ page }) => {
    await page.goto(`/${hash}`);
    const banner = page.getByTestId("link-error");
    await expect(banner).toContainText("Part of this link could not be used.");
    await expect(banner).toContainText(message);
    await expect(banner).toContainText(
      "What it could not use keeps what was on screen (the defaults, for a link opened fresh); the rest is as the link says.",
    );
    await expect(selected(page)).toContainText(view);
  });
}

test("Cluster: a sweep's axis, range, points and seeds come back from the copied link, and its curve is run again", async ({
  page,
  browser,
}) => {
  await page.goto("/#v=cluster");
  await page.getByLabel("Sweep axis").selectOption("mtbf");
  await page.getByLabel("Points", { exact: true }).fill("4");
  await page.getByLabel("Seeds per point").fill("6");
  await page.getByTestId("sweep-from").fill("30");
  await page.getByTestId("sweep-to").fill("300");
  await page.getByRole("button", { name: "Run sweep" }).click();
  await expect(page.getByTestId("sweep-status")).toHaveText(/Done: 4 points × 6 seeds/, { timeout: 50_000 });
  const curve = async (p: Page) =>
    p.locator(".sweep-point").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
  const points = await curve(page);
  expect(points).toHaveLength(8);
  const link = await copyLink(page);
  expect(link).toMatch(/&sw=mtbf,4,6,30:300,run~[0-9a-f]{8}/);

  const other = await openFresh(browser, link);
  await expect(other.getByTestId("sweep-status")).toHaveText(/Done: 4 points × 6 seeds/, { timeout: 50_000 });
  expect(await curve(other)).toEqual(points);
  await expect(other.getByLabel("Sweep axis")).toHaveValue("mtbf");
  await expect(other.getByTestId("sweep-from")).toHaveValue("30");
  await expect(other.getByTestId("link-error")).toHaveCount(0);

  // A changed character is refused by name, and the sweep keeps its defaults.
  const broken = await openFresh(browser, link.replace("mtbf,4,6", "mtbf,5,6"));
  await expect(broken.getByTestId("link-error")).toContainText(
    "sweep settings (sw=) fail their integrity check",
  );
  await expect(broken.getByLabel("Sweep axis")).toHaveValue("gpus");
});

test("the story's chapter 5 bucket size is in the link: a fresh context shows the same size and step", async ({
  page,
  browser,
}) => {
  await page.goto("/#v=story&ch=gradients");
  const numbers = page.getByTestId("gradients-numbers");
  await expect(page.getByTestId("gradients-step")).toHaveText(/\d/);
  const at25 = await numbers.textContent();
  await page.getByLabel("bucket_cap_mb").selectOption("512");
  await expect(numbers).not.toHaveText(at25 ?? "");
  const seen = await numbers.textContent();
  await expect(page).toHaveURL(/[#&]bk=512(&|$)/);
  const fresh = await openFresh(browser, page.url());
  await expect(fresh.getByLabel("bucket_cap_mb")).toHaveValue("512");
  await expect(fresh.getByTestId("gradients-numbers")).toHaveText(seen ?? "");
});

test("the lab's results are in the link: a fresh context shows the same table, marked as measured elsewhere", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.goto("/#v=lab");
  const run = page.getByRole("region", { name: "Run a collective" });
  const rows = run.getByRole("table", { name: "Results" }).locator("tbody tr");
  const button = run.getByRole("button", { name: "Run", exact: true });
  await expect(button).toBeEnabled({ timeout: 30_000 });
  const hash = () => new URL(page.url()).hash;
  let withOneRow = "";
  for (const n of [1, 2]) {
    await button.click();
    await expect(rows).toHaveCount(n, { timeout: 30_000 });
    await expect(button).toBeEnabled({ timeout: 30_000 });
    if (n === 1) {
      await expect.poll(hash).toMatch(/[#&]lres=2\./);
      withOneRow = hash();
    }
  }
  const seen = await rows.allInnerTexts();
  // The address is written a moment after the table changes (writes are batched): wait until it
  // carries the second row, or the fresh context would open the one-row link (CI saw that race).
  await expect.poll(hash).not.toBe(withOneRow);
  const fresh = await openFresh(browser, page.url());
  const freshRows = fresh.getByRole("table", { name: "Results" }).locator("tbody tr");
  await expect(freshRows).toHaveCount(2);
  // The same rows, each marked † as measured by the link's maker.
  expect((await freshRows.allInnerTexts()).map((t) => t.replace(/\s*†$/, ""))).toEqual(seen);
  await expect(fresh.getByTestId("results-from-link")).toContainText(
    "by whoever made it, not on this machine",
  );
  await expect(page.getByTestId("results-from-link")).toHaveCount(0);
});

test("the story's Copy link and its chapter link carry the chapter and bk=: opened fresh, the same chapter, size and step", async ({
  page,
  browser,
}) => {
  await page.goto("/#v=story&ch=gradients");
  const numbers = page.getByTestId("gradients-numbers");
  await expect(page.getByTestId("gradients-step")).toHaveText(/\d/);
  const at25 = await numbers.textContent();
  await page.getByLabel("bucket_cap_mb").selectOption("512");
  await expect(numbers).not.toHaveText(at25 ?? "");
  const seen = await numbers.textContent();
  // The chapter link follows the address, not the chapter alone (it once missed bk=).
  await expect(page.getByTestId("chapter-link")).toHaveAttribute("href", /[#&]bk=512(&|$)/);
  const copied = await copyLink(page);
  expect(copied).toMatch(/[#&]ch=gradients(&|$)/);
  expect(copied).toMatch(/[#&]bk=512(&|$)/);
  const href = (await page.getByTestId("chapter-link").getAttribute("href")) ?? "";
  for (const link of [copied, new URL(href, page.url()).toString()]) {
    const fresh = await openFresh(browser, link);
    await expect(fresh.getByTestId("story-chapter")).toHaveAttribute("data-chapter", "gradients");
    await expect(fresh.getByLabel("bucket_cap_mb")).toHaveValue("512");
    await expect(fresh.getByTestId("gradients-numbers")).toHaveText(seen ?? "");
    await fresh.context().close();
  }
});
