/**
 * The replica timelines: canvas drawing (timelineRenderer.ts), d3-zoom for wheel / drag / pinch,
 * keyboard zoom and pan, a hover tooltip, and the replay (replayStore.ts): its cursor and the
 * phases it is in are drawn over a cached copy of the timeline (replayOverlay.ts), straight from
 * a store subscription, so a replay frame re-renders no React. The visible window lives in the
 * explorer store so the goodput chart, the failure log and the share link follow it.
 */
import { select } from "d3-selection";
import { type D3ZoomEvent, type ZoomBehavior, type ZoomTransform, zoom, zoomIdentity } from "d3-zoom";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Scenario } from "../../sim/scenario.ts";
import type { Trace } from "../../sim/types.ts";
import { explorerStore, type TimeWindow, useExplorerStore } from "../../state/explorerStore.ts";
import { replayStore } from "../../state/replayStore.ts";
import { momentAt } from "../../state/traceAt.ts";
import { duration } from "../format.ts";
import { jobLaneCounts } from "./jobTrack.ts";
import { ReplayControls, ReplayReadout } from "./Replay.tsx";
import { rackEvents } from "./rackTrack.ts";
import { drawReplayOverlay } from "./replayOverlay.ts";
import { hasSpareChart } from "./spareTrack.ts";
import { formatClock } from "./timeAxis.ts";
import type { HoverInfo } from "./timelineHover.ts";
import { type Palette, readPalette } from "./timelinePalette.ts";
import { rendererBuildSteps, type TimelineRenderer } from "./timelineRenderer.ts";
import { windowOf, windowScale, transformFor as windowTransform } from "./timelineScale.ts";

/** The narrowest window the zoom allows: seconds are still readable. */
const MIN_WINDOW_SECONDS = 10;
const STORE_EVERY_MS = 150;
/** A frame's draw steps run in slices of about this long (plus one step), so no task is long. */
const STEP_BUDGET_MS = 40;
/** Zoom and pan keys kept while the renderer is built (older ones are dropped past this). */
const MAX_QUEUED_KEYS = 32;

interface Props {
  scenario: Scenario;
  trace: Trace;
  /** Hands the canvas to the panel's PNG export. */
  canvasRef: React.RefObject<HTMLCanvasElement | null>;
}

interface Tip extends HoverInfo {
  x: number;
  y: number;
}

export function Timeline({ scenario, trace, canvasRef }: Props) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const [tip, setTip] = useState<Tip | null>(null);
  const theme = useExplorerStore((s) => s.theme);
  // Everything the draw loop needs, kept out of React state so panning never re-renders.
  const live = useRef<{
    renderer: TimelineRenderer | null;
    palette: Palette | null;
    zoom: ZoomBehavior<HTMLCanvasElement, unknown> | null;
    transform: ZoomTransform;
    window: TimeWindow;
    lastStored: TimeWindow | null;
    frame: number;
    storeTimer: number;
    measures: number;
    /** The timeline without the replay's marks, redrawn only when it changes (base.dirty). */
    base: { canvas: HTMLCanvasElement | null; dirty: boolean };
    /**
     * A frame being drawn offscreen in slices (drawSteps), shown once complete: into `back` (no
     * replay), or into the replay's cached timeline (`base`), then shown with the replay's marks.
     */
    pending: { steps: (() => number)[]; next: number; into: "back" | "base" } | null;
    back: HTMLCanvasElement | null;
    stepFrame: number;
    /** Where the pointer rests on the canvas (CSS px), while it is there and no button is down. */
    pointer: { x: number; y: number } | null;
    /**
     * Zoom and pan keys pressed while the renderer is being built (a task at a time): applied in
     * order once it is ready, so a key pressed right after a run arrives is not lost.
     */
    queued: (() => void)[];
  }>({
    renderer: null,
    palette: null,
    zoom: null,
    transform: zoomIdentity,
    window: [0, 1],
    lastStored: null,
    frame: 0,
    storeTimer: 0,
    measures: 0,
    base: { canvas: null, dirty: true },
    pending: null,
    back: null,
    stepFrame: 0,
    pointer: null,
    queued: [],
  });

  /** The tooltip for what lies under the resting pointer now (none when it is off the canvas). */
  const hoverAtPointer = useCallback(() => {
    const { renderer: r, pointer, window: w } = live.current;
    const info = r && pointer ? r.hover(pointer.x, pointer.y, w[0], w[1]) : null;
    setTip((prev) => {
      if (!info || !pointer) return null;
      // The same words at the same place: keep the tooltip as it is (no re-render).
      if (
        prev &&
        prev.x === pointer.x &&
        prev.y === pointer.y &&
        prev.title === info.title &&
        prev.failure === info.failure &&
        prev.lines.join("\n") === info.lines.join("\n")
      )
        return prev;
      return { ...info, x: pointer.x, y: pointer.y };
    });
  }, []);

  /** Copy the replay's cached timeline to the canvas and draw the replay's marks at its cursor. */
  const showReplayFrame = useCallback(
    (cursor: number) => {
      const s = live.current;
      const canvas = canvasRef.current;
      const ctx = canvas?.getContext("2d");
      if (!canvas || !ctx || !s.renderer || !s.palette || !s.base.canvas) return;
      const dpr = window.devicePixelRatio || 1;
      const [t0, t1] = s.window;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(s.base.canvas, 0, 0);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const L = s.renderer.currentLayout;
      drawReplayOverlay(ctx, L, windowScale(L, t0, t1), trace, momentAt(trace, cursor), s.palette);
    },
    [canvasRef, trace],
  );

  /**
   * Run the pending frame's steps for up to STEP_BUDGET_MS, then show it if complete, else go on
   * at the next animation frame. The visible canvas keeps the previous frame until the new one is
   * whole, so a frame spread over several tasks never shows half drawn.
   */
  const continueDraw = useCallback(() => {
    const s = live.current;
    const job = s.pending;
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext("2d");
    if (!job || !canvas || !ctx) return;
    const started = performance.now();
    while (job.next < job.steps.length) {
      (job.steps[job.next++] as () => number)();
      if (performance.now() - started > STEP_BUDGET_MS) break;
    }
    if (job.next < job.steps.length) {
      s.stepFrame = requestAnimationFrame(() => {
        s.stepFrame = 0;
        continueDraw();
      });
    } else {
      s.pending = null;
      const cursor = replayStore.getState().cursor;
      if (job.into === "base" && cursor !== null) showReplayFrame(cursor);
      else if (job.into === "back" && s.back) {
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.clearRect(0, 0, canvas.width, canvas.height);
        ctx.drawImage(s.back, 0, 0);
      }
      // The frame is new under a pointer that has not moved: say what is under it now (a zoom or
      // a resize hid the tooltip, which described the previous frame).
      if (s.pointer) hoverAtPointer();
    }
    // User Timing entries let the UI bench read the cost of each frame; keep the buffer bounded.
    if (++s.measures > 5000) {
      performance.clearMeasures("timeline-draw");
      s.measures = 0;
    }
    performance.measure("timeline-draw", { start: started, end: performance.now() });
  }, [canvasRef, showReplayFrame, hoverAtPointer]);

  const draw = useCallback(() => {
    const s = live.current;
    const canvas = canvasRef.current;
    if (!canvas || !s.renderer || !s.palette) return;
    const dpr = window.devicePixelRatio || 1;
    const [t0, t1] = s.window;
    const selected = explorerStore.getState().selectedFailure;
    const cursor = replayStore.getState().cursor;
    /** A new offscreen canvas when the visible one changed size. */
    const sized = (c: HTMLCanvasElement | null): HTMLCanvasElement => {
      if (c && c.width === canvas.width && c.height === canvas.height) return c;
      const fresh = document.createElement("canvas");
      fresh.width = canvas.width;
      fresh.height = canvas.height;
      return fresh;
    };
    if (cursor !== null && !s.base.dirty && s.base.canvas === sized(s.base.canvas)) {
      // A replay frame over an unchanged timeline: its cached copy, or, while that copy is
      // still being drawn in slices, nothing yet (it shows the cursor of the moment it is done).
      if (s.pending) return;
      const started = performance.now();
      showReplayFrame(cursor);
      // User Timing entries let the UI bench read the cost of each frame; keep the buffer bounded.
      if (++s.measures > 5000) {
        performance.clearMeasures("timeline-draw");
        s.measures = 0;
      }
      performance.measure("timeline-draw", { start: started, end: performance.now() });
      return;
    }
    // A newer frame replaces one still being drawn.
    cancelAnimationFrame(s.stepFrame);
    s.stepFrame = 0;
    s.pending = null;
    // Draw offscreen in slices (one slice for most runs: panning costs one draw and a copy), then
    // show it. Without a replay into `back` (the replay's cache is then stale); replaying, into
    // the replay's cache, which later replay frames copy under their marks.
    const into = cursor === null ? "back" : "base";
    const target = sized(into === "back" ? s.back : s.base.canvas);
    if (into === "back") s.back = target;
    else s.base.canvas = target;
    const tctx = target.getContext("2d");
    if (!tctx) return;
    tctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    s.pending = { steps: s.renderer.drawSteps(tctx, t0, t1, s.palette, selected), next: 0, into };
    s.base.dirty = into === "back";
    continueDraw();
  }, [canvasRef, continueDraw, showReplayFrame]);

  /** Redraw at the next frame: something other than the replay cursor changed. */
  const requestDraw = useCallback(() => {
    const s = live.current;
    s.base.dirty = true;
    if (s.frame) return;
    s.frame = requestAnimationFrame(() => {
      s.frame = 0;
      draw();
    });
  }, [draw]);

  /** The zoom transform that shows window w, for the current layout. */
  const transformFor = useCallback((w: TimeWindow | null): ZoomTransform => {
    const r = live.current.renderer;
    if (!r) return zoomIdentity;
    return windowTransform(r.currentLayout, r.horizonSeconds, w, MIN_WINDOW_SECONDS);
  }, []);

  // Build the renderer and the zoom behaviour for this trace.
  useEffect(() => {
    const canvas = canvasRef.current;
    const wrap = wrapRef.current;
    if (!canvas || !wrap) return;
    let teardown: (() => void) | null = null;
    // The renderer's indexes are built a track at a time, each in a task of its own, not in the
    // one that rendered the page for this trace: for the largest runs the whole build was a
    // single task of 200–300 ms on a slow machine.
    let timer = 0;
    // Created in the first step: the width read there does not force a layout in this task.
    let build: ReturnType<typeof rendererBuildSteps> | null = null;
    let next = 0;
    const buildStep = () => {
      build ??= rendererBuildSteps(scenario, trace, Math.max(320, wrap.clientWidth));
      if (next < build.steps.length) {
        (build.steps[next++] as () => void)();
        timer = window.setTimeout(buildStep, 0);
      } else start(build.renderer());
    };
    timer = window.setTimeout(buildStep, 0);
    const start = (renderer: TimelineRenderer) => {
      const s = live.current;
      s.renderer = renderer;
      s.palette = readPalette(canvas);
      const H = renderer.horizonSeconds;
      const sel = select(canvas);

      const fitCanvas = () => {
        const L = renderer.currentLayout;
        describeParts(canvas, renderer);
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

      const z = zoom<HTMLCanvasElement, unknown>()
        .scaleExtent([1, Math.max(1, H / MIN_WINDOW_SECONDS)])
        .on("zoom", (ev: D3ZoomEvent<HTMLCanvasElement, unknown>) => {
          s.transform = ev.transform;
          // What was under the pointer has moved: a tooltip would describe another place. After a
          // gesture (wheel, drag, pinch) it stays hidden until the pointer moves again; after a
          // zoom from elsewhere (the keys or buttons, a resize, the link's window) the new frame,
          // once drawn, says what lies under the resting pointer (continueDraw).
          if (ev.sourceEvent) s.pointer = null;
          setTip(null);
          s.window = windowOf(renderer.currentLayout, H, ev.transform);
          requestDraw();
          // The store (and the React views that follow it) hears of the window at most every
          // STORE_EVERY_MS while a gesture lasts, so panning costs one canvas draw per frame.
          if (!s.storeTimer) s.storeTimer = window.setTimeout(storeWindow, STORE_EVERY_MS);
        })
        .on("end", storeWindow);
      function storeWindow() {
        clearTimeout(s.storeTimer);
        s.storeTimer = 0;
        // Tenths of a second, as the link stores it: a reopened link then shows exactly this window.
        const tenth = (t: number) => Math.round(t * 10) / 10;
        s.lastStored = s.transform.k === 1 ? null : [tenth(s.window[0]), tenth(s.window[1])];
        explorerStore.getState().setWindow(s.lastStored);
      }
      s.zoom = z;
      fitCanvas();
      sel.call(z).on("dblclick.zoom", null);
      const initial = explorerStore.getState().window;
      sel.call(z.transform, transformFor(initial));
      // Keys pressed while the renderer was being built, in the order they came.
      for (const action of s.queued.splice(0)) action();

      const ro = new ResizeObserver(() => {
        const width = Math.max(320, wrap.clientWidth);
        if (width === renderer.currentLayout.width) return;
        const w = explorerStore.getState().window;
        renderer.resize(width);
        fitCanvas();
        sel.call(z.transform, transformFor(w));
      });
      ro.observe(wrap);

      const unsub = explorerStore.subscribe((st, prev) => {
        if (st.window !== prev.window && st.window !== s.lastStored)
          sel.call(z.transform, transformFor(st.window));
        if (st.selectedFailure !== prev.selectedFailure) requestDraw();
      });
      // The replay's cursor: drawn at once (the replay's own frame), unless a full redraw is due.
      const showCursor = (cursor: number | null) => {
        if (cursor === null) delete canvas.dataset.cursor;
        else canvas.dataset.cursor = cursor.toFixed(1);
      };
      showCursor(replayStore.getState().cursor);
      const unsubReplay = replayStore.subscribe((st, prev) => {
        if (st.cursor === prev.cursor) return;
        showCursor(st.cursor);
        if (st.cursor === null || prev.cursor === null) requestDraw();
        else if (!s.frame) draw();
      });
      teardown = () => {
        ro.disconnect();
        unsub();
        unsubReplay();
        sel.on(".zoom", null);
        cancelAnimationFrame(s.frame);
        cancelAnimationFrame(s.stepFrame);
        s.stepFrame = 0;
        s.pending = null;
        clearTimeout(s.storeTimer);
        s.frame = 0;
        s.storeTimer = 0;
        s.renderer = null;
      };
    };
    return () => {
      clearTimeout(timer);
      teardown?.();
    };
  }, [scenario, trace, canvasRef, requestDraw, draw, transformFor]);

  // The theme changes the palette.
  useEffect(() => {
    const canvas = canvasRef.current;
    // Before the renderer is built there is nothing to redraw, and the build reads the palette
    // itself: reading it here would force a style recalculation in the task that renders the run.
    if (!canvas || theme === undefined || !live.current.renderer) return;
    live.current.palette = readPalette(canvas);
    requestDraw();
  }, [theme, canvasRef, requestDraw]);

  /** A key's zoom or pan, kept for when the renderer is ready (a few keys at most: older ones go). */
  const queueUntilBuilt = useCallback((action: () => void) => {
    const q = live.current.queued;
    if (q.length >= MAX_QUEUED_KEYS) q.shift();
    q.push(action);
  }, []);

  const zoomBy = useCallback(
    (factor: number) => {
      const { zoom: z, renderer } = live.current;
      const canvas = canvasRef.current;
      if (!z || !canvas || !renderer) {
        queueUntilBuilt(() => zoomBy(factor));
        return;
      }
      const L = renderer.currentLayout;
      // Zoom about the replay's cursor when it is on screen, else about the middle.
      const [t0, t1] = live.current.window;
      const cursor = replayStore.getState().cursor;
      const at =
        cursor !== null && cursor >= t0 && cursor <= t1
          ? windowScale(L, t0, t1)(cursor)
          : L.plotLeft + L.plotWidth / 2;
      select(canvas).call(z.scaleBy, factor, [at, 0]);
    },
    [canvasRef, queueUntilBuilt],
  );
  const panBy = useCallback(
    (fraction: number) => {
      const { zoom: z, renderer, transform } = live.current;
      const canvas = canvasRef.current;
      if (!z || !canvas || !renderer) {
        queueUntilBuilt(() => panBy(fraction));
        return;
      }
      select(canvas).call(z.translateBy, (-fraction * renderer.currentLayout.plotWidth) / transform.k, 0);
    },
    [canvasRef, queueUntilBuilt],
  );
  const reset = useCallback(() => explorerStore.getState().setWindow(null), []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    switch (e.key) {
      case "+":
      case "=":
        zoomBy(2);
        break;
      case "-":
      case "_":
        zoomBy(0.5);
        break;
      case "ArrowLeft":
        panBy(-0.2);
        break;
      case "ArrowRight":
        panBy(0.2);
        break;
      case "Home":
      case "0":
        reset();
        break;
      case " ":
      case "k":
        replayStore.getState().toggle();
        break;
      case ".":
        replayStore.getState().step(1);
        break;
      case ",":
        replayStore.getState().step(-1);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const onPointerMove = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (e.buttons !== 0) {
      // Dragging pans: no tooltip until the pointer rests again.
      live.current.pointer = null;
      setTip(null);
      return;
    }
    const rect = e.currentTarget.getBoundingClientRect();
    live.current.pointer = { x: e.clientX - rect.left, y: e.clientY - rect.top };
    hoverAtPointer();
  };
  const onPointerLeave = () => {
    live.current.pointer = null;
    setTip(null);
  };

  const onClick = () => {
    if (tip?.failure != null) explorerStore.setState({ selectedFailure: tip.failure });
  };

  const wrapWidth = wrapRef.current?.clientWidth ?? 800;
  const parts = useMemo(() => partsText(trace), [trace]);
  return (
    <div className="timeline">
      <div className="timeline-tools" role="toolbar" aria-label="Timeline zoom">
        <button type="button" onClick={() => zoomBy(2)} aria-label="Zoom in">
          Zoom in (+)
        </button>
        <button type="button" onClick={() => zoomBy(0.5)} aria-label="Zoom out">
          Zoom out (−)
        </button>
        <button type="button" onClick={() => panBy(-0.5)} aria-label="Pan earlier">
          ←
        </button>
        <button type="button" onClick={() => panBy(0.5)} aria-label="Pan later">
          →
        </button>
        <button type="button" onClick={reset}>
          Whole run
        </button>
        <WindowText />
      </div>
      <ReplayControls />
      <ReplayReadout trace={trace} replicas={scenario.cluster.replicas} />
      <div className="timeline-canvas-wrap" ref={wrapRef}>
        <canvas
          ref={canvasRef}
          tabIndex={0}
          role="img"
          data-testid="timeline-canvas"
          aria-label={`Timeline of ${scenario.cluster.replicas} FT-HSDP replicas and the synchronous job${parts}. Scroll or press + and − to zoom, drag or use the arrow keys to pan, 0 for the whole run. Space or k plays and pauses the replay; period and comma step to the next and previous change.`}
          onKeyDown={onKeyDown}
          onPointerMove={onPointerMove}
          onPointerLeave={onPointerLeave}
          onClick={onClick}
        />
        {tip && (
          <div
            className="timeline-tip"
            data-testid="timeline-tooltip"
            style={{
              left: Math.max(0, Math.min(tip.x + 14, wrapWidth - 360)),
              top: tip.y + 16,
            }}
          >
            <strong>{tip.title}</strong>
            {tip.lines.map((l) => (
              <div key={l}>{l}</div>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

/** What the optional parts show, for the canvas's accessible name: ", with ..." or "". */
function partsText(trace: Trace): string {
  const out: string[] = [];
  const job = jobLaneCounts(trace);
  if (job.jobRestarts + job.checkpoints + job.rolledBack > 0)
    out.push(
      `an FT-HSDP job lane (${job.jobRestarts} job restarts, ${job.checkpoints} FT checkpoint writes, ${job.rolledBack} rollbacks)`,
    );
  const racks = rackEvents(trace).length;
  if (racks > 0) out.push(`${racks} rack failures marked across the replicas they struck`);
  if (hasSpareChart(trace)) out.push("a chart of each policy's spare hosts");
  return out.length > 0 ? `, with ${out.join(", ")}` : "";
}

/**
 * Where the optional parts sit and how much they hold, on the canvas's data attributes: a test
 * or a script can point at them without knowing the layout's constants.
 */
function describeParts(canvas: HTMLCanvasElement, r: TimelineRenderer) {
  const L = r.currentLayout;
  const d = canvas.dataset;
  if (r.job) d.jobLane = `${L.jobY},${L.jobH}`;
  else delete d.jobLane;
  d.rackMarks = String(r.racks.count);
  d.ftLanes = `${L.ftY},${L.laneH},${L.lanes}`;
  if (r.spares) d.spareChart = `${L.spareY},${L.spareH}`;
  else delete d.spareChart;
}

function WindowText() {
  const w = useExplorerStore((s) => s.window);
  return (
    <span className="muted timeline-window" data-testid="timeline-window" aria-live="polite">
      {w
        ? `Showing ${duration(w[1] - w[0])} from ${formatClock(w[0])}`
        : "Showing the whole run: scroll or press + to zoom in"}
    </span>
  );
}
