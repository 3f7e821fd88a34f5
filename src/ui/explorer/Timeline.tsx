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
import { TimelineRenderer } from "./timelineRenderer.ts";
import { windowOf, windowScale, transformFor as windowTransform } from "./timelineScale.ts";

/** The narrowest window the zoom allows: seconds are still readable. */
const MIN_WINDOW_SECONDS = 10;
const STORE_EVERY_MS = 150;
/** A frame's draw steps run in slices of about this long (plus one step), so no task is long. */
const STEP_BUDGET_MS = 40;

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
    /** A frame being drawn offscreen in slices (drawSteps), shown once complete. */
    pending: { steps: (() => number)[]; next: number } | null;
    back: HTMLCanvasElement | null;
    stepFrame: number;
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
  });

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
    if (!job || !canvas || !ctx || !s.back) return;
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
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(s.back, 0, 0);
    }
    // User Timing entries let the UI bench read the cost of each frame; keep the buffer bounded.
    if (++s.measures > 5000) {
      performance.clearMeasures("timeline-draw");
      s.measures = 0;
    }
    performance.measure("timeline-draw", { start: started, end: performance.now() });
  }, [canvasRef]);

  const draw = useCallback(() => {
    const s = live.current;
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !ctx || !s.renderer || !s.palette) return;
    const dpr = window.devicePixelRatio || 1;
    const [t0, t1] = s.window;
    const selected = explorerStore.getState().selectedFailure;
    const cursor = replayStore.getState().cursor;
    // A newer frame replaces one still being drawn.
    cancelAnimationFrame(s.stepFrame);
    s.stepFrame = 0;
    s.pending = null;
    if (cursor === null) {
      // No replay: draw offscreen in slices (one slice for most runs: panning costs one draw and
      // a copy), then show it; the replay's cache is stale.
      let back = s.back;
      if (!back || back.width !== canvas.width || back.height !== canvas.height) {
        back = document.createElement("canvas");
        back.width = canvas.width;
        back.height = canvas.height;
        s.back = back;
      }
      const bctx = back.getContext("2d");
      if (!bctx) return;
      bctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      s.pending = { steps: s.renderer.drawSteps(bctx, t0, t1, s.palette, selected), next: 0 };
      s.base.dirty = true;
      continueDraw();
      return;
    }
    const started = performance.now();
    {
      // Replaying: copy the cached timeline, redrawing it only when it changed, then the marks.
      let base = s.base.canvas;
      if (!base || base.width !== canvas.width || base.height !== canvas.height) {
        base = document.createElement("canvas");
        base.width = canvas.width;
        base.height = canvas.height;
        s.base = { canvas: base, dirty: true };
      }
      const bctx = base.getContext("2d");
      if (!bctx) return;
      if (s.base.dirty) {
        bctx.setTransform(dpr, 0, 0, dpr, 0, 0);
        s.renderer.draw(bctx, t0, t1, s.palette, selected);
        s.base.dirty = false;
      }
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.drawImage(base, 0, 0);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const L = s.renderer.currentLayout;
      drawReplayOverlay(ctx, L, windowScale(L, t0, t1), trace, momentAt(trace, cursor), s.palette);
    }
    // User Timing entries let the UI bench read the cost of each frame; keep the buffer bounded.
    if (++s.measures > 5000) {
      performance.clearMeasures("timeline-draw");
      s.measures = 0;
    }
    performance.measure("timeline-draw", { start: started, end: performance.now() });
  }, [canvasRef, trace, continueDraw]);

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
    // The renderer's indexes are built in a task of their own, not in the one that rendered the
    // page for this trace: for the largest runs each is a few hundred ms on a slow machine.
    const timer = window.setTimeout(() => {
      const s = live.current;
      const renderer = new TimelineRenderer(scenario, trace, Math.max(320, wrap.clientWidth));
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
          // What was under the pointer has moved: a tooltip would describe another place.
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
    }, 0);
    return () => {
      clearTimeout(timer);
      teardown?.();
    };
  }, [scenario, trace, canvasRef, requestDraw, draw, transformFor]);

  // The theme changes the palette.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || theme === undefined) return;
    live.current.palette = readPalette(canvas);
    requestDraw();
  }, [theme, canvasRef, requestDraw]);

  const zoomBy = useCallback(
    (factor: number) => {
      const { zoom: z, renderer } = live.current;
      const canvas = canvasRef.current;
      if (!z || !canvas || !renderer) return;
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
    [canvasRef],
  );
  const panBy = useCallback(
    (fraction: number) => {
      const { zoom: z, renderer, transform } = live.current;
      const canvas = canvasRef.current;
      if (!z || !canvas || !renderer) return;
      select(canvas).call(z.translateBy, (-fraction * renderer.currentLayout.plotWidth) / transform.k, 0);
    },
    [canvasRef],
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
    const r = live.current.renderer;
    if (!r || e.buttons !== 0) {
      setTip(null);
      return;
    }
    const rect = e.currentTarget.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    const info = r.hover(x, y, live.current.window[0], live.current.window[1]);
    setTip(info ? { ...info, x, y } : null);
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
          onPointerLeave={() => setTip(null)}
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
