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

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
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
