/**
 * Every failure of the run, virtualised (a 98K-GPU month has thousands): only the rows in view
 * are in the DOM. A row's time button moves the timeline to that failure. Each row shows the
 * failure's recovery under each selected policy (display order) as stacked bars on one scale
 * (recoveryWaterfall.ts), then each policy's stall and lost work.
 */
import { useState } from "react";
import { policyOf } from "../../sim/policies.ts";
import { costSeconds, mainRecovery, recoveryWaterfall } from "../../sim/recoveryWaterfall.ts";
import type { PolicyRecording, Trace } from "../../sim/types.ts";
import { explorerStore, useExplorerStore } from "../../state/explorerStore.ts";
import { duration } from "../format.ts";
import { formatClock } from "../timeline/timeAxis.ts";
import { RecoveryBar } from "./RecoveryBar.tsx";

const ROW_H = 30;
const VIEW_H = 300;
const OVERSCAN = 6;

/** How much time to show around a failure: its whole recovery under every policy, with margin. */
function spanAround(recs: readonly PolicyRecording[], i: number): number {
  let longest = 600;
  for (const r of recs) longest = Math.max(longest, r.stallPerFailure[i] as number);
  return longest * 4;
}

const SCOPE_NAMES = ["host", "rack", "job"] as const;

/** The struck host and replica as text: a job-scope failure strikes none in particular. */
const firstOf = (v: number, count: number) =>
  v < 0 ? "all" : `${v.toLocaleString("en-US")}${count > 1 ? ` +${count - 1}` : ""}`;

/** Failure i's recovery bars, one per selected policy, on a scale shared by the row. */
function RecoveryCells({ trace, i, replicas }: { trace: Trace; i: number; replicas: number }) {
  const w = recoveryWaterfall(trace, i, replicas);
  let scale = 0;
  for (const p of w.policies) {
    const r = mainRecovery(p.recovery);
    if (r) scale = Math.max(scale, costSeconds(r));
  }
  return (
    <>
      {w.policies.map(({ key, recovery }) => {
        const label = policyOf(key).label;
        const r = mainRecovery(recovery);
        const struck = recovery.kind === "replicas" ? recovery.replicas.length : 0;
        const who =
          recovery.kind === "wholeJob"
            ? `${label} job`
            : recovery.kind === "jobRestart"
              ? `${label}, job restart`
              : struck > 1 && r && "replica" in r
                ? `${label}, replica ${r.replica} (the longest of ${struck} struck)`
                : label;
        return (
          <td className="recovery-cell" key={key}>
            <RecoveryBar
              recovery={r}
              scale={scale}
              who={who}
              restartWord={recovery.kind === "replicas" ? "restart" : "job restart"}
              testId={`recovery-${key}-${i}`}
            />
          </td>
        );
      })}
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
  const policies = trace.policies.flatMap((key) => {
    const rec = trace.recordings[key];
    return rec ? [{ key, label: policyOf(key).label, rec }] : [];
  });
  const recs = policies.map((p) => p.rec);
  const cols = 8 + 3 * policies.length;
  const [scrollTop, setScrollTop] = useState(0);
  const selected = useExplorerStore((s) => s.selectedFailure);
  const n = log.time.length;
  const first = Math.max(0, Math.floor(scrollTop / ROW_H) - OVERSCAN);
  const last = Math.min(n, Math.ceil((scrollTop + VIEW_H) / ROW_H) + OVERSCAN);
  const rows: number[] = [];
  for (let i = first; i < last; i++) rows.push(i);

  if (n === 0) return <p className="muted">No failures in this run: every policy trains all the time.</p>;
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
            {policies.map((p) => (
              <th scope="col" key={`r-${p.key}`}>
                Recovery: {p.label}
              </th>
            ))}
            {policies.map((p) => [
              <th scope="col" key={`s-${p.key}`}>
                {p.label} stall
              </th>,
              <th scope="col" key={`l-${p.key}`}>
                {p.label} lost work
              </th>,
            ])}
          </tr>
        </thead>
        <tbody>
          {first > 0 && (
            <tr className="spacer" style={{ height: first * ROW_H }}>
              <td colSpan={cols} />
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
                    explorerStore.getState().focusFailure(i, log.time[i] as number, spanAround(recs, i))
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
              <td title="the first replica struck (a replica-level policy's), and how many more">
                {firstOf(log.replica[i] as number, log.replicaCount[i] as number)}
              </td>
              <td>{log.hang[i] ? "hang" : "fail-stop"}</td>
              <td>{duration(log.detectSeconds[i] as number)}</td>
              <RecoveryCells trace={trace} i={i} replicas={replicas} />
              {policies.map((p) => [
                <td key={`s-${p.key}`}>{duration(p.rec.stallPerFailure[i] as number)}</td>,
                <td key={`l-${p.key}`}>{duration(p.rec.lostPerFailure[i] as number)}</td>,
              ])}
            </tr>
          ))}
          {last < n && (
            <tr className="spacer" style={{ height: (n - last) * ROW_H }}>
              <td colSpan={cols} />
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}
