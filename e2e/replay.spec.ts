/**
 * The timeline's replay, driven as a person drives it: the Replay button and the keyboard move a
 * cursor through the run (the canvas's data-cursor, in simulated seconds), the useful-training
 * counters of both policies run, the phases at the cursor light up, and at the end of the run the
 * counters agree with the ETTR cards.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";

async function openCluster(page: Page, preset?: RegExp) {
  await page.goto("/#v=cluster");
  if (preset) {
    await page.getByRole("button", { name: preset }).click();
    await expect(page.getByTestId("preset-source")).toBeVisible();
  }
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(/%/);
  await expect(page.getByTestId("failure-log")).toBeVisible();
  // The views show the previous run until the preset's is drawn (a deferred render,
  // useShownRun.ts): wait until the run on screen has the cluster size the knob says.
  const gpus = Number(await page.getByTestId("cluster.gpus").inputValue());
  await expect(page.locator(".badput-panel")).toContainText(`× ${gpus.toLocaleString("en-US")} GPUs`);
}

const cursorOf = async (page: Page) =>
  Number(await page.getByTestId("timeline-canvas").getAttribute("data-cursor"));

/** Lets the page run a few animation frames (a paused replay must not move in them). */
const frames = (page: Page, n: number) =>
  page.evaluate(
    (count) =>
      new Promise<void>((resolve) => {
        let left = count;
        const tick = () => (--left > 0 ? requestAnimationFrame(tick) : resolve());
        requestAnimationFrame(tick);
      }),
    n,
  );

const percent = (text: string | null) => Number(/([\d.]+)\s*%/.exec(text ?? "")?.[1]);

test("the Replay button moves the cursor and runs both counters; Pause stops them", async ({ page }) => {
  await openCluster(page);
  const canvas = page.getByTestId("timeline-canvas");
  await expect(canvas).not.toHaveAttribute("data-cursor");
  const play = page.getByTestId("replay-play");
  await play.click();
  await expect(play).toHaveAttribute("aria-pressed", "true");
  await expect.poll(() => cursorOf(page)).toBeGreaterThan(0);

  const syncCounter = page.getByTestId("replay-useful-synchronous");
  const ftCounter = page.getByTestId("replay-useful-ftHsdp");
  const clock = page.getByTestId("replay-clock");
  const [sync0, ft0, clock0, cursor0] = [
    await syncCounter.textContent(),
    await ftCounter.textContent(),
    await clock.textContent(),
    await cursorOf(page),
  ];
  await expect(ftCounter).not.toHaveText(ft0 ?? "");
  await expect(clock).not.toHaveText(clock0 ?? "");
  await expect.poll(() => cursorOf(page)).toBeGreaterThan(cursor0);
  // The synchronous job stops at every failure, so its counter can stand still for a while.
  await expect(syncCounter).not.toHaveText(sync0 ?? "", { timeout: 30_000 });
  // The replay picked a window an hour of playback wide at 10 min/s: the window text says so.
  await expect(page.getByTestId("timeline-window")).toHaveText(/^Showing 10\.0 h from day 0/);

  await play.click();
  await expect(play).toHaveAttribute("aria-pressed", "false");
  const stopped = await cursorOf(page);
  const stoppedFt = await ftCounter.textContent();
  await frames(page, 20);
  expect(await cursorOf(page)).toBe(stopped);
  await expect(ftCounter).toHaveText(stoppedFt ?? "");

  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(canvas).not.toHaveAttribute("data-cursor");
  await expect(page.getByTestId("replay-readout")).toHaveCount(0);
});

test("the keyboard plays, pauses and steps through a failure phase by phase", async ({ page }) => {
  await openCluster(page, /Teaching cluster/);
  const canvas = page.getByTestId("timeline-canvas");
  const play = page.getByTestId("replay-play");
  await canvas.focus();

  // Space plays, k pauses (the timeline has the focus; the page does not scroll).
  const scrollY = await page.evaluate(() => window.scrollY);
  await page.keyboard.press(" ");
  await expect(play).toHaveAttribute("aria-pressed", "true");
  await expect.poll(() => cursorOf(page)).toBeGreaterThan(0);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrollY);
  await page.keyboard.press("k");
  await expect(play).toHaveAttribute("aria-pressed", "false");

  // Back to the start, then "." steps from change to change (checkpoint writes, failures) up to
  // the first failure, whose time the failure log writes: the synchronous job stops and the
  // failed replica is being detected while every other replica waits.
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await canvas.focus();
  const clock = page.getByTestId("replay-clock");
  const failureTime = (await page.getByTestId("failure-log").getByRole("button").first().textContent()) ?? "";
  await page.keyboard.press(".");
  for (let i = 0; i < 20 && (await clock.textContent()) !== failureTime; i++) {
    const before = await cursorOf(page);
    await page.keyboard.press(".");
    await expect.poll(() => cursorOf(page)).toBeGreaterThan(before);
  }
  await expect(clock).toHaveText(failureTime);
  const firstFailure = await cursorOf(page);
  const readout = page.getByTestId("replay-readout");
  await expect(readout).toContainText("recovering: the whole job is stopped");
  await expect(page.getByTestId("replay-phase-detect")).toHaveAttribute("data-on", "true");
  await expect(page.getByTestId("replay-phase-stall")).toHaveAttribute("data-on", "true");
  await expect(page.getByTestId("replay-phase-restart")).toHaveAttribute("data-on", "false");

  // The next change ends detection: the replica restarts while the others train.
  await page.keyboard.press(".");
  // Read once the key has applied (a loaded page may take a frame), not right after the press.
  await expect.poll(() => cursorOf(page)).toBeGreaterThan(firstFailure);
  await expect(page.getByTestId("replay-phase-detect")).toHaveAttribute("data-on", "false");
  await expect(page.getByTestId("replay-phase-restart")).toHaveAttribute("data-on", "true");
  await expect(page.getByTestId("replay-phase-stall")).toHaveAttribute("data-on", "false");
  await expect(readout).toContainText(/3 of 4 replicas training/);

  // "," goes back to the failure.
  await page.keyboard.press(",");
  await expect.poll(() => cursorOf(page)).toBe(firstFailure);
  await expect(page.getByTestId("replay-phase-detect")).toHaveAttribute("data-on", "true");

  // Zooming in keeps the cursor on screen (the link's w= carries the window).
  await page.keyboard.press("+");
  await page.keyboard.press("+");
  await page.keyboard.press("+");
  const windowOf = (): [number, number] | null => {
    const m = /[#&]w=([\d.]+),([\d.]+)/.exec(page.url());
    return m ? [Number(m[1]), Number(m[2])] : null;
  };
  await expect.poll(() => windowOf()?.[1] ?? 0).toBeLessThan(firstFailure + 86_400 / 8);
  const [w0, w1] = windowOf() ?? [0, 0];
  expect(firstFailure).toBeGreaterThanOrEqual(w0);
  expect(firstFailure).toBeLessThanOrEqual(w1);

  // The replay's controls and read-out, in both themes, pass axe.
  for (const theme of ["light", "dark"]) {
    if (theme === "dark") await page.getByRole("button", { name: "Dark theme" }).click();
    const result = await new AxeBuilder({ page }).include(".timeline").analyze();
    const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(bad.map((v) => `${theme}: ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual(
      [],
    );
  }
});

test("played to the end, the counters agree with the ETTR cards", async ({ page }) => {
  await openCluster(page, /Teaching cluster/);
  await page.getByLabel("Speed").selectOption({ label: "1 day/s" });
  await page.getByTestId("replay-play").click();
  await expect.poll(() => cursorOf(page)).toBe(86_400);
  await expect(page.getByTestId("replay-play")).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByTestId("replay-clock")).toHaveText("day 1 00:00:00");
  const readout = page.getByTestId("replay-readout");
  const syncShare = percent(await readout.locator("[data-policy=synchronous]").textContent());
  const ftShare = percent(await readout.locator("[data-policy=ftHsdp]").textContent());
  expect(syncShare).toBe(percent(await page.getByTestId("ettr-synchronous").textContent()));
  expect(ftShare).toBe(percent(await page.getByTestId("ettr-ftHsdp").textContent()));
});

test("navigation wins over a playing replay: Whole run, zoom and a failure-log click pause it", async ({
  page,
}) => {
  await openCluster(page);
  const play = page.getByTestId("replay-play");
  const shown = page.getByTestId("timeline-window");
  const note = page.getByTestId("replay-paused-note");
  await play.click();
  // The replay picked a page of its own: playing, it turns pages without a note.
  await expect(shown).toHaveText(/^Showing 10\.0 h from/);
  await expect(note).toHaveCount(0);

  // Whole run: it stays the whole run (the replay used to drag it back to a 10 h page).
  await page.getByRole("button", { name: "Whole run" }).click();
  await expect(play).toHaveAttribute("aria-pressed", "false");
  await expect(note).toHaveText("Paused: you moved the timeline. ▶ Replay goes on from the cursor.");
  await frames(page, 120);
  await expect(shown).toHaveText("Showing the whole run: scroll or press + to zoom in");

  // Played again, then a zoom: the zoomed window stays.
  await play.click();
  await expect(note).toHaveCount(0);
  await expect(shown).toHaveText(/^Showing 10\.0 h from/);
  await page.getByRole("button", { name: "Zoom in" }).click();
  await expect(play).toHaveAttribute("aria-pressed", "false");
  await expect(shown).toHaveText(/^Showing 5\.0 h from/);

  // Played again, then a failure-log row far from the cursor: 120 frames on (a playing replay
  // turns the page at its next frame), it is still shown.
  await play.click();
  const rows = page.getByTestId("failure-log").locator("tbody tr:not(.spacer)");
  const row = rows.nth(8);
  await row.locator("button").first().click();
  await expect(play).toHaveAttribute("aria-pressed", "false");
  await expect(note).toBeVisible();
  const text = (await shown.textContent()) ?? "";
  await frames(page, 120);
  await expect(shown).toHaveText(text);
  await expect(row).toHaveClass(/selected/);
});
