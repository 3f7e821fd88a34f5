/**
 * In presenter mode at 1280×720 every chapter's figures and
 * controls are on screen, step by step (chapter 7 a part at a time), and no chart text is cut by
 * its chart's edge; chapter 4's instruction sits above its answers; chapter 3's colours mean one
 * thing each, with a legend; chapter 7's slow hosts are the engine's runs.
 */
import { expect, type Page, test } from "@playwright/test";
import { runScenario } from "../src/sim/engine.ts";
import { parseScenario } from "../src/sim/scenario/index.ts";
import { CHAPTER_IDS } from "../src/state/storyChapters.ts";
import { count } from "../src/ui/format.ts";
import { EVICT_AFTER_MINUTES, SLOW_CASES } from "../src/ui/story/chapters/realClustersScenarios.ts";
import { slowWhy } from "../src/ui/story/chapters/slowWords.ts";

const chapter = (page: Page) => page.getByTestId("story-chapter");

async function loaded(page: Page) {
  await expect(chapter(page)).toBeVisible();
  await expect(chapter(page).getByText("Computing…")).toHaveCount(0, { timeout: 30_000 });
}

/**
 * What of the chapter is not wholly on screen: each visible figure, each visible control outside
 * the prose (a glossary term is a word of the prose, which may go on below), and each chart text
 * its own chart cuts off.
 */
async function offScreen(page: Page): Promise<string[]> {
  return chapter(page).evaluate((el) => {
    const bad: string[] = [];
    const shown = (e: Element) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    };
    const box = (r: DOMRect) =>
      `${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`;
    const inside = (r: DOMRect, o: { left: number; top: number; right: number; bottom: number }) =>
      r.left >= o.left - 1 && r.top >= o.top - 1 && r.right <= o.right + 1 && r.bottom <= o.bottom + 1;
    const screen = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
    for (const f of el.querySelectorAll(".story-figure")) {
      if (!shown(f)) continue;
      const r = f.getBoundingClientRect();
      if (!inside(r, screen)) bad.push(`figure "${f.getAttribute("aria-label")}" at ${box(r)}`);
      for (const svg of f.querySelectorAll("svg")) {
        const s = svg.getBoundingClientRect();
        for (const t of svg.querySelectorAll("text")) {
          const tr = t.getBoundingClientRect();
          if (shown(t) && !inside(tr, s))
            bad.push(`chart text "${t.textContent}" at ${box(tr)}, its chart ${box(s)}`);
        }
      }
    }
    for (const c of el.querySelectorAll("button, input, select, textarea, [data-control]")) {
      if (!shown(c) || c.closest(".story-prose")) continue;
      const r = c.getBoundingClientRect();
      if (!inside(r, screen))
        bad.push(`control "${c.textContent || c.getAttribute("aria-label") || c.tagName}" at ${box(r)}`);
    }
    return bad;
  });
}

/** The chapter's step counter: [index, count], or null when the chapter has no steps. */
async function step(page: Page): Promise<[number, number] | null> {
  const s = page.getByTestId("story-step");
  if ((await s.count()) === 0) return null;
  const m = /step (\d+) of (\d+)/.exec((await s.textContent()) ?? "");
  return m ? [Number(m[1]), Number(m[2])] : null;
}

test("presenter mode at 1280×720: every chapter's figures and controls on screen at every step, no chart text cut", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const walked: string[] = [];
  for (const id of CHAPTER_IDS) {
    await page.goto(`/#v=story&ch=${id}`);
    await page.reload();
    await loaded(page);
    // The lab's ring runs on arrival: measured once its verdict is in the card.
    if (id === "ftar-kernels")
      await expect(page.getByTestId("fault-result")).toBeVisible({ timeout: 90_000 });
    await page.keyboard.press("p");
    await expect(page.locator("html")).toHaveClass(/presenting/);
    for (;;) {
      await loaded(page);
      const at = await step(page);
      walked.push(at ? `${id} ${at[0]}/${at[1]}` : id);
      expect(await offScreen(page), `${id}, step ${at?.[0] ?? 1}`).toEqual([]);
      if (!at || at[0] === at[1]) break;
      await page.keyboard.press("ArrowRight");
      await expect(page.getByTestId("story-step")).toContainText(`step ${at[0] + 1} of`);
    }
    if (id === "predict") {
      // Every answer revealed: still on screen, and under the instruction that asks for a guess.
      for (const q of ["replicas", "watchdog", "c4"]) await page.getByTestId(`reveal-${q}`).click();
      expect(await offScreen(page), "predict, answers shown").toEqual([]);
      const lead = await page.getByTestId("predict-lead").boundingBox();
      const first = await page.getByTestId("answer-replicas").boundingBox();
      expect(lead?.y ?? 720).toBeLessThan(first?.y ?? 0);
      expect((lead?.y ?? 720) + (lead?.height ?? 0)).toBeLessThanOrEqual(first?.y ?? 0);
    }
    await page.keyboard.press("Escape");
    await expect(page.locator("html")).not.toHaveClass(/presenting/);
  }
  // Chapter 7 walked a part at a time: its failures, slow hosts, and each cluster's strategies.
  expect(walked.filter((w) => w.startsWith("real-clusters"))).toEqual([
    "real-clusters 1/4",
    "real-clusters 2/4",
    "real-clusters 3/4",
    "real-clusters 4/4",
  ]);
});

test("chapter 4's instruction comes before the questions in presenter mode too", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto("/#v=story&ch=predict");
  await loaded(page);
  await page.keyboard.press("p");
  const lead = await page.getByTestId("predict-lead").boundingBox();
  const question = await page.getByTestId("question-replicas").boundingBox();
  await expect(page.getByTestId("predict-lead")).toContainText("Before you look, guess");
  expect((lead?.y ?? 720) + (lead?.height ?? 0)).toBeLessThanOrEqual(question?.y ?? 0);
});

test("chapter 3's legend: one colour per phase, the same in the lanes and in the bars under them", async ({
  page,
}) => {
  await page.goto("/#v=story&ch=lose-a-replica");
  await loaded(page);
  // The last step draws every phase.
  const next = page.getByTestId("replay-next");
  while (await next.isEnabled()) await next.click();
  const legend = page.getByTestId("replay-legend");
  await expect(legend).toContainText("detect");
  const colours = await legend
    .locator("li")
    .evaluateAll((lis) =>
      Object.fromEntries(
        lis.map((li) => [
          li.getAttribute("data-phase") ?? "",
          getComputedStyle(li.querySelector(".lg") as Element).backgroundColor,
        ]),
      ),
    );
  expect(Object.keys(colours)).toEqual(["training", "detect", "restart", "catchUp", "rejoin"]);
  expect(new Set(Object.values(colours)).size, "each phase its own colour").toBe(5);
  // Each bar segment is titled by its phase ("detect 60 s", "catch-up 0.0 s"): its colour is that phase's.
  const parts = await page
    .getByTestId("waterfall")
    .locator(".wf-part")
    .evaluateAll((ps) => ps.map((p) => [p.getAttribute("title") ?? "", getComputedStyle(p).backgroundColor]));
  expect(parts.length).toBeGreaterThanOrEqual(6);
  const phaseOf = (title: string) => (title.startsWith("catch-up") ? "catchUp" : (title.split(" ")[0] ?? ""));
  for (const [title, colour] of parts) expect(colour, title).toBe(colours[phaseOf(title ?? "")]);
  // The lanes use the legend's colours only.
  const fills = await page
    .locator(".story-lanes rect")
    .evaluateAll((rs) => [...new Set(rs.map((r) => getComputedStyle(r).fill))]);
  for (const fill of fills) expect(Object.values(colours), fill).toContain(fill);
  expect(fills).toContain(colours.detect);
  expect(fills).toContain(colours.rejoin);
});

test("chapter 7's slow hosts: the engine's runs without slow episodes, waited out and evicted, in words from the scenario", async ({
  page,
}) => {
  const runs = SLOW_CASES.map((c) => runScenario(parseScenario(c.scenario)));
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  await page.goto("/#v=story&ch=real-clusters");
  await loaded(page);
  for (const [i, c] of SLOW_CASES.entries()) {
    const run = runs[i];
    if (!run) throw new Error(c.id);
    await expect(page.getByTestId(`slow-${c.id}-sync`)).toHaveText(pct(run.synchronous!.ettr));
    await expect(page.getByTestId(`slow-${c.id}-ft`)).toHaveText(pct(run.ftHsdp!.ettr));
    await expect(page.getByTestId(`slow-${c.id}-why`)).toHaveText(slowWhy(c.id, runs));
  }
  // What the words claim, in the engine's numbers: slow hosts cost both; evicting helps FT-HSDP
  // (a replica restart) and hurts the synchronous job (a whole-job restart).
  const [none, wait, evict] = runs;
  expect(wait?.synchronous?.ettr).toBeLessThan(none?.synchronous?.ettr ?? 0);
  expect(wait?.ftHsdp?.ettr).toBeLessThan(none?.ftHsdp?.ettr ?? 0);
  expect(evict?.ftHsdp?.ettr).toBeGreaterThan(wait?.ftHsdp?.ettr ?? 1);
  expect(evict?.synchronous?.ettr).toBeLessThan(wait?.synchronous?.ettr ?? 0);
  await expect(page.getByTestId("slow-slow-evict-why")).toContainText(
    "synchronous job (worse than waiting) but only one replica of FT-HSDP (better than waiting)",
  );
  // The intro's numbers are the scenario's.
  const s = parseScenario(SLOW_CASES[1]?.scenario);
  const hosts = s.cluster.gpus / s.cluster.gpusPerHost;
  const intro = page.getByTestId("slow-intro");
  await expect(intro).toContainText(`${count(hosts * s.slow.perHostDay)} slow episodes a day`);
  await expect(intro).toContainText(`across its ${count(hosts)} hosts`);
  await expect(intro).toContainText(
    `${count(s.slow.factor, 1)}× slower for ${count(s.slow.medianMinutes)} min`,
  );
  await expect(intro).toContainText(`after ${EVICT_AFTER_MINUTES} min`);
});
