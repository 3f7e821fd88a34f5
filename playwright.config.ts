import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

// Playwright cannot download its own browsers here: drive the system Chromium (Debian's
// `chromium`), with WebGPU on its software adapter. `--enable-gpu` would break that.
const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
const executablePath = candidates.find((p): p is string => !!p && existsSync(p));

// Several people (or agents) may test at once on one machine: each picks its own port and build
// folder, e.g. `E2E_PORT=4175 E2E_DIST=dist-step`.
const port = Number(process.env.E2E_PORT ?? 4173);
const dist = process.env.E2E_DIST ?? "dist";

/**
 * Specs that must have the machine to themselves, run one at a time after the rest: long
 * simulations with their own long timeouts (a year-long run, a capped Monte Carlo, four strategies
 * in two themes, fits, the accessibility scan), what watches main-thread tasks or the page's idle
 * time (claims' long tasks, a link's run waiting for the page), worker supervision by silence
 * (robust), the WebGPU lab on its software adapter and live training (CPU-bound by design), and the
 * screenshot specs. The others drive the page the way a person does, wait on what it says, and run
 * two at a time (two workers on the two cores). `scripts/e2e.sh` runs the two projects in turn.
 */
export const SERIAL_SPECS = [
  "claims.spec.ts",
  "cluster.spec.ts",
  "cluster-lanes.spec.ts",
  "colours.spec.ts",
  "explorer.spec.ts",
  "fitlog.spec.ts",
  "lab.spec.ts",
  "linkrun.spec.ts",
  "links.spec.ts",
  "mobile.spec.ts",
  "robust.spec.ts",
  "storyFtar.spec.ts",
  "train.spec.ts",
  "trainDiloco.spec.ts",
];
const serial = SERIAL_SPECS.map((f) => new RegExp(`(^|/)${f.replace(/[.]/g, "\\.")}$`));

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // Files spread over the workers; the tests of one file run in order in one worker.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  projects: [
    { name: "shared", testIgnore: serial },
    { name: "alone", testMatch: serial, workers: 1 },
  ],
  reporter: "list",
  use: {
    baseURL: `http://localhost:${port}`,
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: [
        "--no-sandbox",
        "--enable-unsafe-webgpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    command: `npx vite preview --port ${port} --strictPort --outDir ${dist}`,
    url: `http://localhost:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
