/**
 * Every failure of the run, virtualised (a 98K-GPU month has thousands): only the rows in view
 * are in the DOM. A row's time button moves the timeline to that failure.
 */
import { useState } from "react";
import type { FailureLog as Log } from "../../sim/types.ts";
import { explorerStore, useExplorerStore } from "../../state/explorerStore.ts";
import { duration } from "../format.ts";
import { formatClock } from "./timeAxis.ts";

const ROW_H = 30;
const VIEW_H = 300;
const OVERSCAN = 6;

/** How much time to show around a failure: its whole recovery under both policies, with margin. */
function spanAround(log: Log, i: number): number {
  const longest = Math.max(log.syncStallSeconds[i] as number, log.ftStallSeconds[i] as number, 600);
  return longest * 4;
}

export function FailureLog({ log }: { log: Log }) {
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
            <th scope="col">Host</th>
            <th scope="col">Replica</th>
            <th scope="col">Class</th>
            <th scope="col">Detected after</th>
            <th scope="col">FT-HSDP stall</th>
            <th scope="col">Sync stall</th>
            <th scope="col">Sync lost work</th>
          </tr>
        </thead>
        <tbody>
          {first > 0 && (
            <tr className="spacer" style={{ height: first * ROW_H }}>
              <td colSpan={9} />
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
              <td>{(log.host[i] as number).toLocaleString("en-US")}</td>
              <td>{log.replica[i]}</td>
              <td>{log.hang[i] ? "hang" : "fail-stop"}</td>
              <td>{duration(log.detectSeconds[i] as number)}</td>
              <td>{duration(log.ftStallSeconds[i] as number)}</td>
              <td>{duration(log.syncStallSeconds[i] as number)}</td>
              <td>{duration(log.syncLostSeconds[i] as number)}</td>
            </tr>
          ))}
          {last < n && (
            <tr className="spacer" style={{ height: (n - last) * ROW_H }}>
              <td colSpan={9} />
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}
