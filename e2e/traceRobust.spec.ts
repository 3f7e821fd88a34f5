/**
 * The Trace panel under what a new user and a fuzzer gave it: "Open traces…" again replaces the
 * files, the breakdowns are the command line's, the step's parts add up to what the page says and
 * the model is put beside the part it stands for, the fitted link is named as fitted, unsized
 * all-reduces borrow the model's sizes, a cancelled gzip bomb leaves the panel ready, a
 * million-event step is drawn, and a trace given to the failure-log import is sent where it goes.
 * Traces come from src/testing/ddpTrace.ts (stated figures), the figures to match from the command
 * line's own code (traceJson).
 */
import { gzipSync } from "node:zlib";
import { expect, type Page, test } from "@playwright/test";
import { measureSet } from "../src/step/trace/ranks.ts";
import { readTraceText } from "../src/step/trace/readTrace.ts";
import { traceJson } from "../src/step/trace/traceReport.ts";
import { type DdpTraceSpec, ddpGpuTrace, ddpStepEvents, exampleSpec } from "../src/testing/ddpTrace.ts";

const file = (name: string, text: string | Buffer) => ({
  name,
  mimeType: name.endsWith(".gz") ? "application/gzip" : "application/json",
  buffer: typeof text === "string" ? Buffer.from(text) : text,
});
const rank = (k: number) => file(`rank${k}.json`, ddpGpuTrace(exampleSpec(k)));

async function open(page: Page, files: ReturnType<typeof file>[], label = "Open trace files") {
  await page.getByLabel(label).setInputFiles(files);
}

async function start(page: Page) {
  await page.goto("/#v=step");
  await expect(page.getByTestId("bucket-count")).toHaveText(/^\d+$/);
}

const num = (s: string) => Number(s.replace(/,/g, ""));

test("Open traces… replaces the files; Add traces… adds; the breakdowns are the command line's", async ({
  page,
}) => {
  await start(page);
  const table = page.getByTestId("trace-table");
  await open(page, [rank(0), rank(1)]);
  await expect(page.getByTestId("trace-verdict")).toContainText("on rank 1");
  // The same file again: it replaces the two (it was "rank 0 is given twice").
  await open(page, [rank(0)]);
  await expect(table.locator('tr[data-rank="1"]')).toHaveCount(0);
  await expect(table.locator('tr[data-rank="0"]')).toHaveCount(4);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.locator(".trace-files li")).toHaveCount(1);
  await open(page, [rank(1)], "Add trace files");
  await expect(table.locator('tr[data-rank="1"]')).toHaveCount(4);

  // HTA's temporal breakdown, per rank, as `npm run trace --json` gives it for the same files.
  const json = traceJson(
    measureSet(
      [0, 1].map((k) => readTraceText(`rank${k}.json`, ddpGpuTrace(exampleSpec(k)))),
      { allSteps: false },
    ),
  );
  const breakdown = page.getByTestId("trace-breakdown");
  for (const r of json.ranks) {
    const row = breakdown.locator(`tr[data-rank="${r.rank}"]`);
    await expect(row.locator('[data-part="idle"]')).toHaveText(`${r.temporal?.idlePct} %`);
    await expect(row.locator('[data-part="compute"]')).toHaveText(`${r.temporal?.computePct} %`);
    await expect(row.locator('[data-part="non-compute"]')).toHaveText(`${r.temporal?.nonComputePct} %`);
    await expect(row).toContainText(`${r.kernelTypes.COMPUTATION?.pct} %`);
  }
});

test("like with like: the step's parts add up, the model is beside the part it stands for, the link says fitted", async ({
  page,
}) => {
  await start(page);
  await open(page, [rank(0), rank(1)]);
  const contents = page.getByTestId("trace-contents");
  await expect(contents).toContainText("ProfilerStep#5 on rank 0 lasts");
  const text = (await contents.textContent()) ?? "";
  const figure = (re: RegExp) => num(re.exec(text)?.[1] ?? "NaN");
  const window = figure(/lasts ([\d.,]+) ms/);
  const parts = [
    figure(/compute ([\d.,]+) ms/),
    figure(/hidden by compute ([\d.,]+) ms/),
    figure(/\(memory copies\) ([\d.,]+) ms/),
    figure(/idle \(no kernel running\) ([\d.,]+) ms/),
  ];
  // The parts the page names add up to the window it names (each printed to its own rounding).
  expect(Math.abs(parts.reduce((a, b) => a + b, 0) - window)).toBeLessThan(0.05);
  const modelled = figure(/The model holds the first two only, ([\d.,]+) ms/);
  expect(Math.abs(modelled - parts[0]! - parts[1]!)).toBeLessThan(0.02);
  await expect(page.getByTestId("trace-model-error")).toContainText(
    `against ${text.match(/first two only, ([\d.,]+ ms)/)?.[1]} of compute and exposed communication measured`,
  );

  // The rank beside the model is chosen beside the step.
  await page.getByLabel("Rank beside the model").selectOption("1");
  await expect(contents).toContainText("on rank 1 lasts");

  await page.getByRole("button", { name: "Use the fitted link" }).click();
  const state = page.getByTestId("interLink-state").or(page.getByTestId("intraLink-state"));
  await expect(state).toHaveText("fitted to rank0.json, rank1.json");
  await expect(page.getByTestId("trace-model-error")).toContainText(
    "The model (the link fitted to these traces, α",
  );
  // Not clipped: the words fit their box and the box lies on the page.
  expect(await state.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
  const box = await state.boundingBox();
  expect(box !== null && box.x >= 0 && box.x + box.width <= 1400).toBe(true);
  // Edited by hand, it says so.
  const alpha = page.locator(".step-link").filter({ has: state }).getByLabel("α");
  await alpha.fill("33");
  await alpha.press("Enter");
  await expect(state).toHaveText("edited");
});

test("all-reduces without sizes borrow the model's bucket sizes, and the step is drawn meanwhile", async ({
  page,
}) => {
  await start(page);
  const buckets = num((await page.getByTestId("bucket-count").textContent()) ?? "0");
  expect(buckets).toBeGreaterThan(1);
  const spec: DdpTraceSpec = {
    ...exampleSpec(0),
    buckets: Array.from({ length: buckets }, (_, i) => 1_048_576 * (1 + (i % 5))),
  };
  const unsized = ddpGpuTrace(spec).replace(/"In msg nelems":\d+,"Out msg nelems":\d+,"dtype":"Float",/g, "");
  expect(unsized).not.toContain("In msg nelems");
  await open(page, [file("old.json", unsized)]);
  await expect(page.getByTestId("trace-model-why")).toContainText("carry no size");
  await expect(page.getByTestId("trace-gantt")).toHaveAttribute("aria-label", "ProfilerStep#5 as measured");
  const offer = page.getByTestId("trace-borrow");
  await expect(offer).toContainText("PyTorch 2.0");
  await offer.getByRole("checkbox").check();
  await expect(page.getByTestId("trace-borrowed")).toHaveText("3 steps took the model's sizes.");
  await expect(page.getByTestId("trace-model-error")).toContainText("predicts");
  await expect(page.getByTestId("trace-gantt")).toHaveAttribute(
    "aria-label",
    "ProfilerStep#5: measured above, model below",
  );
});

test("Cancel on a gzip bomb leaves the panel ready: the next traces read", async ({ page }) => {
  await start(page);
  // 190 MB of valid, empty events in 450 KB of gzip.
  const unit = Buffer.from('{"ph":"i","s":"g"},');
  const bomb = gzipSync(
    Buffer.concat([
      Buffer.from('{"traceEvents":['),
      Buffer.alloc(unit.length * 10e6, unit),
      Buffer.from('{"ph":"i"}]}'),
    ]),
    { level: 9 },
  );
  await open(page, [file("bomb.json.gz", bomb)]);
  const row = page.locator('.trace-files li[data-state="reading"]');
  await expect(row).toContainText("bomb.json.gz");
  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(page.locator(".trace-files li")).toHaveCount(0);
  await open(page, [rank(0), rank(1)]);
  await expect(page.getByTestId("trace-verdict")).toContainText("on rank 1");
});

test("a million-event step is read and drawn, its marks bounded", async ({ page }) => {
  test.setTimeout(300_000);
  const spec: DdpTraceSpec = {
    ...exampleSpec(0),
    buckets: Array.from({ length: 250_000 }, (_, i) => 4096 * (1 + (i % 7))),
  };
  const events = ddpStepEvents(spec, 0);
  expect(events.length).toBeGreaterThan(1_000_000);
  const parts: string[] = ['{"distributedInfo":{"rank":0,"world_size":8,"backend":"nccl"},"traceEvents":['];
  events.forEach((e, i) => {
    parts.push(`${i === 0 ? "" : ","}${JSON.stringify(e)}`);
  });
  parts.push("]}");
  const gz = gzipSync(Buffer.from(parts.join("")), { level: 6 });
  await start(page);
  await open(page, [file("million.json.gz", gz)]);
  await expect(page.getByTestId("trace-verdict")).toContainText("hidden on rank 0", { timeout: 240_000 });
  await page.getByLabel("Keep the last step (HTA drops it)").check();
  await expect(page.getByTestId("trace-gantt")).toBeVisible({ timeout: 120_000 });
  await expect(page.getByText("250,000 communication kernels in this step, drawn as")).toBeVisible();
  const marks = await page.getByTestId("trace-gantt").locator("rect").count();
  expect(marks).toBeLessThan(5000);
  await expect(page.getByText("stopped working")).toHaveCount(0);
});

test("a gzipped trace given to the failure-log import is named and sent to the Trace panel", async ({
  page,
}) => {
  await page.goto("/#v=cluster");
  const panel = page.getByRole("region", { name: "Failure log import" });
  await panel
    .getByTestId("fit-file-input")
    .setInputFiles([file("rank0.json.gz", gzipSync(Buffer.from(ddpGpuTrace(exampleSpec(0)))))]);
  await expect(panel.getByTestId("fit-error")).toContainText(
    "rank0.json.gz is a gzip-compressed PyTorch profiler trace, not a failure log: open it in the One step view's Trace panel",
  );
  await expect(panel.getByTestId("fit-error")).not.toContainText("unknown column");
});
