import { chromium } from "@playwright/test";
import { encodeScenarioHash } from "./src/link/scenarioLink.ts";
import { parseScenario } from "./src/sim/scenario.ts";
const mix = parseScenario({
  name: "Cause mix test cluster",
  cluster: { gpus: 512, gpusPerHost: 8, replicas: 8 },
  failures: { perHostDay: 0.05, causes: [
    { name: "Host", share: 8, scope: "host" },
    { name: "Software bug", share: 2, scope: "job" },
  ] },
  sync: { checkpointMinutes: 30 }, ft: { checkpointMinutes: 30 }, training: { days: 5 },
});
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
for (const [w, h] of [[1280, 720], [390, 844]]) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  await page.goto(`http://localhost:4111/${encodeScenarioHash(mix)}&v=cluster`);
  await page.getByTestId("tornado-seeds").fill("40");
  await page.getByTestId("tornado-run").click();
  await page.getByTestId("tornado-status").filter({ hasText: /^Done/ }).waitFor({ timeout: 120000 });
  const row = page.locator("[data-axis='cause.1.share']");
  await page.getByTestId("tornado-chart").scrollIntoViewIfNeeded();
  await row.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `/tmp/causeaxis-shots/tornado-${w}.png` });
  await row.click();
  await page.getByTestId("sweep-status").filter({ hasText: /^Done/ }).waitFor({ timeout: 120000 });
  await page.getByTestId("sweep-chart").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `/tmp/causeaxis-shots/sweep-${w}.png` });
  await page.getByLabel("Sweep axis").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `/tmp/causeaxis-shots/picker-${w}.png` });
  await page.close();
}
await browser.close();
