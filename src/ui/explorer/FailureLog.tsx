/**
 * Every failure of the run, virtualised (a 98K-GPU month has thousands): only the rows in view
 * are in the DOM. A row's time button moves the timeline to that failure. Each row shows the
 * failure's recovery under both policies as stacked bars on one scale (recoveryWaterfall.ts).
 */
import { useState } from "react";
import { costSeconds, longestRecovery, recoveryWaterfall } from "../../sim/recoveryWaterfall.ts";
import type { FailureLog as Log, Trace } from "../../sim/types.ts";
import { explorerStore, useExplorerStore } from "../../state/explorerStore.ts";
import { duration } from "../format.ts";
import { RecoveryBar } from "./RecoveryBar.tsx";
import { formatClock } from "./timeAxis.ts";

const ROW_H = 30;
const VIEW_H = 300;
const OVERSCAN = 6;

/** How much time to show around a failure: its whole recovery under both policies, with margin. */
function spanAround(log: Log, i: number): number {
  const longest = Math.max(log.syncStallSeconds[i] as number, log.ftStallSeconds[i] as number, 600);
  return longest * 4;
}

const SCOPE_NAMES = ["host", "rack", "job"] as const;

/** The struck host and replica as text: a job-scope failure strikes none in particular. */
const firstOf = (v: number, count: number) =>
  v < 0 ? "all" : `${v.toLocaleString("en-US")}${count > 1 ? ` +${count - 1}` : ""}`;

/** Failure i's two recovery bars, on a scale shared by the row. */
function RecoveryCells({ trace, i, replicas }: { trace: Trace; i: number; replicas: number }) {
  const w = recoveryWaterfall(trace, i, replicas);
  const ft = longestRecovery(w.ft);
  const scale = Math.max(ft ? costSeconds(ft) : 0, costSeconds(w.sync));
  const struck = w.ft.kind === "replicas" ? w.ft.replicas.length : 0;
  const who =
    w.ft.kind === "jobRestart"
      ? "FT-HSDP, job restart"
      : struck > 1 && ft && "replica" in ft
        ? `FT-HSDP, replica ${ft.replica} (the longest of ${struck} struck)`
        : "FT-HSDP";
  return (
    <>
      <td className="recovery-cell">
        <RecoveryBar
          recovery={ft}
          scale={scale}
          who={who}
          restartWord={w.ft.kind === "jobRestart" ? "job restart" : "restart"}
          testId={`recovery-ft-${i}`}
        />
      </td>
      <td className="recovery-cell">
        <RecoveryBar
          recovery={w.sync}
          scale={scale}
          who="Synchronous job"
          restartWord="job restart"
          testId={`recovery-sync-${i}`}
        />
      </td>
    </>
  );
}

export function FailureLog({
  trace,
  replicas,
  causes = [],
}: {
  trace: Trace;
  replicas: number;
  causes?: readonly string[];
}) {
  const log = trace.failures;
  const [scrollTop, setScrollTop] = useState(0);
  const selected = useExplorerStore((s) => s.selectedFailure);
  const n = log.time.length;
  const first = Math.max(0, Math.floor(scrollTop / ROW_H) - OVERSCAN);
  const last = Math.min(n, Math.ceil((scrollTop + VIEW_H) / ROW_H) + OVERSCAN);
  const rows: number[] = [];
  for (let i = first; i < last; i++) rows.push(i);

  if (n === 0) return <p className="muted">No failures in this run: both policies train all the time.</p>;
  return (
    <section
      className="failure-log"
      style={{ maxHeight: VIEW_H + ROW_H }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      data-testid="failure-log"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      aria-label={`Failure log, ${n} failures`}
    >
      <table>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Time (show on timeline)</th>
            <th scope="col">Cause</th>
            <th scope="col">Scope</th>
            <th scope="col">Hosts</th>
            <th scope="col">Replicas</th>
            <th scope="col">Class</th>
            <th scope="col">Detected after</th>
            <th scope="col">Recovery: FT-HSDP</th>
            <th scope="col">Recovery: sync</th>
            <th scope="col">FT-HSDP stall</th>
            <th scope="col">FT-HSDP lost work</th>
            <th scope="col">Sync stall</th>
            <th scope="col">Sync lost work</th>
          </tr>
        </thead>
        <tbody>
          {first > 0 && (
            <tr className="spacer" style={{ height: first * ROW_H }}>
              <td colSpan={14} />
            </tr>
          )}
          {rows.map((i) => (
            <tr key={i} style={{ height: ROW_H }} className={i === selected ? "selected" : undefined}>
              <td>{i + 1}</td>
              <td>
                <button
                  type="button"
                  className="link-button"
                  onClick={() =>
                    explorerStore.getState().focusFailure(i, log.time[i] as number, spanAround(log, i))
                  }
                >
                  {formatClock(log.time[i] as number)}
                </button>
              </td>
              <td>{causes[log.cause[i] as number] ?? "—"}</td>
              <td>{SCOPE_NAMES[log.scope[i] as number] ?? "host"}</td>
              <td title="the first host struck, and how many more">
                {firstOf(log.host[i] as number, log.hostCount[i] as number)}
              </td>
              <td title="the first FT-HSDP replica struck, and how many more">
                {firstOf(log.replica[i] as number, log.replicaCount[i] as number)}
              </td>
              <td>{log.hang[i] ? "hang" : "fail-stop"}</td>
              <td>{duration(log.detectSeconds[i] as number)}</td>
              <RecoveryCells trace={trace} i={i} replicas={replicas} />
              <td>{duration(log.ftStallSeconds[i] as number)}</td>
              <td>{duration(log.ftLostSeconds[i] as number)}</td>
              <td>{duration(log.syncStallSeconds[i] as number)}</td>
              <td>{duration(log.syncLostSeconds[i] as number)}</td>
            </tr>
          ))}
          {last < n && (
            <tr className="spacer" style={{ height: (n - last) * ROW_H }}>
              <td colSpan={14} />
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}
