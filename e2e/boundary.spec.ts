/**
 * A view or a panel that throws says what failed, in place, and the rest goes
 * on working. Each test breaks one thing on purpose, the way it can break for real: a canvas the
 * browser will not give (the timeline draws in animation frames, outside React's render), and a
 * view's script that fails to load.
 */
import { expect, test } from "@playwright/test";

const PERCENT = /^\d{1,3}\.\d%$/;

test("a timeline that cannot draw fails in its own panel; results, knobs and other panels work", async ({
  page,
}) => {
  // The Cluster view's only canvases are the timeline's: refuse them a 2-D context.
  await page.addInitScript(() => {
    HTMLCanvasElement.prototype.getContext = () => {
      throw new Error("no 2-D context for this canvas (broken on purpose)");
    };
  });
  await page.goto("/#v=cluster");
  const failed = page.getByTestId("panel-error");
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText("The timeline stopped working");
  await expect(failed).toContainText("broken on purpose");
  // The timeline panel keeps its heading; the view around it still works.
  await expect(page.getByRole("heading", { name: /^Timeline/ })).toBeVisible();
  const ft = page.getByTestId("ettr-ftHsdp");
  await expect(ft).toHaveText(PERCENT);
  await expect(page.getByRole("heading", { name: "What if? Sweeps" })).toBeVisible();
  const before = await ft.textContent();
  const replicas = page.getByLabel("Replicas (R)", { exact: true });
  await replicas.fill("4");
  await replicas.press("Enter");
  await expect(ft).not.toHaveText(before ?? "");
  await expect(ft).toHaveText(PERCENT);
  // The new run's timeline gets its own try, and fails the same way, in place.
  await expect(page.getByTestId("panel-error")).toContainText("The timeline stopped working");
  await expect(page.getByTestId("view-error")).toHaveCount(0);
});

test("a view whose script fails to load says so; the other views still open", async ({ page }) => {
  await page.route(/\/assets\/StepView-[^/]*\.js$/, (route) => route.abort("failed"));
  await page.goto("/#v=step");
  const failed = page.getByTestId("view-error");
  await expect(failed).toContainText("The One step view stopped working");
  await expect(failed).toContainText("other views still work");
  await page.getByRole("tab", { name: /^Cluster/ }).click();
  await expect(page.getByTestId("view-error")).toHaveCount(0);
  await expect(page.getByTestId("ettr-ftHsdp")).toHaveText(PERCENT);
});
