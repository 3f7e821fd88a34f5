/**
 * `npm run bench:train`: live FT-HSDP training in a real headless Chromium, driven as a person
 * drives it (open the view with a link, pick the mode, press Start, wait for Done). Reports the
 * training steps per second of the runs under test (R = 4 replicas per step; the float64
 * reference beside them is not counted) and the share of a step spent in the ring all-reduce,
 * and writes bench/train-results.json. On a software adapter the "GPU" is the CPU.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { chromium } from "@playwright/test";
import { sealText } from "../src/link/sealedText.ts";
import { buildIfNeeded, CHROMIUM, portAnswers, waitForServer } from "./browser.ts";

const PORT = Number(process.env.BENCH_PORT ?? 4395);
const DIST = "dist-trainbench";

interface Case {
  mode: "shared" | "separate" | "cpu";
  hidden: number;
}

const CASES: Case[] = [
  { mode: "shared", hidden: 64 },
  { mode: "shared", hidden: 128 },
  { mode: "separate", hidden: 64 },
  { mode: "cpu", hidden: 64 },
];

async function main() {
  buildIfNeeded(DIST);
  if (await portAnswers(`http://localhost:${PORT}/`))
    throw new Error(`port ${PORT} is taken: set BENCH_PORT`);
  const server = spawn("npx", ["vite", "preview", "--port", String(PORT), "--strictPort", "--outDir", DIST], {
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const browser = await chromium.launch({
    ...(CHROMIUM ? { executablePath: CHROMIUM } : {}),
    args: ["--no-sandbox", "--enable-unsafe-webgpu"],
  });
  const rows: Record<string, unknown>[] = [];
  try {
    await waitForServer(`http://localhost:${PORT}/`);
    console.log(
      `load average (1 min) before: ${(loadavg()[0] ?? Number.NaN).toFixed(2)} on ${cpus().length} CPUs`,
    );
    for (const c of CASES) {
      const page = await browser.newPage();
      // 100 steps, one FT-HSDP policy, one failure: five hundred-odd steps of R = 4 in all.
      const t = `h${c.hidden}.r4.n100.lr0.3.k25.s1.pn.f1@40+20`;
      await page.goto(`http://localhost:${PORT}/${c.mode === "cpu" ? "?cpu" : ""}#v=train&t=${sealText(t)}`);
      const start = page.getByTestId("train-start");
      await start.waitFor();
      await page.waitForFunction(
        () => !document.querySelector("[data-testid=train-start]")?.hasAttribute("disabled"),
      );
      const adapter = (await page.getByTestId("adapter-badge").textContent()) ?? "";
      if (c.mode !== "cpu") await page.getByLabel("Mode").selectOption(c.mode);
      await start.click();
      const out = page.getByTestId("train-progress");
      await out.getByText("Done").waitFor({ timeout: 600_000 });
      const sps = Number(await out.getAttribute("data-steps-per-second"));
      const share = Number(await out.getAttribute("data-all-reduce-share"));
      const verified = (await page.getByTestId("train-badge").textContent()) === "✓ verified";
      const row = {
        mode: c.mode,
        hidden: c.hidden,
        replicas: 4,
        stepsPerSecond: sps,
        allReduceShare: share,
        verified,
        adapter,
      };
      rows.push(row);
      console.log(
        `${c.mode.padEnd(9)} hidden ${String(c.hidden).padStart(3)}  R=4  ${sps.toFixed(1).padStart(6)} steps/s  all-reduce ${(share * 100).toFixed(0).padStart(3)} % of a step  ${verified ? "verified" : "NOT VERIFIED"}  (${adapter})`,
      );
      await page.close();
    }
    console.log(`load average (1 min) after: ${(loadavg()[0] ?? Number.NaN).toFixed(2)}`);
    writeFileSync("bench/train-results.json", `${JSON.stringify(rows, null, 1)}\n`);
    if (rows.some((r) => !r.verified)) process.exitCode = 1;
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
