/**
 * What the browser benchmarks share: a build of the app in their own folder (rebuilt when src/
 * is newer), the system Chromium, and waiting for the preview server.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export const CHROMIUM = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (p): p is string => !!p && existsSync(p),
);

function newestMtime(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return t;
}

export function buildIfNeeded(dist: string): void {
  const index = join(dist, "index.html");
  if (
    existsSync(index) &&
    statSync(index).mtimeMs > Math.max(newestMtime("src"), statSync("index.html").mtimeMs)
  )
    return;
  console.log(`building into ${dist}/ …`);
  execFileSync("npx", ["vite", "build", "--outDir", dist, "--logLevel", "warn"], { stdio: "inherit" });
}

export async function waitForServer(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the preview server at ${url} did not start`);
}

export async function portAnswers(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}
