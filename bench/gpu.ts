/**
 * `npm run bench:gpu`: the WebGPU lab's benchmark in a real headless Chromium. Builds the app if
 * the build is missing or older than src/, serves it, calls the lab's bench (exposed on `window`
 * with `?bench`), prints a table and writes bench/gpu-results.json: an array of
 * {mode, algorithm, devices, bytesPerDevice, seconds, algbw, busbw, efficiency, verified} (GB/s),
 * plus how each was timed and the ceilings they were divided by.
 *
 * On a software adapter (SwiftShader: the "GPU" is the CPU) sizes stop at 64 MiB per device for
 * the shared mode (8 devices × in + out = 1 GiB resident), 4 MiB for the separate mode (every hop is
 * a host round trip) and 16 MiB for the CPU fallback, so the whole run takes a few minutes on two
 * cores. A hardware adapter gets the full 4 KiB–256 MiB range, capped by its limits.
 * BENCH_QUICK=1: a smoke run (small sizes only). BENCH_TARGET=1: only the cases with
 * targets (shared mode, 8 devices, 64 MiB per device).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { chromium } from "@playwright/test";
import type { BenchPlan, BenchReport } from "../src/lab/labRequests.ts";
import { buildIfNeeded, CHROMIUM, portAnswers, waitForServer } from "./browser.ts";

const PORT = Number(process.env.BENCH_PORT ?? 4394);
const DIST = "dist-gpubench";
const QUICK = process.env.BENCH_QUICK === "1";
const TARGET = process.env.BENCH_TARGET === "1";
const KiB = 1024;
const MiB = 1024 * KiB;
const SIZES = [4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144].map((k) => k * KiB);

function planFor(kind: string): BenchPlan {
  if (TARGET) {
    return {
      modes: ["shared"],
      devices: [8],
      sizes: [64 * MiB],
      algorithms: { shared: ["ring", "one-shot", "halving-doubling"] },
      maxBytes: {},
    };
  }
  const soft = kind !== "hardware";
  const upTo = (b: number) => SIZES.filter((s) => s <= b);
  return {
    modes: ["shared", "separate", "cpu"],
    devices: [2, 4, 8],
    sizes: QUICK ? upTo(256 * KiB) : SIZES,
    algorithms: {
      shared: ["ring", "halving-doubling", "one-shot", "reduce-scatter", "all-gather"],
      separate: ["ring", "halving-doubling", "reduce-scatter", "all-gather"],
      cpu: ["ring", "halving-doubling", "one-shot"],
    },
    maxBytes: soft
      ? { shared: 64 * MiB, separate: 4 * MiB, cpu: 16 * MiB }
      : { separate: 64 * MiB, cpu: 64 * MiB },
  };
}

const pad = (s: string | number, n: number) => String(s).padStart(n);

async function main() {
  buildIfNeeded(DIST);
  // Someone else's server on our port would be benchmarked instead of this build: refuse.
  if (await portAnswers(`http://localhost:${PORT}/`))
    throw new Error(`port ${PORT} is taken: set BENCH_PORT`);
  const args = ["vite", "preview", "--port", String(PORT), "--strictPort", "--outDir", DIST];
  const server = spawn("npx", args, {
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const browser = await chromium.launch({
    ...(CHROMIUM ? { executablePath: CHROMIUM } : {}),
    args: ["--no-sandbox", "--enable-unsafe-webgpu"],
  });
  try {
    await waitForServer(`http://localhost:${PORT}/`);
    const page = await browser.newPage();
    page.on("console", (m) => {
      if (m.type() === "error") console.error(`[page] ${m.text()}`);
    });
    await page.goto(`http://localhost:${PORT}/?bench#v=lab`);
    await page.waitForFunction(() => typeof window.ftHsdpLabBench === "function", null, { timeout: 60_000 });
    const kind = await page.locator("[data-testid=adapter-badge]").getAttribute("class");
    const adapterKind = kind?.includes("hardware")
      ? "hardware"
      : kind?.includes("software")
        ? "software"
        : "cpu";
    const plan = planFor(adapterKind);
    console.log(`adapter: ${adapterKind}; plan: modes ${plan.modes.join("/")}, N ${plan.devices.join("/")}`);
    // The CPUs are shared (and a software adapter is CPU-bound): say how busy they were.
    const loadBefore = loadavg()[0] ?? Number.NaN;
    const t0 = Date.now();
    const report: BenchReport = await page.evaluate((p) => {
      const bench = window.ftHsdpLabBench;
      if (!bench) throw new Error("no bench hook");
      return bench(p);
    }, plan);
    const seconds = (Date.now() - t0) / 1000;
    console.log(
      `adapter: ${report.adapter.kind} (${report.adapter.label}), timestamps: ${report.adapter.timestamps}`,
    );
    console.log(
      `load average (1 min): ${loadBefore.toFixed(2)} before, ${(loadavg()[0] ?? Number.NaN).toFixed(2)} after, on ${cpus().length} CPUs`,
    );
    for (const [mode, c] of Object.entries(report.ceilings)) {
      console.log(
        `ceilings [${mode}] at ${c.bytes / MiB} MiB: streaming ${c.streamingGBps.toFixed(2)} GB/s (copy ${c.streamCopyGBps.toFixed(2)}, add ${c.streamAddGBps.toFixed(2)}), copyBuffer ${c.copyBufferGBps.toFixed(2)} GB/s, ${c.timer}`,
      );
    }
    console.log(
      `${"mode".padEnd(9)}${"algorithm".padEnd(18)}${pad("N", 3)}${pad("size", 10)}${pad("time ms", 11)}${pad("algbw", 9)}${pad("busbw", 9)}${pad("eff", 7)}  ok   timer`,
    );
    for (const r of report.rows) {
      console.log(
        `${r.mode.padEnd(9)}${r.algorithm.padEnd(18)}${pad(r.devices, 3)}${pad(r.bytesPerDevice >= MiB ? `${r.bytesPerDevice / MiB}M` : `${r.bytesPerDevice / KiB}K`, 10)}${pad((r.seconds * 1e3).toFixed(3), 11)}${pad(r.algbw.toFixed(3), 9)}${pad(r.busbw.toFixed(3), 9)}${pad(`${(r.efficiency * 100).toFixed(0)}%`, 7)}  ${r.verified ? "yes" : "NO "}  ${r.timer}`,
      );
    }
    const rows = report.rows.map((r) => ({
      mode: r.mode,
      algorithm: r.algorithm,
      devices: r.devices,
      bytesPerDevice: r.bytesPerDevice,
      seconds: r.seconds,
      algbw: r.algbw,
      busbw: r.busbw,
      efficiency: r.efficiency,
      verified: r.verified,
      timer: r.timer,
      reps: r.reps,
      submits: r.submits,
      maxAbsError: r.maxAbsError,
      streamingCeilingGBps: report.ceilings[r.mode]?.streamingGBps ?? null,
      adapter: report.adapter.kind,
    }));
    const out = QUICK
      ? "bench/gpu-results.quick.json"
      : TARGET
        ? "bench/gpu-results.target.json"
        : "bench/gpu-results.json";
    writeFileSync(out, `${JSON.stringify(rows, null, 1)}\n`);
    const bad = rows.filter((r) => !r.verified).length;
    console.log(`${rows.length} cases in ${seconds.toFixed(0)} s, ${bad} not verified; wrote ${out}`);
    if (bad > 0) process.exitCode = 1;
  } finally {
    await browser.close();
    try {
      if (server.pid) process.kill(-server.pid);
    } catch {
      // already gone
    }
  }
}

await main();
