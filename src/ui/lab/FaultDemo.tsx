/** FTAR under a fault: the ring before and after, each step as it happens, and the recovery time. */

import { useEffect, useRef } from "react";
import type { FtarEvent } from "../../gpu/ftar.ts";
import { SIZES } from "../../link/labLink.ts";
import { useLabStore } from "../../state/labStore.ts";
import { Panel } from "../boundary/Panel.tsx";
import { SelectField } from "../form/Field.tsx";
import { JobProgressBar } from "./JobProgressBar.tsx";
import { bytes } from "./labFormat.ts";
import { RingDiagram } from "./RingDiagram.tsx";

function eventText(e: FtarEvent): string {
  switch (e.type) {
    case "ring":
      return `Attempt ${e.attempt + 1}: ring ${e.ring.join(" → ")} → ${e.ring[0]}, ${e.steps} steps`;
    case "step":
      return e.hops.length > 0
        ? `Step ${e.step + 1} (${e.phase}): ${e.hops.map((h) => `${h.from}→${h.to}`).join(", ")}`
        : `Step ${e.step + 1} (${e.phase}): each device divides its sum by the ring size`;
    case "step-done":
      return `  done in ${e.ms.toFixed(0)} ms`;
    case "killed":
      return `✕ Device ${e.rank} killed before step ${e.step + 1}`;
    case "timeout":
      return `Timeout: step ${e.step + 1} did not complete within ${e.waitedMs.toFixed(0)} ms; heartbeat every device`;
    case "dropped":
      return `Silent: device ${e.ranks.join(", ")}. Re-forming the ring over the survivors`;
    case "verified":
      return e.ok ? "✓ Result equals the survivors' average" : "✗ Result differs from the survivors' average";
  }
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => i);

export function FaultDemo() {
  const f = useLabStore((s) => s.fault);
  const modes = useLabStore((s) => s.modes);
  const status = useLabStore((s) => s.status);
  const setFault = useLabStore((s) => s.setFault);
  const runFault = useLabStore((s) => s.runFault);
  const killNow = useLabStore((s) => s.killNow);
  const log = useLabStore((s) => s.faultLog);
  const ringBefore = useLabStore((s) => s.ringBefore);
  const ring = useLabStore((s) => s.ring);
  const result = useLabStore((s) => s.faultResult);
  const killNote = useLabStore((s) => s.killNote);
  const job = useLabStore((s) => s.job);
  // From Run on (a press during the set-up is taken at the first step) until the ring is done.
  const running = status === "running" && job === "fault" && (ring === null || ring.status !== "done");
  const ready = status === "ready";
  const steps = 2 * (f.devices - 1);
  const logRef = useRef<HTMLOListElement>(null);
  // Keep the newest line in view as the demo unfolds.
  useEffect(() => {
    const el = logRef.current;
    if (el && log.length > 0) el.scrollTop = el.scrollHeight;
  }, [log]);
  return (
    <Panel what="The fault demo" className="lab-card" aria-labelledby="fault-title">
      <h2 id="fault-title">FTAR under a fault</h2>
      <p className="lab-note">
        A ring all-reduce (AVG) runs step by step. Kill a device and the CPU control plane sees a step that
        never completes, heartbeats every device, drops the silent one, re-forms the ring over the survivors
        and runs again.
      </p>
      <div className="lab-form">
        <SelectField
          label="Mode"
          value={f.mode}
          disabled={!ready}
          choices={modes.map((m) => ({ value: m }))}
          onChange={(v) => setFault({ mode: v as typeof f.mode })}
        />
        <SelectField
          label="Devices"
          value={f.devices}
          disabled={!ready}
          choices={Array.from({ length: 14 }, (_, i) => ({ value: i + 3 }))}
          onChange={(v) => setFault({ devices: Number(v) })}
        />
        <SelectField
          label="Size / device"
          value={f.bytesPerDevice}
          disabled={!ready}
          choices={SIZES.filter((s) => s <= 16 * 1024 * 1024).map((s) => ({ value: s, text: bytes(s) }))}
          onChange={(v) => setFault({ bytesPerDevice: Number(v) })}
        />
        <SelectField
          label="Victim"
          value={f.victim}
          disabled={!ready}
          choices={ids(f.devices).map((r) => ({ value: r }))}
          onChange={(v) => setFault({ victim: Number(v) })}
        />
        <SelectField
          label="Kill at step"
          value={f.killStep ?? "button"}
          disabled={!ready}
          choices={[
            { value: "button", text: "only when I press Kill" },
            ...ids(steps).map((s) => ({ value: s, text: String(s + 1) })),
          ]}
          onChange={(v) => setFault({ killStep: v === "button" ? null : Number(v) })}
        />
        <label className="check">
          <input
            type="checkbox"
            checked={f.slow}
            disabled={!ready}
            onChange={(e) => setFault({ slow: e.target.checked })}
          />
          Slow motion
        </label>
        <button type="button" onClick={() => void runFault()} disabled={!ready}>
          Run fault demo
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => void killNow()}
          disabled={!running || (ring?.dead.includes(f.victim) ?? false)}
        >
          Kill device {f.victim}
        </button>
      </div>
      <JobProgressBar jobs={["fault"]} label="Fault demo" />
      {killNote && (
        <p className="lab-kill-note" role="status" data-testid="kill-note">
          {killNote}
        </p>
      )}
      <div className="rings">
        <RingDiagram
          title="Ring before the fault"
          devices={f.devices}
          ring={ringBefore ?? ids(f.devices)}
          dead={[]}
          hops={[]}
        />
        <RingDiagram
          title={
            ring
              ? `Now: attempt ${ring.attempt + 1}, ${ring.status}${ring.step !== null ? `, step ${ring.step + 1} of ${ring.steps}` : ""}`
              : "Now: not started"
          }
          devices={f.devices}
          ring={ring?.ring ?? ringBefore ?? ids(f.devices)}
          dead={ring?.dead ?? []}
          hops={ring?.hops ?? []}
        />
        <ol className="fault-log" aria-label="Fault demo log" ref={logRef}>
          {log
            .filter(({ event }) => event.type !== "step-done")
            .map(({ id, event }) => (
              <li key={id} className={`log-${event.type}`}>
                {eventText(event)}
              </li>
            ))}
        </ol>
      </div>
      {result && (
        <p className={result.verified ? "fault-result ok" : "fault-result bad"} data-testid="fault-result">
          {result.verified ? "✓" : "✗"} Ring {result.ringBefore.join("·")} → {result.ringAfter.join("·")}
          {result.dropped.length > 0 ? ` (dropped ${result.dropped.join(", ")})` : " (no fault happened)"};{" "}
          {result.verified
            ? "result verified equal to the survivors' average"
            : "result NOT equal to the survivors' average"}
          {result.recoverMs !== null &&
            `; detected after ${result.detectMs?.toFixed(0)} ms (step timeout ${result.stepTimeoutMs} ms), recovered in ${result.recoverMs.toFixed(0)} ms from the kill${f.slow ? " (slow-motion pauses not counted)" : ""}`}
          .
        </p>
      )}
    </Panel>
  );
}
