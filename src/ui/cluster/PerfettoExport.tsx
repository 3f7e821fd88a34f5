/**
 * The Perfetto export: a year-long run's trace is tens of MB, so the file is built in slices (no
 * long task), for the visible time window by default, and its size is said before it is saved.
 */
import { useEffect, useState } from "react";
import { type BuiltTrace, clusterTraceBlob, type TraceWindow } from "../../export/clusterTrace.ts";
import { downloadBlob } from "../../export/download.ts";
import type { RunResult } from "../../sim/types.ts";
import { useExplorerStore } from "../../state/explorerStore.ts";
import { count, duration } from "../format.ts";

/** Bytes as "820 kB" / "61.8 MB": what a person weighs before saving. */
export function fileSize(bytes: number): string {
  if (bytes < 1e6) return `${count(bytes / 1e3, 0)} kB`;
  return `${count(bytes / 1e6, 1)} MB`;
}

type Extent = "visible" | "whole";

function windowWords(w: TraceWindow): string {
  return `${duration(w[1] - w[0])} from ${duration(w[0])}`;
}

function ExportPanel({ run, stem, onClose }: { run: RunResult; stem: string; onClose: () => void }) {
  const visible = useExplorerStore((s) => s.window);
  const [extent, setExtent] = useState<Extent>(visible ? "visible" : "whole");
  const [progress, setProgress] = useState(0);
  const [built, setBuilt] = useState<BuiltTrace | null>(null);
  const trace = run.trace;
  const window = extent === "visible" ? visible : null;

  useEffect(() => {
    if (!trace) return;
    let cancelled = false;
    setBuilt(null);
    setProgress(0);
    clusterTraceBlob(run.scenario, trace, window, {
      isCancelled: () => cancelled,
      onProgress: (events) => {
        if (!cancelled) setProgress(events);
      },
    }).then((b) => {
      if (!cancelled && b) setBuilt(b);
    });
    return () => {
      cancelled = true;
    };
  }, [run.scenario, trace, window]);

  return (
    <section className="perfetto-export" aria-label="Perfetto export">
      <fieldset>
        <legend>Time span</legend>
        <label>
          <input
            type="radio"
            name="perfetto-extent"
            checked={extent === "visible"}
            disabled={!visible}
            onChange={() => setExtent("visible")}
          />{" "}
          The visible window{visible ? ` (${windowWords(visible)})` : " (zoom the timeline to choose one)"}
        </label>
        <label>
          <input
            type="radio"
            name="perfetto-extent"
            checked={extent === "whole"}
            onChange={() => setExtent("whole")}
          />{" "}
          The whole run ({duration(run.scenario.training.days * 86_400)})
        </label>
      </fieldset>
      <p data-testid="perfetto-size" aria-live="polite">
        {built
          ? `${fileSize(built.bytes)}, ${count(built.events)} events.`
          : `Preparing the trace… ${count(progress)} events so far.`}
      </p>
      <div className="panel-actions">
        <button
          type="button"
          disabled={!built}
          onClick={() => {
            if (!built) return;
            downloadBlob(built.blob, window ? `${stem}-window.perfetto.json` : `${stem}.perfetto.json`);
            onClose();
          }}
        >
          Save {built ? fileSize(built.bytes) : ""}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </section>
  );
}

/** The button, and under it the panel that prepares the file and says its size. */
export function PerfettoExport({ run, stem }: { run: RunResult | null; stem: string }) {
  const [open, setOpen] = useState(false);
  return (
    <span className="perfetto-anchor">
      <button type="button" disabled={!run?.trace} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        Perfetto trace (.json)
      </button>
      {open && run?.trace ? <ExportPanel run={run} stem={stem} onClose={() => setOpen(false)} /> : null}
    </span>
  );
}
