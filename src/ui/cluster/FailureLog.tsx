/**
 * Every failure of the run, its slow episodes (§6) and the evictions of slow hosts, in time order
 * and filtered by kind (logRows.ts; the filter is `fl=` in the link), virtualised (a 98K-GPU month
 * has thousands): only the rows in view are in the DOM. A row's time button moves the timeline to
 * it. Each failure's row shows its recovery under each selected policy (display order) as stacked
 * bars on one scale (recoveryWaterfall.ts), then each policy's stall and lost work; an eviction is
 * a failure found at once; a slow episode's row says how long and how slow its host was.
 */
import { useMemo, useState } from "react";
import { LOG_KINDS, type LogKind } from "../../link/logKinds.ts";
import { Layout } from "../../sim/failures/failureTrace.ts";
import { policyOf } from "../../sim/policies/index.ts";
import { costSeconds, mainRecovery, recoveryWaterfall } from "../../sim/recovery/recoveryWaterfall.ts";
import { derived } from "../../sim/scenario/derived.ts";
import type { Scenario } from "../../sim/scenario/index.ts";
import type { SlowEpisodes } from "../../sim/slow/slowTypes.ts";
import type { PolicyRecording, Trace } from "../../sim/types.ts";
import { explorerStore, useExplorerStore } from "../../state/explorerStore.ts";
import { count, duration } from "../format.ts";
import { formatClock } from "../timeline/timeAxis.ts";
import { kindCounts, kindOf, logRows } from "./logRows.ts";
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

/** The filter's words for each kind. */
const KIND_WORDS: Record<LogKind, string> = {
  failure: "Failures",
  slow: "Slow episodes",
  eviction: "Evictions",
};

/** Which kinds of row to list, with how many of each the run has. */
function KindFilter({ counts }: { counts: Record<LogKind, number> }) {
  const shown = useExplorerStore((s) => s.logKinds);
  return (
    <fieldset className="log-filter" data-testid="log-filter">
      <legend>Show</legend>
      {LOG_KINDS.map((k) => (
        <label key={k}>
          <input
            type="checkbox"
            checked={shown.includes(k)}
            data-testid={`log-filter-${k}`}
            onChange={(e) =>
              explorerStore
                .getState()
                .setLogKinds(e.target.checked ? [...shown, k] : shown.filter((x) => x !== k))
            }
          />{" "}
          {KIND_WORDS[k]} ({count(counts[k])})
        </label>
      ))}
    </fieldset>
  );
}

/** Shows a slow episode on the timeline: its whole length, with as much again around it. */
function showEpisode(ep: SlowEpisodes, e: number, horizon: number): void {
  const start = ep.start[e]!;
  const end = Math.min(ep.end[e]!, horizon);
  const pad = Math.max(300, (end - start) / 2);
  explorerStore.getState().setWindow([Math.max(0, start - pad), Math.min(horizon, end + pad)]);
}

/** A slow episode's row: its host, how slow and how long, and whether it was evicted. */
function SlowRow({
  ep,
  e,
  layout,
  horizon,
  span,
}: {
  ep: SlowEpisodes;
  e: number;
  layout: Layout;
  horizon: number;
  /** Columns after the class and detection ones. */
  span: number;
}) {
  const start = ep.start[e]!;
  const end = ep.end[e]!;
  const host = ep.host[e]!;
  const length = Math.min(end, horizon) - start;
  // Short, as a row is one line; what slowness does is the cell's title.
  const what = ep.evicted[e]
    ? end < horizon
      ? `Slow ×${ep.factor} for ${duration(length)}, then evicted at ${formatClock(end)}`
      : `Slow ×${ep.factor} for ${duration(length)}, to the run's end (evicted after it)`
    : `Slow ×${ep.factor} for ${duration(length)}${end > horizon ? ", to the run's end" : ""}`;
  return (
    <tr style={{ height: ROW_H }} className="log-slow" data-kind="slow">
      <td title={`slow episode ${e + 1} of ${ep.count}`}>s{e + 1}</td>
      <td>
        <button type="button" className="link-button" onClick={() => showEpisode(ep, e, horizon)}>
          {formatClock(start)}
        </button>
      </td>
      <td>slow host</td>
      <td>host</td>
      <td>{host.toLocaleString("en-US")}</td>
      <td>{layout.replicaOf(host).toLocaleString("en-US")}</td>
      <td>slow ×{ep.factor}</td>
      <td>—</td>
      <td
        colSpan={span}
        className="log-slow-what"
        title="While a host is slow, every step waits for the slowest host (FT-HSDP: for the slowest healthy replica); it stops no one, so it has no recovery, stall or lost work of its own."
      >
        {what}
      </td>
    </tr>
  );
}

export function FailureLog({ trace, scenario }: { trace: Trace; scenario: Scenario }) {
  const log = trace.failures;
  const replicas = scenario.cluster.replicas;
  const causes = scenario.failures.causes.map((c) => c.name);
  const policies = trace.policies.flatMap((key) => {
    const rec = trace.recordings[key];
    return rec ? [{ key, label: policyOf(key).label, rec }] : [];
  });
  const recs = policies.map((p) => p.rec);
  const cols = 8 + 3 * policies.length;
  const [scrollTop, setScrollTop] = useState(0);
  const selected = useExplorerStore((s) => s.selectedFailure);
  const shown = useExplorerStore((s) => s.logKinds);
  const counts = useMemo(() => kindCounts(trace), [trace]);
  const rows = useMemo(() => logRows(trace, shown), [trace, shown]);
  const layout = useMemo(() => new Layout(scenario), [scenario]);
  const horizon = derived(scenario).horizonSeconds;
  // Old scenarios (no slow episodes) list failures only: no filter to show.
  const filterable = counts.slow + counts.eviction > 0;
  const n = rows.n;
  const first = Math.max(0, Math.floor(scrollTop / ROW_H) - OVERSCAN);
  const last = Math.min(n, Math.ceil((scrollTop + VIEW_H) / ROW_H) + OVERSCAN);
  const inView: number[] = [];
  for (let r = first; r < last; r++) inView.push(r);

  if (counts.failure + counts.slow + counts.eviction === 0)
    return <p className="muted">No failures in this run: every policy trains all the time.</p>;
  const listed = LOG_KINDS.filter((k) => shown.includes(k) && counts[k] > 0)
    .map((k) => `${count(counts[k])} ${KIND_WORDS[k].toLowerCase()}`)
    .join(", ");
  return (
    <>
      {filterable ? <KindFilter counts={counts} /> : null}
      {n === 0 ? (
        <p className="muted" data-testid="failure-log-empty">
          No rows of the kinds chosen: tick one above.
        </p>
      ) : (
        <section
          className="failure-log"
          style={{ maxHeight: VIEW_H + ROW_H }}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
          data-testid="failure-log"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
          tabIndex={0}
          aria-label={filterable ? `Failure log, ${listed}` : `Failure log, ${n} failures`}
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
              {inView.map((r) => {
                const kind = kindOf(rows.kind[r]!);
                const i = rows.index[r]!;
                if (kind === "slow" && trace.slow)
                  return (
                    <SlowRow
                      key={`s${i}`}
                      ep={trace.slow}
                      e={i}
                      layout={layout}
                      horizon={horizon}
                      span={cols - 8}
                    />
                  );
                const evicted = kind === "eviction";
                return (
                  <tr
                    key={i}
                    style={{ height: ROW_H }}
                    className={i === selected ? "selected" : undefined}
                    data-kind={kind}
                  >
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
                    <td>{evicted ? "eviction of a slow host" : (causes[log.cause[i] as number] ?? "—")}</td>
                    <td>{SCOPE_NAMES[log.scope[i] as number] ?? "host"}</td>
                    <td title="the first host struck, and how many more">
                      {firstOf(log.host[i] as number, log.hostCount[i] as number)}
                    </td>
                    <td title="the first replica struck (a replica-level policy's), and how many more">
                      {firstOf(log.replica[i] as number, log.replicaCount[i] as number)}
                    </td>
                    <td>{evicted ? "eviction" : log.hang[i] ? "hang" : "fail-stop"}</td>
                    <td>{evicted ? "at once" : duration(log.detectSeconds[i] as number)}</td>
                    <RecoveryCells trace={trace} i={i} replicas={replicas} />
                    {policies.map((p) => [
                      <td key={`s-${p.key}`}>{duration(p.rec.stallPerFailure[i] as number)}</td>,
                      <td key={`l-${p.key}`}>{duration(p.rec.lostPerFailure[i] as number)}</td>,
                    ])}
                  </tr>
                );
              })}
              {last < n && (
                <tr className="spacer" style={{ height: (n - last) * ROW_H }}>
                  <td colSpan={cols} />
                </tr>
              )}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}
