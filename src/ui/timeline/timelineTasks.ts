/**
 * How the timeline keeps every task short, apart from what it draws: the sliced scheduler (a
 * frame's draw steps run in slices of about SLICE_BUDGET_MS per animation frame), a runner of
 * build steps a task each, and the key queue (zoom and pan keys pressed while the scene is still
 * being built are applied in order once it is ready). timelineController.ts drives them.
 */
import { beginPageWork } from "../../state/pageWork.ts";

/** A frame's draw steps run in slices of about this long (plus one step), so no task is long. */
export const SLICE_BUDGET_MS = 40;
/** Zoom and pan keys kept while the scene is built (older ones are dropped past this). */
export const MAX_QUEUED_KEYS = 32;

/** A clock and a frame source: the browser's, or a test's. */
export interface Frames {
  now(): number;
  request(cb: () => void): number;
  cancel(id: number): void;
}

export const browserFrames: Frames = {
  now: () => performance.now(),
  request: (cb) => requestAnimationFrame(cb),
  cancel: (id) => cancelAnimationFrame(id),
};

/**
 * Runs a frame's steps for up to a budget per animation frame (at least one step each), then
 * calls done. Starting a new frame cancels the one in progress: a newer frame replaces it.
 */
export class SliceScheduler {
  private job: { steps: (() => unknown)[]; next: number; done: () => void } | null = null;
  private raf = 0;
  /** Open while a frame spans several slices (pageWork.ts: the Monte Carlo computes on fewer cores meanwhile). */
  private work: (() => void) | null = null;

  constructor(
    private readonly budgetMs = SLICE_BUDGET_MS,
    private readonly frames: Frames = browserFrames,
    /** Called after each slice with its start and end (the view's User Timing). */
    private readonly onSlice: (start: number, end: number) => void = () => {},
  ) {}

  /** A frame is being drawn and not yet complete. */
  get busy(): boolean {
    return this.job !== null;
  }

  start(steps: (() => unknown)[], done: () => void): void {
    this.cancel();
    this.job = { steps, next: 0, done };
    this.slice();
  }

  cancel(): void {
    this.frames.cancel(this.raf);
    this.raf = 0;
    this.job = null;
    this.work?.();
    this.work = null;
  }

  private slice(): void {
    const job = this.job;
    if (!job) return;
    const started = this.frames.now();
    while (job.next < job.steps.length) {
      (job.steps[job.next++] as () => unknown)();
      if (this.frames.now() - started > this.budgetMs) break;
    }
    if (job.next < job.steps.length) {
      this.work ??= beginPageWork();
      this.raf = this.frames.request(() => {
        this.raf = 0;
        this.slice();
      });
    } else {
      this.job = null;
      this.work?.();
      this.work = null;
      job.done();
    }
    this.onSlice(started, this.frames.now());
  }
}

/**
 * Runs build steps each in a task of its own (setTimeout 0), then done: a scene whose indexes cost
 * 200–300 ms to build at once on the largest runs never holds the main thread that long. Returns a
 * cancel function.
 */
export function runInTasks(steps: () => (() => void)[], done: () => void): () => void {
  let timer = 0;
  let list: (() => void)[] | null = null;
  let next = 0;
  const step = () => {
    // Made in the first task, so what it reads (a width) forces no layout in the task that rendered.
    list ??= steps();
    if (next < list.length) {
      const started = performance.now();
      (list[next++] as () => void)();
      // Each step is a task of its own: its User Timing says which step a long task was.
      performance.measure(`timeline-build-${next - 1}`, { start: started, end: performance.now() });
      timer = window.setTimeout(step, 0);
    } else done();
  };
  timer = window.setTimeout(step, 0);
  return () => clearTimeout(timer);
}

/** Actions kept until the scene is ready, in order; past `max`, the oldest go. */
export class KeyQueue {
  private readonly queued: (() => void)[] = [];

  constructor(private readonly max = MAX_QUEUED_KEYS) {}

  push(action: () => void): void {
    if (this.queued.length >= this.max) this.queued.shift();
    this.queued.push(action);
  }

  get length(): number {
    return this.queued.length;
  }

  /** Runs every kept action in the order they came, and forgets them. */
  flush(): void {
    for (const action of this.queued.splice(0)) action();
  }
}
