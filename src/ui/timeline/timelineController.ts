/**
 * What a zoomable canvas timeline needs apart from what it draws, with no React in it: d3-zoom
 * (wheel, drag, pinch, and the keys' zoom and pan), and the tasks of timelineTasks.ts (a frame's
 * draw steps run offscreen in slices and shown once whole; the scene's build steps run a task
 * each; keys pressed while the scene is built wait in a queue). A view (Timeline.tsx) gives it a scene and callbacks, and keeps
 * its own state (stores, tooltip) in its own framework.
 */
import { select } from "d3-selection";
import { type D3ZoomEvent, type ZoomBehavior, type ZoomTransform, zoom, zoomIdentity } from "d3-zoom";
import { beginPageWork } from "../../state/pageWork.ts";
import { windowOf, windowScale, transformFor as windowTransform } from "./timelineScale.ts";
import { browserFrames, KeyQueue, runInTasks, SLICE_BUDGET_MS, SliceScheduler } from "./timelineTasks.ts";

/** The store hears of the window at most this often while a gesture lasts. */
const STORE_EVERY_MS = 150;
/** User Timing entries kept before the buffer is cleared (the UI bench reads them). */
const MAX_MEASURES = 5000;

export type TimeWindow = readonly [number, number];

/** Where the plot sits on the canvas (CSS px): all the controller needs of a layout. */
export interface Plot {
  width: number;
  height: number;
  plotLeft: number;
  plotWidth: number;
}

/** What the controller drives: a timeline of `horizon` seconds drawn in steps. */
export interface Scene<H> {
  readonly plot: Plot;
  readonly horizon: number;
  /** Re-fit to a new width (CSS px). */
  resize(width: number): void;
  /** One frame of window [t0, t1] as steps to run in order (each returns the marks it issued). */
  drawSteps(ctx: CanvasRenderingContext2D, t0: number, t1: number): (() => number)[];
  /** What lies under canvas point (x, y) in window [t0, t1]. */
  hover(x: number, y: number, t0: number, t1: number): H | null;
}

export interface ControllerOptions<H> {
  canvas: HTMLCanvasElement;
  /** The element whose width the canvas follows. */
  container: HTMLElement;
  /** The narrowest canvas (CSS px). */
  minWidth: number;
  /** The narrowest window the zoom allows. */
  minWindowSeconds: number;
  /** The User Timing name of each slice and overlay frame. */
  measureName: string;
  /** The window the view's store holds (null: the whole run): shown at start and after a resize. */
  storedWindow(): TimeWindow | null;
  /** A gesture or a zoom moved the window: the window in tenths of a second, null for the whole run. */
  onWindowSettled(w: TimeWindow | null): void;
  /** The window moved (a tooltip describes another place now). */
  onZoom(): void;
  /** The scene's layout is on the canvas (its size and data attributes follow it). */
  onLayout(scene: Scene<H>): void;
  /** A new frame is on screen under a pointer that has not moved. */
  onFrameShown(): void;
  /** Marks drawn over a cached copy of the frame (a replay cursor), or null for none. */
  overlay(): ((ctx: CanvasRenderingContext2D) => void) | null;
  /** The scene is ready: subscribe to what redraws it; the returned function unsubscribes. */
  onStart(): () => void;
  /**
   * Where the pointer rests on the canvas (CSS px), while it is there and no button is down: the
   * view's, kept across the controllers of successive runs (a new run's first frame says what
   * lies under a pointer that has not moved). A gesture clears it.
   */
  pointer: { current: { x: number; y: number } | null };
  /**
   * What a build step or a frame threw: they run in tasks and animation frames, outside React's
   * render, where no error boundary would see it (the view hands it to its panel's boundary).
   */
  onError(error: unknown): void;
}

/**
 * One canvas timeline: builds its scene a task at a time, owns zoom and the visible window,
 * schedules frames in slices into an offscreen canvas, and caches the frame under an overlay so
 * that moving the overlay costs one image copy.
 */
export class TimelineController<H> {
  private sceneNow: Scene<H> | null = null;
  private zoomer: ZoomBehavior<HTMLCanvasElement, unknown> | null = null;
  private transform: ZoomTransform = zoomIdentity;
  private shown: TimeWindow = [0, 1];
  /** The window last handed to the store: its echo back from the store is not applied again. */
  private stored: TimeWindow | null = null;
  private frame = 0;
  private storeTimer = 0;
  private measures = 0;
  /** The frame without the overlay, redrawn only when it changes (dirty). */
  private base: HTMLCanvasElement | null = null;
  private dirty = true;
  /** The offscreen frame with no overlay: copied to the canvas once whole. */
  private back: HTMLCanvasElement | null = null;
  private readonly slices: SliceScheduler;
  private readonly keys = new KeyQueue();
  private cancelBuild: (() => void) | null = null;
  private teardown: (() => void) | null = null;
  /** Open from load() until the first whole frame is shown (pageWork.ts: the page is not done drawing). */
  private loading: (() => void) | null = null;

  constructor(private readonly o: ControllerOptions<H>) {
    this.slices = new SliceScheduler(SLICE_BUDGET_MS, browserFrames, (start, end) =>
      this.measure(start, end),
    );
  }

  get scene(): Scene<H> | null {
    return this.sceneNow;
  }

  /** The visible window [t0, t1] (seconds). */
  get window(): TimeWindow {
    return this.shown;
  }

  /** The window last handed to the store (its tenths), null for the whole run. */
  get lastStored(): TimeWindow | null {
    return this.stored;
  }

  /**
   * Builds the scene from steps, each in a task of its own (`build` is called in the first task,
   * so the width it reads forces no layout in the task that rendered), then starts.
   */
  load(build: (width: number) => { steps: (() => void)[]; scene: () => Scene<H> }): void {
    let made: ReturnType<typeof build> | null = null;
    this.loading?.();
    this.loading = beginPageWork();
    this.cancelBuild = runInTasks(
      () => {
        try {
          made = build(Math.max(this.o.minWidth, this.o.container.clientWidth));
          return made.steps.map((step) => this.guarded(step));
        } catch (e) {
          this.fail(e);
          return [];
        }
      },
      () => {
        if (made) this.guarded(() => this.start((made as NonNullable<typeof made>).scene()))();
      },
    );
  }

  /** `fn`, its error stopping this timeline and reported to the view rather than thrown into a task. */
  private guarded<A extends unknown[], R>(fn: (...a: A) => R): (...a: A) => R | undefined {
    return (...a: A) => {
      try {
        return fn(...a);
      } catch (e) {
        this.fail(e);
        return undefined;
      }
    };
  }

  private fail(error: unknown): void {
    this.dispose();
    this.o.onError(error);
  }

  /** Stops everything: the build, frames, zoom, observers. */
  dispose(): void {
    this.cancelBuild?.();
    this.cancelBuild = null;
    this.loading?.();
    this.loading = null;
    this.teardown?.();
    this.teardown = null;
  }

  private start(scene: Scene<H>): void {
    const { canvas, container } = this.o;
    this.sceneNow = scene;
    const H = scene.horizon;
    const sel = select(canvas);
    const fitCanvas = () => {
      const L = scene.plot;
      this.o.onLayout(scene);
      const dpr = window.devicePixelRatio || 1;
      canvas.width = Math.round(L.width * dpr);
      canvas.height = Math.round(L.height * dpr);
      canvas.style.width = `${L.width}px`;
      canvas.style.height = `${L.height}px`;
      const extent: [[number, number], [number, number]] = [
        [L.plotLeft, 0],
        [L.plotLeft + L.plotWidth, L.height],
      ];
      z.extent(extent).translateExtent(extent);
    };
    const storeWindow = () => {
      clearTimeout(this.storeTimer);
      this.storeTimer = 0;
      // Tenths of a second, as the link stores it: a reopened link then shows exactly this window.
      const tenth = (t: number) => Math.round(t * 10) / 10;
      this.stored = this.transform.k === 1 ? null : [tenth(this.shown[0]), tenth(this.shown[1])];
      this.o.onWindowSettled(this.stored);
    };
    const z = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([1, Math.max(1, H / this.o.minWindowSeconds)])
      .on("zoom", (ev: D3ZoomEvent<HTMLCanvasElement, unknown>) => {
        this.transform = ev.transform;
        // What was under the pointer has moved: a tooltip would describe another place. After a
        // gesture (wheel, drag, pinch) it stays hidden until the pointer moves again; after a
        // zoom from elsewhere (the keys or buttons, a resize, the link's window) the new frame,
        // once drawn, says what lies under the resting pointer (onFrameShown).
        if (ev.sourceEvent) this.o.pointer.current = null;
        this.o.onZoom();
        this.shown = windowOf(scene.plot, H, ev.transform);
        this.requestDraw();
        // The store (and the views that follow it) hears of the window at most every
        // STORE_EVERY_MS while a gesture lasts, so panning costs one canvas draw per frame.
        if (!this.storeTimer) this.storeTimer = window.setTimeout(storeWindow, STORE_EVERY_MS);
      })
      .on("end", storeWindow);
    this.zoomer = z;
    fitCanvas();
    sel.call(z).on("dblclick.zoom", null);
    sel.call(z.transform, this.transformFor(this.o.storedWindow()));
    // Keys pressed while the scene was being built, in the order they came.
    this.keys.flush();

    const ro = new ResizeObserver(() => {
      const width = Math.max(this.o.minWidth, container.clientWidth);
      if (width === scene.plot.width) return;
      const w = this.o.storedWindow();
      scene.resize(width);
      fitCanvas();
      sel.call(z.transform, this.transformFor(w));
    });
    ro.observe(container);
    const unsubscribe = this.o.onStart();
    this.teardown = () => {
      ro.disconnect();
      unsubscribe();
      sel.on(".zoom", null);
      cancelAnimationFrame(this.frame);
      this.slices.cancel();
      clearTimeout(this.storeTimer);
      this.frame = 0;
      this.storeTimer = 0;
      this.sceneNow = null;
      this.zoomer = null;
    };
  }

  /** The zoom transform that shows window w, for the current layout. */
  private transformFor(w: TimeWindow | null): ZoomTransform {
    const s = this.sceneNow;
    if (!s) return zoomIdentity;
    return windowTransform(s.plot, s.horizon, w, this.o.minWindowSeconds);
  }

  /** Shows window w (null: the whole run), as a zoom from elsewhere. */
  showWindow(w: TimeWindow | null): void {
    if (this.zoomer) select(this.o.canvas).call(this.zoomer.transform, this.transformFor(w));
  }

  /** Zooms by `factor` about time `about` when it is in the window, else about the middle. */
  zoomBy(factor: number, about: () => number | null): void {
    const z = this.zoomer;
    const s = this.sceneNow;
    if (!z || !s) {
      this.keys.push(() => this.zoomBy(factor, about));
      return;
    }
    const L = s.plot;
    const [t0, t1] = this.shown;
    const at = about();
    const x = at !== null && at >= t0 && at <= t1 ? windowScale(L, t0, t1)(at) : L.plotLeft + L.plotWidth / 2;
    select(this.o.canvas).call(z.scaleBy, factor, [x, 0]);
  }

  /** Pans by a fraction of the visible window (negative: earlier). */
  panBy(fraction: number): void {
    const z = this.zoomer;
    const s = this.sceneNow;
    if (!z || !s) {
      this.keys.push(() => this.panBy(fraction));
      return;
    }
    select(this.o.canvas).call(z.translateBy, (-fraction * s.plot.plotWidth) / this.transform.k, 0);
  }

  /** What lies under the resting pointer in the visible window (null when it is off the canvas). */
  hoverAtPointer(): { info: H; x: number; y: number } | null {
    const s = this.sceneNow;
    const p = this.o.pointer.current;
    if (!s || !p) return null;
    const info = s.hover(p.x, p.y, this.shown[0], this.shown[1]);
    return info ? { info, ...p } : null;
  }

  /** Redraw at the next frame: something other than the overlay changed. */
  requestDraw(): void {
    this.dirty = true;
    if (this.frame) return;
    this.frame = requestAnimationFrame(
      this.guarded(() => {
        this.frame = 0;
        this.draw();
      }),
    );
  }

  /** The overlay moved: drawn at once over the cached frame, unless a full redraw is due. */
  overlayMoved(): void {
    if (!this.frame) this.draw();
  }

  private measure(start: number, end: number): void {
    // User Timing entries let the UI bench read the cost of each frame; keep the buffer bounded.
    if (++this.measures > MAX_MEASURES) {
      performance.clearMeasures(this.o.measureName);
      this.measures = 0;
    }
    performance.measure(this.o.measureName, { start, end });
  }

  /** Copy the cached frame to the canvas and draw the overlay over it. */
  private showOverlay(overlay: (ctx: CanvasRenderingContext2D) => void): void {
    const { canvas } = this.o;
    const ctx = canvas.getContext("2d");
    if (!ctx || !this.sceneNow || !this.base) return;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(this.base, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    overlay(ctx);
  }

  /**
   * Draws the frame offscreen in slices (one slice for most runs: panning costs one draw and a
   * copy), then shows it. With no overlay into `back`; with one, into the cached frame (`base`),
   * which later overlay frames copy under their marks. The visible canvas keeps the previous
   * frame until the new one is whole, so a frame spread over several tasks never shows half drawn.
   */
  private draw(): void {
    const { canvas } = this.o;
    const s = this.sceneNow;
    if (!s) return;
    const dpr = window.devicePixelRatio || 1;
    const [t0, t1] = this.shown;
    const overlay = this.o.overlay();
    /** A new offscreen canvas when the visible one changed size. */
    const sized = (c: HTMLCanvasElement | null): HTMLCanvasElement => {
      if (c && c.width === canvas.width && c.height === canvas.height) return c;
      const fresh = document.createElement("canvas");
      fresh.width = canvas.width;
      fresh.height = canvas.height;
      return fresh;
    };
    if (overlay && !this.dirty && this.base === sized(this.base)) {
      // An overlay frame over an unchanged timeline: its cached copy, or, while that copy is
      // still being drawn in slices, nothing yet (it shows the overlay of the moment it is done).
      if (this.slices.busy) return;
      const started = performance.now();
      this.showOverlay(overlay);
      this.measure(started, performance.now());
      return;
    }
    const into = overlay ? "base" : "back";
    const target = sized(into === "back" ? this.back : this.base);
    if (into === "back") this.back = target;
    else this.base = target;
    const tctx = target.getContext("2d");
    if (!tctx) {
      this.slices.cancel();
      return;
    }
    tctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.dirty = into === "back";
    const steps = s.drawSteps(tctx, t0, t1).map((step) => this.guarded(step));
    this.slices.start(steps, () => {
      const ctx = canvas.getContext("2d");
      if (!ctx) return;
      const now = this.o.overlay();
      if (into === "base" && now) this.showOverlay(now);
      else if (into === "back" && this.back) {
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.clearRect(0, 0, canvas.width, canvas.height);
        ctx.drawImage(this.back, 0, 0);
      }
      // The window this frame shows, on the canvas (seconds, to 0.1 s): two timelines that share a
      // window (a pinned baseline's under the one on screen) can be seen to show the same span.
      canvas.dataset.window = `${t0.toFixed(1)},${t1.toFixed(1)}`;
      this.loading?.();
      this.loading = null;
      // The frame is new under a pointer that has not moved: say what is under it now (a zoom or
      // a resize hid the tooltip, which described the previous frame).
      if (this.o.pointer.current) this.o.onFrameShown();
    });
  }
}
