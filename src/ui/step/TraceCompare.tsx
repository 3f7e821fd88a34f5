/**
 * "Compare with…": a second trace set (test) beside the Trace panel's open traces (control),
 * compared in the trace worker rank by rank and step by step (docs/trace.md, "Comparing two
 * trace sets"): the sentence saying what explains most of the change, each rank's change split
 * into its parts, the kernels added, deleted, increased and decreased, and one step of each set
 * on one time axis. Reading and comparing report progress and stop on Cancel; a cancelled or
 * failed comparison leaves both sets open and the control's figures as they were.
 */
import { proxy } from "comlink";
import { useEffect, useRef, useState } from "react";
import { traceWorker } from "../../state/traceClient.ts";
import type { AlignedStep } from "../../step/trace/diffTimeline.ts";
import { OP_BUCKETS } from "../../step/trace/opsDiff.ts";
import { PART_NAME, type Part, type StepSplit } from "../../step/trace/stepSplit.ts";
import type { CompareView } from "../../worker/traceCompareApi.ts";
import { CompareGantt } from "./CompareGantt.tsx";
import { ms } from "./units.ts";

interface TestFile {
  ticket: number;
  name: string;
  state: "reading" | "open" | "failed";
  done: number;
  total: number;
  error?: string;
}

type Job =
  | { state: "idle" }
  | { state: "running"; ticket: number; done: number; total: number; what: string }
  | { state: "cancelled" }
  | { state: "failed"; error: string }
  | { state: "done"; ticket: number; view: CompareView };

const signedMs = (x: number) => (Math.abs(x) < 5e-7 ? "±0" : `${x > 0 ? "+" : "−"}${ms(Math.abs(x))}`);
const pct = (x: number | null) => (x === null ? "—" : `${x.toFixed(1)} %`);
const PARTS: readonly Part[] = ["computeMs", "exposedCommMs", "memoryMs", "idleMs"];
const overlap = (s: StepSplit) => (s.commMs > 0 ? (100 * s.overlapMs) / s.commMs : null);

export function TraceCompare({ controlIds, allSteps }: { controlIds: readonly number[]; allSteps: boolean }) {
  const [tests, setTests] = useState<TestFile[]>([]);
  const [job, setJob] = useState<Job>({ state: "idle" });
  /** After a cancel, nothing reruns until the person opens more test traces or asks again. */
  const [paused, setPaused] = useState(false);
  const testsRef = useRef(tests);
  testsRef.current = tests;
  const controlKey = controlIds.join(",");
  const reading = tests.filter((f) => f.state === "reading");
  const testKey = tests
    .filter((f) => f.state === "open")
    .map((f) => f.ticket)
    .join(",");

  // On leaving the view, the test traces and the last comparison are let go.
  useEffect(
    () => () => {
      for (const f of testsRef.current)
        if (f.state === "reading") void traceWorker().traceCancel(f.ticket);
        else if (f.state === "open") void traceWorker().traceClose(f.ticket);
    },
    [],
  );

  useEffect(() => {
    if (paused) return;
    if (controlKey === "" || testKey === "" || reading.length > 0) {
      if (controlKey === "" || testKey === "") setJob({ state: "idle" });
      return;
    }
    let live = true;
    let answered = false;
    let ticket = -1;
    const api = traceWorker();
    void (async () => {
      ticket = await api.traceTicket();
      if (!live) return;
      setJob({ state: "running", ticket, done: 0, total: 1, what: "starting" });
      const r = await api.traceCompare(
        ticket,
        controlKey.split(",").map(Number),
        testKey.split(",").map(Number),
        allSteps,
        // Progress comes on its own channel and may arrive after the reply: once the reply is in,
        // a late progress report is dropped.
        proxy((done: number, total: number, what: string) => {
          if (live && !answered) setJob({ state: "running", ticket, done, total, what });
        }),
      );
      answered = true;
      if (!live) return;
      if (r.ok) setJob({ state: "done", ticket: r.ticket, view: r.view });
      else if (r.cancelled) setJob({ state: "cancelled" });
      else setJob({ state: "failed", error: r.error });
    })();
    return () => {
      live = false;
      if (ticket >= 0) {
        void api.traceCompareCancel(ticket);
        void api.traceCompareRelease(ticket);
      }
    };
  }, [controlKey, testKey, reading.length, paused, allSteps]);

  const patch = (ticket: number, p: Partial<TestFile>) =>
    setTests((fs) => fs.map((f) => (f.ticket === ticket ? { ...f, ...p } : f)));

  async function open(list: FileList | null) {
    if (list === null) return;
    const api = traceWorker();
    setPaused(false);
    for (const file of Array.from(list)) {
      const ticket = await api.traceTicket();
      setTests((fs) => [...fs, { ticket, name: file.name, state: "reading", done: 0, total: file.size }]);
      void api
        .traceOpen(
          ticket,
          file,
          file.name,
          proxy((done: number, total: number) => patch(ticket, { done, total })),
        )
        .then((r) => patch(ticket, r.ok ? { state: "open" } : { state: "failed", error: r.error }));
    }
  }

  function close(f: TestFile) {
    if (f.state === "reading") void traceWorker().traceCancel(f.ticket);
    else if (f.state === "open") void traceWorker().traceClose(f.ticket);
    setTests((fs) => fs.filter((x) => x.ticket !== f.ticket));
  }

  /** Stops the reading and the comparing; what was open stays open. */
  function cancel() {
    for (const f of reading) close(f);
    if (job.state === "running") void traceWorker().traceCompareCancel(job.ticket);
    setPaused(true);
    setJob({ state: "cancelled" });
  }

  const readDone = reading.reduce((t, f) => t + f.done, 0);
  const readTotal = reading.reduce((t, f) => t + f.total, 0);
  const busy = reading.length > 0 || job.state === "running";

  return (
    <section className="trace-compare" aria-label="Compare trace sets">
      <div className="step-section-head">
        <h4>Compare with a second trace set</h4>
        <span className="muted step-small">
          The traces above are the control; open the test set (one file per rank) to see what changed, rank by
          rank and step by step.
        </span>
      </div>
      <label className="trace-open">
        Compare with…
        <input
          type="file"
          multiple
          accept=".json,.gz,application/json,application/gzip"
          aria-label="Open test trace files"
          disabled={controlIds.length === 0}
          onChange={(e) => {
            void open(e.currentTarget.files);
            e.currentTarget.value = "";
          }}
        />
      </label>
      {controlIds.length === 0 && <p className="muted step-small">Open the control traces above first.</p>}
      {tests.length > 0 && (
        <ul className="trace-files" aria-label="Test traces">
          {tests.map((f) => (
            <li key={f.ticket} data-state={f.state}>
              <span className="trace-file-name">test: {f.name}</span>
              {f.state === "failed" && (
                <span className="trace-error" role="alert">
                  {f.error}
                </span>
              )}
              {f.state !== "reading" && (
                <button type="button" className="secondary" onClick={() => close(f)}>
                  Close
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {busy && (
        <div className="compare-progress" data-testid="compare-progress">
          {reading.length > 0 ? (
            <>
              <span className="step-small">
                Reading {reading.length} test trace{reading.length === 1 ? "" : "s"}…
              </span>
              <progress value={readDone} max={Math.max(1, readTotal)} aria-label="Reading the test traces" />
            </>
          ) : job.state === "running" ? (
            <>
              <span className="step-small">Comparing: {job.what}…</span>
              <progress value={job.done} max={Math.max(1, job.total)} aria-label="Comparing the trace sets" />
            </>
          ) : null}
          <button type="button" className="secondary" onClick={cancel}>
            Cancel the comparison
          </button>
        </div>
      )}
      {job.state === "cancelled" && (
        <p className="step-small" data-testid="compare-cancelled">
          Comparison cancelled; the control traces{testKey === "" ? "" : " and the test traces read so far"}{" "}
          stay open.{" "}
          {testKey !== "" && (
            <button type="button" className="secondary" onClick={() => setPaused(false)}>
              Compare again
            </button>
          )}
        </p>
      )}
      {job.state === "failed" && (
        <p className="trace-error" role="alert">
          The comparison failed: {job.error}
        </p>
      )}
      {job.state === "done" && <CompareFigures view={job.view} ticket={job.ticket} />}
    </section>
  );
}

function PartCells({ delta, main }: { delta: StepSplit; main: Part }) {
  return (
    <>
      {PARTS.map((p) => (
        <td key={p} className={p === main ? "compare-main" : undefined}>
          {signedMs(delta[p])}
        </td>
      ))}
    </>
  );
}

function CompareFigures({ view, ticket }: { view: CompareView; ticket: number }) {
  const [pick, setPick] = useState<{ rank: number; index: number } | null>(null);
  const [aligned, setAligned] = useState<AlignedStep | null>(view.aligned);
  useEffect(() => {
    if (pick === null) {
      setAligned(view.aligned);
      return;
    }
    let live = true;
    void traceWorker()
      .traceCompareStep(ticket, pick.rank, pick.index)
      .then((a) => {
        if (live) setAligned(a);
      });
    return () => {
      live = false;
    };
  }, [pick, ticket, view]);
  const rank = view.ranks.find((r) => r.rank === (pick?.rank ?? aligned?.rank)) ?? view.ranks[0];
  return (
    <>
      <p className="trace-verdict" data-testid="compare-sentence">
        {view.sentence}
      </p>
      <div className="trace-table-wrap">
        <table className="trace-table compare-table" data-testid="compare-table">
          <thead>
            <tr>
              <th>rank</th>
              <th>steps</th>
              <th>step time, control → test</th>
              <th>change</th>
              {PARTS.map((p) => (
                <th key={p}>{PART_NAME[p]}</th>
              ))}
              <th>hidden (overlap)</th>
            </tr>
          </thead>
          <tbody>
            {view.ranks.map((r) => (
              <tr key={r.rank} data-rank={r.rank}>
                <td>{r.rank}</td>
                <td>{r.stepCount}</td>
                <td>
                  {ms(r.control.stepMs)} → {ms(r.test.stepMs)}
                </td>
                <td>{signedMs(r.delta.stepMs)}</td>
                <PartCells delta={r.delta} main={r.main} />
                <td>
                  {pct(r.controlOverlapPct)} → {pct(r.testOverlapPct)}
                </td>
              </tr>
            ))}
            <tr className="trace-rank-total" data-rank="all">
              <td>all</td>
              <td>{view.pairs}</td>
              <td>
                {ms(view.control.stepMs)} → {ms(view.test.stepMs)}
              </td>
              <td>{signedMs(view.delta.stepMs)}</td>
              <PartCells delta={view.delta} main={view.main} />
              <td>
                {pct(overlap(view.control))} → {pct(overlap(view.test))}
              </td>
            </tr>
          </tbody>
        </table>
      </div>
      <p className="muted step-small">
        Each change is test − control, per step, the mean over the matched steps; computation, exposed
        communication, memory copies and idle add up to the step time's change (the part that explains most of
        it is marked).
      </p>
      {rank !== undefined && rank.steps.length > 0 && (
        <div className="compare-pick step-small">
          <label>
            rank{" "}
            <select
              value={rank.rank}
              onChange={(e) => setPick({ rank: Number(e.currentTarget.value), index: 0 })}
              aria-label="Rank to draw"
            >
              {view.ranks.map((r) => (
                <option key={r.rank} value={r.rank}>
                  {r.rank}
                </option>
              ))}
            </select>
          </label>{" "}
          <label>
            step{" "}
            <select
              value={Math.min(pick?.index ?? 0, rank.steps.length - 1)}
              onChange={(e) => setPick({ rank: rank.rank, index: Number(e.currentTarget.value) })}
              aria-label="Step to draw"
            >
              {rank.steps.map((s) => (
                <option key={s.index} value={s.index}>
                  {s.controlName} → {s.testName} ({signedMs(s.delta.stepMs)})
                </option>
              ))}
            </select>
          </label>
          {rank.stepCount > rank.steps.length &&
            ` (the first ${rank.steps.length} of ${rank.stepCount} steps)`}
        </div>
      )}
      {aligned !== null && <CompareGantt aligned={aligned} />}
      <OpsTable view={view} />
      {(view.notes.length > 0 || view.ranks.some((r) => r.notes.length > 0)) && (
        <ul className="muted step-small trace-notes">
          {view.ranks.flatMap((r) =>
            r.notes.map((n) => (
              <li key={`${r.rank}:${n}`}>
                rank {r.rank}: {n}
              </li>
            )),
          )}
          {view.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Rows of the ops table drawn; the worker sends the largest changes first. */
const OPS_SHOWN = 15;

function OpsTable({ view }: { view: CompareView }) {
  const rows = view.ops.slice(0, OPS_SHOWN);
  return (
    <div className="compare-ops">
      <p className="step-small" data-testid="compare-buckets">
        Kernels and ops, as HTA's TraceDiff sorts them by count:{" "}
        {OP_BUCKETS.map((b) => `${view.buckets[b]} ${b}`).join(", ")}.{" "}
        {rows.length < view.opCount
          ? `The ${rows.length} of ${view.opCount} names whose total time changed most:`
          : "Every name, the largest change in total time first:"}
      </p>
      <div className="trace-table-wrap">
        <table className="trace-table compare-ops-table" data-testid="compare-ops">
          <thead>
            <tr>
              <th>change</th>
              <th>name</th>
              <th>count, control → test</th>
              <th>total time, control → test</th>
              <th>difference</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((o) => (
              <tr key={o.key} data-bucket={o.bucket}>
                <td>{o.bucket}</td>
                <td className="compare-op-name" title={o.variants.join("\n")}>
                  {o.label}
                </td>
                <td>
                  {o.control.count} → {o.test.count}
                </td>
                <td>
                  {ms(o.control.us / 1e3)} → {ms(o.test.us / 1e3)}
                </td>
                <td>{signedMs(o.diffUs / 1e3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
