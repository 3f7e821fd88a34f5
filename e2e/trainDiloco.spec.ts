/**
 * Live training's DiLoCo mode on Chromium's software adapter: DDP and DiLoCo (inner AdamW, outer
 * Nesterov) on the lab's devices, a replica killed by the button mid-run, every check of the
 * badge holding, q measured and written into the Cluster scenario by "Use this q".
 */
import { expect, type Page, test } from "@playwright/test";
import { sealText } from "../src/link/sealedText.ts";

const trainHash = (t: string) => `#v=train&t=${sealText(t)}`;
/** R = 4, 100 steps, H = 10, inner AdamW at 0.02, the paper's outer Nesterov (0.7, 0.9). */
const LINK = "h32.r4.n100.lr0.1.k25.s1.pn.f.d10,0.02,0.7,0.9";

async function shoot(page: Page, name: string): Promise<void> {
  for (const [w, h] of [
    [1280, 720],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `/tmp/train-diloco/${name}-${w}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("a live DiLoCo run with a kill verifies, shows its measured q, and Use this q writes it", async ({
  page,
}) => {
  test.setTimeout(400_000);
  await page.goto(`/${trainHash(LINK)}`);
  await expect(page.getByTestId("train-start")).toBeEnabled({ timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "Live DiLoCo training" })).toBeVisible();
  await expect(page.getByTestId("train-compare")).toHaveValue("diloco");
  await page.getByTestId("train-start").click();
  await expect(page.getByTestId("train-progress")).toContainText(/step [1-9]/, { timeout: 60_000 });
  await page.getByRole("button", { name: "Kill replica 2" }).click();
  await expect(page.getByTestId("train-progress")).toContainText("Done", { timeout: 330_000 });
  // What the checks measured, for the record.
  for (const id of ["check-identical", "check-reference", "check-end", "check-converges", "train-q"])
    console.log(await page.getByTestId(id).textContent());
  await expect(page.getByTestId("train-badge")).toHaveText("✓ verified");
  // The kill struck the DiLoCo run with failures: replica 2 was down, and healed from a peer.
  await expect(page.getByLabel("Failures (replica@step+down)")).toHaveValue(/^2@\d+\+20$/);
  await expect(page.getByTestId("check-identical")).toContainText("catch-ups identical to their peer 1/1");
  await expect(page.getByTestId("check-reference")).toContainText("✓");
  await expect(
    page.getByTestId("train-lanes").locator("rect title", { hasText: "replica 2: down" }).first(),
  ).toBeAttached();
  const steps = page.getByTestId("train-chart-steps");
  for (const id of ["ddp", "diloco-clean", "diloco"])
    await expect(steps.locator(`path[data-run="${id}"]`)).toHaveCount(1);
  await expect(steps.getByTestId("train-q-target")).toBeAttached();
  // q as on screen: DDP's steps over the step DiLoCo reached DDP's final loss, or — with the reason.
  const q = (await page.getByTestId("train-q-value").textContent()) ?? "";
  const said = (await page.getByTestId("train-q").textContent()) ?? "";
  await shoot(page, "diloco-done");
  if (q === "—") {
    expect(said).toMatch(/did not reach DDP's final held-out loss/);
    return;
  }
  const m = /q = 100 \/ (\d+) = (\d\.\d\d)/.exec(said);
  expect(m).not.toBeNull();
  expect(Number(m?.[2])).toBeCloseTo(100 / Number(m?.[1]), 2);
  expect(q).toBe(m?.[2]);
  const use = page.getByTestId("train-use-q");
  await expect(use).toHaveText("Use this q in the Cluster view");
  if (Number(q) > 1) {
    await expect(use).toBeDisabled();
    return;
  }
  await use.click();
  await expect(page.getByTestId("train-q")).toContainText(`is now ${Number(q)} (was 1)`);
  await page.getByRole("tab", { name: /Cluster/ }).click();
  await expect(page.getByTestId("diloco.stepEquivalence")).toHaveValue(String(Number(q)));
});

test("separate mode: a round lost mid-way and one discarded in its sync, healed across devices, verified", async ({
  page,
}) => {
  test.setTimeout(300_000);
  // Replica 1 dies at step 13 (mid-round), replica 2 at step 20 (in the sync ending round 2).
  await page.goto(`/${trainHash("h32.r4.n100.lr0.1.k25.s1.pn.f1@13+4,2@20+3.d10,0.02,0.7,0.9")}`);
  await expect(page.getByTestId("train-start")).toBeEnabled({ timeout: 30_000 });
  await page.getByLabel("Mode").selectOption("separate");
  await page.getByTestId("train-start").click();
  await expect(page.getByTestId("train-progress")).toContainText("Done", { timeout: 270_000 });
  await expect(page.getByTestId("train-badge")).toHaveText("✓ verified");
  await expect(page.getByTestId("check-identical")).toContainText("catch-ups identical to their peer 2/2");
  // The discarded round's two survivors (replicas 0 and 3) are back on the outer weights.
  await expect(page.getByTestId("check-identical")).toContainText(
    "replicas of a discarded round back on the outer weights 2/2",
  );
  await expect(
    page
      .getByTestId("train-lanes")
      .locator("rect title", { hasText: "replica 1: back, idle until the next round" })
      .first(),
  ).toBeAttached();
  console.log(await page.getByTestId("check-reference").textContent());
});
