/**
 * The replica timelines: canvas drawing (timelineRenderer.ts), d3-zoom for wheel / drag / pinch,
 * keyboard zoom and pan, a hover tooltip, and the replay (replayStore.ts): its cursor and the
 * phases it is in are drawn over a cached copy of the timeline (replayOverlay.ts), straight from
 * a store subscription, so a replay frame re-renders no React. The visible window lives in the
 * explorer store so the goodput chart, the failure log and the share link follow it.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { MIN_WINDOW_SECONDS } from "../../link/windowParam.ts";
import { selectedPolicies } from "../../sim/policies/index.ts";
import type { Scenario } from "../../sim/scenario/index.ts";
import type { Trace } from "../../sim/types.ts";
import { explorerStore, useExplorerStore } from "../../state/explorerStore.ts";
import { replayStore } from "../../state/replayStore.ts";
import { momentAt } from "../../state/traceAt.ts";
import { useThrowToBoundary } from "../boundary/useThrowToBoundary.ts";
import { duration } from "../format.ts";
import { ReplayControls, ReplayReadout } from "./Replay.tsx";
import { drawReplayOverlay } from "./replayOverlay.ts";
import { formatClock } from "./timeAxis.ts";
import { type Scene, TimelineController } from "./timelineController.ts";
import type { HoverInfo } from "./timelineHover.ts";
import { type Palette, readPalette } from "./timelinePalette.ts";
import { rendererBuildSteps, type TimelineRenderer, tracksFor, tracksSummary } from "./timelineRenderer.ts";
import { windowScale } from "./timelineScale.ts";

/** The narrowest window the zoom allows: seconds are still readable. */

interface Props {
  scenario: Scenario;
  trace: Trace;
  /** Hands the canvas to the panel's PNG export. */
  canvasRef: React.RefObject<HTMLCanvasElement | null>;
  /**
   * The pinned baseline's timeline, stacked under the one on screen (BaselineTimeline.tsx): it
   * follows the shared window (zoom and pan on either move both), has no toolbar or replay controls
   * of its own, and selects no failure (the selection indexes the scenario on screen's failures).
   */
  baseline?: boolean;
  /** The time axis's length in seconds, when it is not this scenario's own horizon (a baseline drawn on the scenario on screen's axis). */
  horizon?: number;
}

interface Tip extends HoverInfo {
  x: number;
  y: number;
}

/**
 * What the lanes show, in the order drawn: "4 FT-HSDP replicas" for a replica-shaped policy,
 * "the synchronous job" for a whole-job one.
 */
export function lanesInWords(scenario: Scenario, trace: Trace): string {
  const parts = selectedPolicies(scenario).map((p) =>
    trace.recordings[p.key]?.kind === "replicas"
      ? `${scenario.cluster.replicas} ${p.label} replicas`
      : `the ${p.label.toLowerCase()} job`,
  );
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

export function Timeline({ scenario, trace, canvasRef, baseline = false, horizon }: Props) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const [tip, setTip] = useState<Tip | null>(null);
  const theme = useExplorerStore((s) => s.theme);
  // Zoom, the sliced draw and the key queue (timelineController.ts): out of React state, so
  // panning never re-renders.
  const ctl = useRef<TimelineController<HoverInfo> | null>(null);
  const palette = useRef<Palette | null>(null);
  /** Where the pointer rests on the canvas (CSS px), while it is there and no button is down. */
  const pointer = useRef<{ x: number; y: number } | null>(null);

  const throwToBoundary = useThrowToBoundary();
  /** The tooltip for what lies under the resting pointer now (none when it is off the canvas). */
  const hoverAtPointer = useCallback(() => {
    const at = ctl.current?.hoverAtPointer() ?? null;
    setTip((prev) => {
      if (!at) return null;
      const { info } = at;
      // The same words at the same place: keep the tooltip as it is (no re-render).
      if (
        prev &&
        prev.x === at.x &&
        prev.y === at.y &&
        prev.title === info.title &&
        prev.failure === info.failure &&
        prev.lines.join("\n") === info.lines.join("\n")
      )
        return prev;
      return { ...info, x: at.x, y: at.y };
    });
  }, []);

  // Build the renderer a track per task, then hand it to a controller for this trace.
  useEffect(() => {
    const canvas = canvasRef.current;
    const wrap = wrapRef.current;
    if (!canvas || !wrap) return;
    let renderer: TimelineRenderer | null = null;
    const c: TimelineController<HoverInfo> = new TimelineController<HoverInfo>({
      canvas,
      container: wrap,
      minWidth: 320,
      minWindowSeconds: MIN_WINDOW_SECONDS,
      measureName: baseline ? "timeline-draw-baseline" : "timeline-draw",
      pointer,
      storedWindow: () => explorerStore.getState().window,
      onWindowSettled: (w) => explorerStore.getState().setWindow(w),
      onZoom: () => setTip(null),
      onLayout: () => {
        if (renderer) describeParts(canvas, renderer);
      },
      onFrameShown: hoverAtPointer,
      onError: throwToBoundary,
      overlay: () => {
        const cursor = replayStore.getState().cursor;
        const r = renderer;
        const p = palette.current;
        if (cursor === null || !r || !p) return null;
        return (ctx) => {
          const L = r.currentLayout;
          const [t0, t1] = c.window;
          const m = momentAt(trace, cursor);
          drawReplayOverlay(ctx, L, windowScale(L, t0, t1), r.replayMarks(t0, t1, m), m, p);
        };
      },
      onStart: () => {
        const unsub = explorerStore.subscribe((st, prev) => {
          if (st.window !== prev.window && st.window !== c.lastStored) c.showWindow(st.window);
          if (st.selectedFailure !== prev.selectedFailure) c.requestDraw();
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
          if (st.cursor === null || prev.cursor === null) c.requestDraw();
          else c.overlayMoved();
        });
        return () => {
          unsub();
          unsubReplay();
        };
      },
    });
    ctl.current = c;
    // The renderer's indexes are built a track at a time, each in a task of its own, not in the
    // one that rendered the page for this trace: for the largest runs the whole build was a
    // single task of 200–300 ms on a slow machine.
    c.load((width) => {
      const build = rendererBuildSteps(scenario, trace, width);
      return {
        steps: build.steps,
        scene: () => {
          const r = build.renderer();
          renderer = r;
          palette.current = readPalette(canvas);
          return sceneOf(r, palette, horizon, baseline);
        },
      };
    });
    return () => {
      c.dispose();
      if (ctl.current === c) ctl.current = null;
    };
  }, [scenario, trace, canvasRef, hoverAtPointer, throwToBoundary, baseline, horizon]);

  // The theme changes the palette.
  useEffect(() => {
    const canvas = canvasRef.current;
    // Before the renderer is built there is nothing to redraw, and the build reads the palette
    // itself: reading it here would force a style recalculation in the task that renders the run.
    if (!canvas || theme === undefined || !ctl.current?.scene) return;
    palette.current = readPalette(canvas);
    ctl.current.requestDraw();
  }, [theme, canvasRef]);

  /** Zoom about the replay's cursor when it is on screen, else about the middle. */
  const zoomBy = useCallback(
    (factor: number) => ctl.current?.zoomBy(factor, () => replayStore.getState().cursor),
    [],
  );
  const panBy = useCallback((fraction: number) => ctl.current?.panBy(fraction), []);
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
      pointer.current = null;
      setTip(null);
      return;
    }
    const rect = e.currentTarget.getBoundingClientRect();
    pointer.current = { x: e.clientX - rect.left, y: e.clientY - rect.top };
    hoverAtPointer();
  };
  const onPointerLeave = () => {
    pointer.current = null;
    setTip(null);
  };

  const onClick = () => {
    if (!baseline && tip?.failure != null) explorerStore.setState({ selectedFailure: tip.failure });
  };

  const wrapWidth = wrapRef.current?.clientWidth ?? 800;
  const parts = useMemo(() => tracksSummary(tracksFor(scenario, trace)), [scenario, trace]);
  const lanes = `${lanesInWords(scenario, trace)}${parts}`;
  return (
    <div className={baseline ? "timeline timeline-baseline" : "timeline"}>
      {baseline ? null : (
        <>
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
        </>
      )}
      <div className="timeline-canvas-wrap" ref={wrapRef}>
        <canvas
          ref={canvasRef}
          tabIndex={0}
          role="img"
          data-testid={baseline ? "timeline-canvas-baseline" : "timeline-canvas"}
          aria-label={`${baseline ? "The pinned baseline's timeline" : "Timeline"} of ${lanes}. Scroll or press + and − to zoom, drag or use the arrow keys to pan, 0 for the whole run. Space or k plays and pauses the replay; period and comma step to the next and previous change.`}
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

/**
 * The renderer as the controller's scene: drawn with the current palette and selected failure (none
 * on a baseline's), over `horizon` seconds when given (the scenario on screen's, for a baseline).
 */
function sceneOf(
  r: TimelineRenderer,
  palette: { current: Palette | null },
  horizon: number | undefined,
  baseline: boolean,
): Scene<HoverInfo> {
  return {
    get plot() {
      return r.currentLayout;
    },
    horizon: horizon ?? r.horizonSeconds,
    resize: (width) => r.resize(width),
    drawSteps: (ctx, t0, t1) => {
      const p = palette.current;
      const selected = baseline ? null : explorerStore.getState().selectedFailure;
      return p ? r.drawSteps(ctx, t0, t1, p, selected) : [];
    },
    hover: (x, y, t0, t1) => r.hover(x, y, t0, t1),
  };
}

/**
 * Where the tracks sit and how much they hold, on the canvas's data attributes (each track says
 * its own): a test or a script can point at them without knowing the layout's constants. An
 * attribute the previous run's tracks set and this run's do not is removed.
 */
const described = new WeakMap<HTMLCanvasElement, string[]>();
function describeParts(canvas: HTMLCanvasElement, r: TimelineRenderer) {
  const d = canvas.dataset;
  const now = r.describe();
  for (const k of described.get(canvas) ?? []) if (!(k in now)) delete d[k];
  Object.assign(d, now);
  described.set(canvas, Object.keys(now));
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
