/**
 * What the browser benchmarks share: a build of the app in their own folder (rebuilt when src/
 * is newer), the system Chromium, and waiting for the preview server.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "@playwright/test";

export const CHROMIUM = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (p): p is string => !!p && existsSync(p),
);

function newestMtime(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return t;
}

export function buildIfNeeded(dist: string): void {
  const index = join(dist, "index.html");
  if (
    existsSync(index) &&
    statSync(index).mtimeMs > Math.max(newestMtime("src"), statSync("index.html").mtimeMs)
  )
    return;
  console.log(`building into ${dist}/ …`);
  execFileSync("npx", ["vite", "build", "--outDir", dist, "--logLevel", "warn"], { stdio: "inherit" });
}

export async function waitForServer(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the preview server at ${url} did not start`);
}

export async function portAnswers(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}

/** A main-thread task of the page: its wall time and the CPU time its thread spent in it. */
export interface PageTask {
  wallMs: number;
  cpuMs: number;
  /** User Timing names measured inside it (the timeline's build and draw steps, a run's arrival and commit). */
  measures: string[];
  /**
   * What the browser was doing, from the trace: its longest event inside the task (the outermost:
   * a worker's message, a timer, an animation frame, an input event, layout…).
   */
  kind: string;
}

/** A task's name in a bench's output: its User Timing marks, then what the browser was doing. */
export function taskName(t: PageTask | null): string {
  if (!t) return "none";
  return t.measures.length > 0 ? `${t.measures.join(",")} (${t.kind})` : t.kind;
}

/** A trace event's name in words (the outermost events of a main-thread task). */
function kindOf(e: { name: string; args?: unknown }): string {
  const data = (e.args as { data?: { type?: string } } | undefined)?.data;
  switch (e.name) {
    case "HandlePostMessage":
      return "a worker's message";
    case "FireAnimationFrame":
      return "an animation frame";
    case "TimerFire":
      return "a timer";
    case "EventDispatch":
      return `a ${data?.type ?? "DOM"} event`;
    case "ParseHTML":
      return "parsing the page";
    case "EvaluateScript":
    case "v8.evaluateModule":
      return "running a script";
    case "Layout":
    case "UpdateLayoutTree":
      return "layout";
    case "Paint":
    case "PrePaint":
      return "paint";
    default:
      return e.name;
  }
}

/**
 * The page's main-thread tasks over 50 ms of wall time, from a Chromium trace
 * (`browser.startTracing(page, { categories: TASK_TRACE_CATEGORIES })`). Wall time is what the
 * "no task over 200 ms" rule reads, but on a busy two-core machine it is mostly time spent waiting
 * for a core (a task of 60 ms of CPU took 800 ms at load 13); the CPU time is the task's own cost.
 */
export function pageTasks(trace: Buffer, port: number): PageTask[] {
  type Ev = {
    name: string;
    ph: string;
    pid: number;
    tid: number;
    ts: number;
    dur?: number;
    tdur?: number;
    cat?: string;
    args?: unknown;
  };
  const events = (JSON.parse(trace.toString()) as { traceEvents: Ev[] }).traceEvents;
  const page = `localhost:${port}`;
  const script = events.find(
    (e) =>
      (e.name === "FunctionCall" || e.name === "EvaluateScript") &&
      JSON.stringify(e.args ?? {}).includes(page),
  );
  if (!script) return [];
  const onMain = (e: Ev) => e.pid === script.pid && e.tid === script.tid;
  const marks = events.filter((e) => e.cat?.includes("blink.user_timing") && onMain(e));
  // Stopping the trace is itself a long native task on the page's thread (writing its buffers):
  // tasks from the "bench-end" mark on (stopPageTrace) are the measurement's, not the page's.
  const endMark = marks.find((m) => m.name === "bench-end");
  const end = endMark ? endMark.ts : Number.POSITIVE_INFINITY;
  // Only tasks with the page's work in them (a script, a timer, an event, a frame, layout,
  // paint); the tracing machinery runs native tasks of its own with nothing inside.
  const work = events.filter((e) => onMain(e) && e.ph === "X" && e.name !== "RunTask");
  const hasWork = (t: Ev) => work.some((w) => w.ts >= t.ts && w.ts < t.ts + (t.dur ?? 0));
  return events
    .filter(
      (e) =>
        e.name === "RunTask" &&
        e.ph === "X" &&
        onMain(e) &&
        (e.dur ?? 0) > 50_000 &&
        e.ts < end &&
        hasWork(e),
    )
    .map((t) => {
      const end = t.ts + (t.dur ?? 0);
      const outer = work
        .filter((w) => w.ts >= t.ts && w.ts < end)
        .reduce<Ev | null>((a, w) => (!a || (w.dur ?? 0) > (a.dur ?? 0) ? w : a), null);
      return {
        wallMs: (t.dur ?? 0) / 1000,
        cpuMs: (t.tdur ?? 0) / 1000,
        measures: [...new Set(marks.filter((m) => m.ts >= t.ts && m.ts <= end).map((m) => m.name))],
        kind: outer ? kindOf(outer) : "other",
      };
    });
}

export const TASK_TRACE_CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "blink.user_timing",
];

/** Stops a trace started with TASK_TRACE_CATEGORIES, marking where the page's own tasks end. */
export async function stopPageTrace(browser: Browser, page: Page): Promise<Buffer> {
  await page.evaluate(() => performance.mark("bench-end"));
  return browser.stopTracing();
}
