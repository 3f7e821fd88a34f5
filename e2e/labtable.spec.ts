/**
 * The lab's results table: one unit a column, in its header, and nothing
 * clipped at 1280 × 720 or 390 × 844, every cell measured against the table's container. The rows
 * come with a link (`lres=`), built as the lab measures them (algbw = S / t, busbw from nccl-tests'
 * factor), so the table holds MB/s and GB/s figures at once without running a kernel.
 */
import { expect, type Page, test } from "@playwright/test";
import { busBwFactor } from "../src/gpu/collectives.ts";
import { encodeLabResults, type LinkedRow } from "../src/link/labResultsLink.ts";

const KiB = 1024;

function row(
  algorithm: LinkedRow["algorithm"],
  devices: number,
  bytesPerDevice: number,
  seconds: number,
): LinkedRow {
  const algbw = bytesPerDevice / seconds / 1e9;
  return {
    mode: "shared",
    algorithm,
    devices,
    bytesPerDevice,
    seconds,
    algbw,
    busbw: algbw * busBwFactor("all-reduce", devices),
    efficiency: 0.42,
    verified: true,
    maxAbsError: 1e-7,
    toleranceAtWorst: 2e-7,
    timer: "gpu-timestamp",
    reps: 5,
    submits: 1,
    trafficBytes: 2 * bytesPerDevice,
    on: "NVIDIA GeForce RTX 4090 (hardware)",
  };
}

// 4 KiB in 120 µs is 34 MB/s; 64 MiB in 9 ms is 7.5 GB/s: the column used to mix the two.
const ROWS = [
  row("ring", 2, 4 * KiB, 120e-6),
  row("halving-doubling", 8, 1024 * KiB, 1.1e-3),
  row("one-shot", 16, 64 * 1024 * KiB, 9e-3),
];

async function openTable(page: Page) {
  await page.goto(`/#v=lab&lres=${encodeLabResults(ROWS)}`);
  const table = page.getByRole("table", { name: "Results" });
  await expect(table.locator("tbody tr")).toHaveCount(ROWS.length);
  return table;
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
]) {
  test(`at ${viewport.width} × ${viewport.height} no cell of the results table is clipped by its container`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const table = await openTable(page);
    const overflow = await table.evaluate((t) => {
      const wrap = t.parentElement as HTMLElement;
      const box = wrap.getBoundingClientRect();
      const cells = [...t.querySelectorAll("td")].filter((c) => c.getBoundingClientRect().width > 0);
      const out = cells
        .map((c) => ({
          text: c.textContent,
          right: c.getBoundingClientRect().right,
          left: c.getBoundingClientRect().left,
        }))
        .filter((c) => c.right > box.right + 0.5 || c.left < box.left - 0.5);
      return {
        scroll: wrap.scrollWidth - wrap.clientWidth,
        cells: cells.length,
        out,
        page: document.documentElement.scrollWidth - innerWidth,
      };
    });
    expect(overflow.cells).toBeGreaterThanOrEqual(ROWS.length * 9);
    expect(overflow.out).toEqual([]);
    expect(overflow.scroll).toBeLessThanOrEqual(0);
    expect(overflow.page).toBeLessThanOrEqual(0);
    // The verdict of every row is on screen in full, not only in the DOM.
    for (const verdict of await table.getByText("✓ verified").all()) {
      await verdict.scrollIntoViewIfNeeded();
      await expect(verdict).toBeInViewport({ ratio: 1 });
    }
  });
}

test("each column has one unit, in its header, chosen from its values", async ({ page }) => {
  const table = await openTable(page);
  const headers = await table.locator("thead th").allTextContents();
  expect(headers).toContain("algbw (GB/s)");
  expect(headers).toContain("busbw (GB/s)");
  expect(headers).toContain("Time (ms)");
  expect(headers).toContain("Size / device (KiB)");
  // No cell repeats a unit; a column's figures share their decimals.
  const cells = await table.locator("tbody td.num").allTextContents();
  for (const c of cells) expect(c).not.toMatch(/[MGk]B\/s|ms|µs|iB/);
  const algbw = await table.locator("tbody tr td:nth-child(6)").allTextContents();
  // Newest first: 64 MiB in 9 ms, 1 MiB in 1.1 ms, 4 KiB in 120 µs.
  expect(algbw).toEqual(["7.457", "0.953", "0.034"]);
});
