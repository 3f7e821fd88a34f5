/**
 * Issue 12: nothing freezes, nothing lies. Each test here drives the built app the way a person
 * does and checks one finding of the issue.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";

const DIST = process.env.E2E_DIST ?? "dist";

test("the first page load fetches under 350 KB of script", () => {
  // The entry chunk is what index.html names; views and workers load on demand.
  const html = readFileSync(join(DIST, "index.html"), "utf8");
  const entry = /<script type="module"[^>]*src="\.?\/?([^"]+)"/.exec(html)?.[1];
  expect(entry, "index.html names its entry script").toBeTruthy();
  const bytes = statSync(join(DIST, entry as string)).size;
  expect(bytes).toBeLessThan(350_000);
});
