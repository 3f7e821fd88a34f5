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

test("a refused knob edit is applied once the other field of its rule makes it valid", async ({ page }) => {
  await page.goto("/#v=cluster");
  const gpus = page.getByLabel("GPUs", { exact: true });
  const replicas = page.getByLabel("Replicas (R)", { exact: true });
  const summary = page.locator(".knobs-summary");
  await expect(summary).toHaveText("12,288 hosts · 1,024 hosts per replica");
  // 16,384 GPUs = 2,048 hosts: not divisible by 12 replicas, so refused and not used.
  await gpus.fill("16384");
  await expect(page.getByRole("alert").filter({ hasText: "replicas" })).toBeVisible();
  await expect(summary).toHaveText("12,288 hosts · 1,024 hosts per replica");
  // 16 replicas make it valid: both apply, the error goes, the simulation uses 16,384 GPUs.
  await replicas.fill("16");
  await expect(summary).toHaveText("2,048 hosts · 128 hosts per replica");
  await expect(gpus).toHaveValue("16384");
  await expect(gpus).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.locator(".knobs [role=alert]")).toHaveCount(0);
});
