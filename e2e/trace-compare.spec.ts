/**
 * The Trace panel's "Compare with…": a control set and a test set (DDP-shaped GPU traces written
 * by src/testing/ddpTrace.ts, the test set's bucket cap raised so the same gradients travel in
 * two all-reduces instead of four) opened in the page; the sentence read, and it is the one the
 * command line's code gives for the same files. A long comparison (large test files) is
 * cancelled: it stops, says so, and the control traces stay measured.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { diffSentence } from "../src/step/trace/diffReport.ts";
import { measureSet } from "../src/step/trace/ranks.ts";
import { readTraceText } from "../src/step/trace/readTrace.ts";
import { diffSets } from "../src/step/trace/traceDiff.ts";
import { type DdpTraceSpec, ddpGpuTrace, ddpStepEvents, exampleSpec } from "../src/testing/ddpTrace.ts";

const MB = 1_048_576;
const control = (k: number): DdpTraceSpec => ({ ...exampleSpec(k), lateUs: 0, tailUs: 50 });
const raised = (k: number): DdpTraceSpec => ({ ...control(k), buckets: [5 * MB, 10 * MB] });

const file = (spec: DdpTraceSpec) => ({
  name: `rank${spec.rank}.json`,
  mimeType: "application/json",
  buffer: Buffer.from(ddpGpuTrace(spec)),
});

/** A test trace of about `mb` MB on disk: the raised-cap step repeated. */
function largeFile(k: number, mb: number): string {
  const spec = raised(k);
  const parts: string[] = [];
  let size = 0;
  for (let step = 0; size < mb * 1e6; step++) {
    const body = ddpStepEvents(spec, step)
      .map((e) => JSON.stringify(e))
      .join(",");
    parts.push(body);
    size += body.length + 1;
  }
  const path = join(mkdtempSync(join(tmpdir(), "trace-compare-e2e-")), `rank${k}.json`);
  writeFileSync(
    path,
    `{"schemaVersion":1,"distributedInfo":{"backend":"nccl","rank":${k},"world_size":2},"traceEvents":[${parts.join(",")}]}`,
  );
  return path;
}

async function openControl(page: Page) {
  await page.goto("/#v=step");
  await expect(page.getByTestId("bucket-count")).toHaveText(/^\d+$/);
  await page.getByLabel("Open trace files").setInputFiles([file(control(0)), file(control(1))]);
  await expect(page.getByTestId("trace-verdict")).toContainText("hidden on rank 0");
}

test("two trace sets: the sentence says exposed communication explains the change, as the command line does", async ({
  page,
}) => {
  await openControl(page);
  await page.getByLabel("Open test trace files").setInputFiles([file(raised(0)), file(raised(1))]);
  const sentence = page.getByTestId("compare-sentence");
  await expect(sentence).toContainText("exposed communication explains most of it");
  const ranks = (specs: DdpTraceSpec[]) =>
    measureSet(
      specs.map((s) => readTraceText(`rank${s.rank}.json`, ddpGpuTrace(s))),
      { allSteps: false },
    ).ranks;
  const expected = diffSentence(diffSets(ranks([control(0), control(1)]), ranks([raised(0), raised(1)])));
  await expect(sentence).toHaveText(expected);
  // One row per rank and a row for all, the explaining part marked on each.
  const table = page.getByTestId("compare-table");
  await expect(table.locator("tbody tr")).toHaveCount(3);
  await expect(table.locator("td.compare-main")).toHaveCount(3);
  await expect(page.getByTestId("compare-buckets")).toContainText("2 decreased");
  await expect(page.getByTestId("compare-ops").locator('tr[data-bucket="decreased"]').first()).toContainText(
    "all-reduce (communication)",
  );
  // Another step of rank 1 on the shared axis.
  await expect(page.getByTestId("compare-gantt")).toBeVisible();
  await page.getByLabel("Rank to draw").selectOption("1");
  await page.getByLabel("Step to draw").selectOption("2");
  await expect(page.getByTestId("compare-gantt-delta")).toContainText(
    "Rank 1, ProfilerStep#7 → ProfilerStep#7",
  );
  // Keeping the last step compares one more step per rank.
  await page.getByLabel("Keep the last step (HTA drops it)").check();
  await expect(table.locator('tr[data-rank="all"] td').nth(1)).toHaveText("8");
});

test("a long comparison is cancelled: it stops, says so, and the control traces stay", async ({ page }) => {
  await openControl(page);
  const big = [largeFile(0, 40), largeFile(1, 40)];
  await page.getByLabel("Open test trace files").setInputFiles(big);
  await expect(page.getByTestId("compare-progress")).toBeVisible();
  await page.getByRole("button", { name: "Cancel the comparison" }).click();
  await expect(page.getByTestId("compare-cancelled")).toContainText("Comparison cancelled");
  await expect(page.getByTestId("compare-progress")).toHaveCount(0);
  await expect(page.getByTestId("compare-sentence")).toHaveCount(0);
  await expect(page.getByTestId("trace-table").locator('tr[data-rank="1"]')).toHaveCount(4);
  // The panel is still usable: a small test set compares.
  await page.getByLabel("Open test trace files").setInputFiles([file(raised(0)), file(raised(1))]);
  await expect(page.getByTestId("compare-sentence")).toContainText("explains most of it");
});
