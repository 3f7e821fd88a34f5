/**
 * `npm run bench:ui`: the explorer in a real headless Chromium. Builds the app, serves it, opens
 * the default scenario (98,304 GPUs, 30 days), and measures
 *   - the timeline's frame cost while panning at several zoom levels: the renderer's own draw
 *     time (User Timing "timeline-draw" entries) and the requestAnimationFrame intervals;
 *   - the replay's frame cost at several speeds: the canvas draws ("timeline-draw": the cached
 *     timeline copied plus the cursor and lit phases, and the full redraw when a page turns), the
 *     whole replay frame ("replay-frame": cursor, counters, read-out, canvas) and the intervals;
 *   - a 20-point × 200-seed sweep (cluster size 1K–200K GPUs) in the worker pool, from click to done.
 * Prints a table and writes bench/ui-results.json. Timings live here, never in pass/fail tests.
 */
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "@playwright/test";
import { formatClock } from "../src/ui/timeline/timeAxis.ts";
import { CHROMIUM, waitForServer } from "./browser.ts";

const PORT = Number(process.env.BENCH_PORT ?? 4197);
const DIST = "dist-bench";
const FRAMES = 150;

interface Stats {
  median: number;
  p95: number;
  max: number;
  n: number;
}

function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? Number.NaN;
  return { median: at(0.5), p95: at(0.95), max: s.at(-1) ?? Number.NaN, n: s.length };
}

/**
 * Drag-pan the timeline one step per animation frame, as a person dragging would. Kept as source
 * text: tsx would otherwise wrap its inner functions in a helper the page does not have.
 */
const PAN_SCRIPT = `(async (frames) => {
  const c = document.querySelector("[data-testid=timeline-canvas]");
  const r = c.getBoundingClientRect();
  const y = r.top + 60;
  let x = r.left + r.width * 0.6;
  const opts = () => ({ clientX: x, clientY: y, button: 0, bubbles: true, view: window });
  performance.clearMeasures("timeline-draw");
  c.dispatchEvent(new MouseEvent("mousedown", opts()));
  const deltas = [];
  let last = performance.now();
  await new Promise((resolve) => {
    let n = 0;
    const step = (now) => {
      deltas.push(now - last);
      last = now;
      x += n < frames / 2 ? -6 : 6;
      window.dispatchEvent(new MouseEvent("mousemove", opts()));
      if (++n < frames) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
  window.dispatchEvent(new MouseEvent("mouseup", opts()));
  await new Promise((r) => requestAnimationFrame(r));
  const draws = performance.getEntriesByName("timeline-draw").map((e) => e.duration);
  return { deltas: deltas.slice(2), draws };
})(${FRAMES})`;

async function pan(page: Page): Promise<{ deltas: number[]; draws: number[] }> {
  return page.evaluate(PAN_SCRIPT) as Promise<{ deltas: number[]; draws: number[] }>;
}

/** Press Replay, let it run for a number of animation frames, press Pause; source text as above. */
const REPLAY_SCRIPT = `(async (frames) => {
  const play = document.querySelector("[data-testid=replay-play]");
  performance.clearMeasures("timeline-draw");
  performance.clearMeasures("replay-frame");
  const deltas = [];
  play.click();
  let last = performance.now();
  await new Promise((resolve) => {
    let n = 0;
    const step = (now) => {
      deltas.push(now - last);
      last = now;
      if (++n < frames) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
  play.click();
  const canvas = document.querySelector("[data-testid=timeline-canvas]");
  const draws = performance.getEntriesByName("timeline-draw").map((e) => e.duration);
  const ticks = performance.getEntriesByName("replay-frame").map((e) => e.duration);
  return { deltas: deltas.slice(2), draws, ticks, cursor: Number(canvas.dataset.cursor) };
})(${FRAMES})`;

interface ReplayRun {
  deltas: number[];
  draws: number[];
  ticks: number[];
  cursor: number;
}

async function replay(page: Page): Promise<ReplayRun> {
  return page.evaluate(REPLAY_SCRIPT) as Promise<ReplayRun>;
}

async function main() {
  execFileSync("npx", ["vite", "build", "--outDir", DIST, "--logLevel", "error"], { stdio: "inherit" });
  const server = spawn("npx", ["vite", "preview", "--port", String(PORT), "--strictPort", "--outDir", DIST], {
    stdio: "ignore",
    detached: true,
  });
  const url = `http://localhost:${PORT}/`;
  try {
    await waitForServer(url);
    const browser = await chromium.launch({
      ...(CHROMIUM ? { executablePath: CHROMIUM } : {}),
      headless: true,
      args: ["--no-sandbox", "--enable-unsafe-webgpu"],
    });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(url);
    const canvas = page.getByTestId("timeline-canvas");
    await canvas.waitFor();
    await page.getByTestId("failure-log").waitFor();
    const failures = await page.getByTestId("failure-log").getAttribute("aria-label");
    const gpus = await page.getByTestId("cluster.gpus").inputValue();
    await canvas.scrollIntoViewIfNeeded();
    await canvas.focus();

    const panRows: { window: string; draw: Stats; frame: Stats }[] = [];
    // Each "+" halves the window: 30 d → 7.5 d → 0.94 d → 28 min.
    for (const [presses, label] of [
      [2, "7.5 days"],
      [3, "22.5 hours"],
      [5, "42 minutes"],
    ] as const) {
      for (let i = 0; i < presses; i++) await page.keyboard.press("+");
      await page.waitForTimeout(300);
      const { deltas, draws } = await pan(page);
      panRows.push({ window: label, draw: stats(draws), frame: stats(deltas) });
    }

    // The replay: from the start of the run, at three speeds; each picks its own window (an hour
    // of playback a page, turned as the cursor nears the edge), so page turns are in the figures.
    const replayRows: { speed: string; draw: Stats; tick: Stats; frame: Stats; simulated: number }[] = [];
    for (const speed of ["10 min/s", "1 day/s", "1 failure/s"]) {
      const stop = page.getByRole("button", { name: "Stop", exact: true });
      if (await stop.isEnabled()) await stop.click();
      await page.getByLabel("Speed").selectOption({ label: speed });
      await canvas.focus();
      await page.keyboard.press("0");
      await page.waitForTimeout(300);
      const r = await replay(page);
      replayRows.push({
        speed,
        draw: stats(r.draws),
        tick: stats(r.ticks),
        frame: stats(r.deltas),
        simulated: r.cursor,
      });
    }

    // The sweep: 20 cluster sizes × 200 seeds, timed from the click to "Done".
    await page.getByLabel("Sweep axis").selectOption("gpus");
    await page.getByLabel("Points", { exact: true }).fill("20");
    await page.getByLabel("Seeds per point").fill("200");
    const workers = await page.evaluate(() => navigator.hardwareConcurrency);
    const t0 = Date.now();
    await page.getByRole("button", { name: "Run sweep" }).click();
    await page.getByTestId("sweep-status").filter({ hasText: /^Done/ }).waitFor({ timeout: 600_000 });
    const sweepMs = Date.now() - t0;
    const status = await page.getByTestId("sweep-status").textContent();
    await browser.close();

    const fmt = (x: number) => x.toFixed(2).padStart(7);
    console.log(
      `\nExplorer UI bench — ${gpus} GPUs, 30 days (${failures}); Chromium headless, ${cpus().length} CPUs\n`,
    );
    console.log(
      "timeline pan, window   draw ms median    p95    max | frame interval ms median    p95 | frames",
    );
    for (const r of panRows) {
      console.log(
        `${r.window.padEnd(22)} ${fmt(r.draw.median)} ${fmt(r.draw.p95)} ${fmt(r.draw.max)} |            ${fmt(r.frame.median)} ${fmt(r.frame.p95)} | ${r.draw.n}`,
      );
    }
    console.log(
      "\nreplay, speed          draw ms median    p95    max | replay frame ms  p95 | frame interval ms median    p95 | frames | reached",
    );
    for (const r of replayRows) {
      console.log(
        `${r.speed.padEnd(22)} ${fmt(r.draw.median)} ${fmt(r.draw.p95)} ${fmt(r.draw.max)} |         ${fmt(r.tick.p95)} |            ${fmt(r.frame.median)} ${fmt(r.frame.p95)} | ${String(r.tick.n).padStart(6)} | ${formatClock(r.simulated)}`,
      );
    }
    console.log(
      `\nsweep 20 points × 200 seeds (1K–200K GPUs), ${workers} workers: ${(sweepMs / 1000).toFixed(2)} s (${status})`,
    );
    const out = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? "", browserCores: workers },
      scenario: { gpus: Number(gpus), days: 30, failures },
      pan: panRows.map((r) => ({
        window: r.window,
        drawMs: r.draw,
        frameIntervalMs: r.frame,
        target: "median and p95 under 16 ms",
      })),
      replay: replayRows.map((r) => ({
        speed: r.speed,
        drawMs: r.draw,
        replayFrameMs: r.tick,
        frameIntervalMs: r.frame,
        reachedSeconds: r.simulated,
        target: "draw p95 under 8 ms",
      })),
      sweep: { points: 20, seeds: 200, workers, wallMs: sweepMs, status, target: "under 5 s on two cores" },
    };
    writeFileSync(join(import.meta.dirname, "ui-results.json"), `${JSON.stringify(out, null, 2)}\n`);
    console.log("\nwrote bench/ui-results.json");
  } finally {
    try {
      if (server.pid) process.kill(-server.pid);
    } catch {
      // already gone
    }
  }
}

await main();
