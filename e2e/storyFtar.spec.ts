/**
 * The Story's FTAR chapter runs the WebGPU lab's ring as it opens: a device killed mid-collective,
 * the ring re-formed, the survivors' average verified. It computes on the software adapter, so it
 * needs the machine to itself (playwright.config.ts SERIAL_SPECS): beside another WebGPU spec on two
 * cores it did not finish in 90 s.
 */
import { expect, test } from "@playwright/test";

test("the FTAR chapter runs the lab's ring on arrival: a device killed, the ring re-formed, the average verified", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto("/#v=story&ch=ftar-kernels");
  const result = page.getByTestId("fault-result");
  await expect(result).toContainText("verified equal to the survivors' average", { timeout: 90_000 });
  await expect(result).toContainText("dropped 3");
  await expect(page.getByRole("list", { name: "Fault demo log" })).toContainText("Re-forming the ring");
});
