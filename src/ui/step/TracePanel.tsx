/**
 * The Trace panel: open one PyTorch profiler trace per rank, see each step's communication and
 * how much of it computation hides (as Holistic Trace Analysis measures it), and the step model
 * beside one measured step, with the α–β link fitted to the trace's own all-reduces.
 * Reading and measuring happen in the trace worker; a file that fails says why in place.
 * "Open traces…" replaces the open files once one of the new ones has been read (until then, and
 * if every new one fails, the traces open before stay); "Add traces…" adds to them.
 */
import { proxy } from "comlink";
import { useEffect, useState } from "react";
import { useStepStore } from "../../state/stepStore.ts";
import { traceWorker } from "../../state/traceClient.ts";
import { setFittedLink } from "../../state/traceFit.ts";
import type { Link } from "../../step/collectiveCost.ts";
import type { TraceView } from "../../worker/traceApi.ts";
import { Panel } from "../boundary/Panel.tsx";
import { TraceCompare } from "./TraceCompare.tsx";
import { TraceFigures } from "./TraceFigures.tsx";
import "./trace.css";

interface OpenFile {
  ticket: number;
  /** The selection it came in: a new "Open traces…" selection replaces the shown one. */
  batch: number;
  name: string;
  state: "reading" | "open" | "failed";
  done: number;
  total: number;
  error?: string;
}

/** The link the step model's all-reduce runs on: across nodes unless the job is one node. */
function activeLink(parallel: { mode: string; replicas: number }): "intraLink" | "interLink" {
  return parallel.mode === "ddp" && parallel.replicas <= 1 ? "intraLink" : "interLink";
}

let batches = 0;

export function TracePanel() {
  const [files, setFiles] = useState<OpenFile[]>([]);
  const [shown, setShown] = useState(0);
  const [allSteps, setAllSteps] = useState(false);
  const [stepIndex, setStepIndex] = useState(0);
  const [rank, setRank] = useState<number | null>(null);
  const [borrow, setBorrow] = useState(false);
  const [view, setView] = useState<TraceView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const parallel = useStepStore((s) => s.config.parallel);
  const setLink = useStepStore((s) => s.setLink);
  const result = useStepStore((s) => s.result);
  const modelName = useStepStore((s) => s.model?.name ?? null);
  const which = activeLink(parallel);
  const link: Link = parallel[which];
  // The model's bucket sizes, in all-reduce order, when the page holds every bucket.
  const sizes =
    result !== null && result.buckets.length === result.bucketCount
      ? result.buckets.map((b) => b.bytes)
      : null;
  const sizesKey = borrow && sizes !== null ? sizes.join(",") : "";
  const openFiles = files.filter((f) => f.batch === shown && f.state === "open");
  const openIds = openFiles.map((f) => f.ticket);
  const openKey = openIds.join(",");

  // A new selection, once read, replaces the one shown (unless every file in it failed).
  useEffect(() => {
    const latest = files.reduce((m, f) => Math.max(m, f.batch), 0);
    if (latest <= shown) return;
    const mine = files.filter((f) => f.batch === latest);
    if (mine.some((f) => f.state === "reading") || !mine.some((f) => f.state === "open")) return;
    const api = traceWorker();
    for (const f of files) {
      if (f.batch === latest) continue;
      if (f.state === "open") void api.traceClose(f.ticket);
      else if (f.state === "reading") void api.traceCancel(f.ticket);
    }
    setFiles((fs) => fs.filter((f) => f.batch === latest));
    setShown(latest);
    setRank(null);
    setStepIndex(0);
  }, [files, shown]);

  useEffect(() => {
    const ids = openKey === "" ? [] : openKey.split(",").map(Number);
    if (ids.length === 0) {
      setView(null);
      setProblem(null);
      return;
    }
    let live = true;
    const borrowed = sizesKey === "" ? undefined : sizesKey.split(",").map(Number);
    void traceWorker()
      .traceMeasure(ids, allSteps, stepIndex, link, {
        ...(rank === null ? {} : { rank }),
        ...(borrowed === undefined ? {} : { borrow: borrowed }),
      })
      .then((r) => {
        if (!live) return;
        if (r.ok) {
          setView(r.view);
          setProblem(null);
        } else {
          setView(null);
          setProblem(r.error);
        }
      });
    return () => {
      live = false;
    };
  }, [openKey, allSteps, stepIndex, link, rank, sizesKey]);

  const patch = (ticket: number, p: Partial<OpenFile>) =>
    setFiles((fs) => fs.map((f) => (f.ticket === ticket ? { ...f, ...p } : f)));

  async function open(list: FileList | null, add: boolean) {
    if (list === null || list.length === 0) return;
    const api = traceWorker();
    const batch = add && shown > 0 ? shown : ++batches;
    // Files that failed in an earlier selection are not kept once another is made.
    setFiles((fs) => fs.filter((f) => f.state !== "failed" || f.batch === batch));
    for (const file of Array.from(list)) {
      const ticket = await api.traceTicket();
      setFiles((fs) => [
        ...fs,
        { ticket, batch, name: file.name, state: "reading", done: 0, total: file.size },
      ]);
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

  function close(f: OpenFile) {
    if (f.state === "reading") void traceWorker().traceCancel(f.ticket);
    else if (f.state === "open") void traceWorker().traceClose(f.ticket);
    setFiles((fs) => fs.filter((x) => x.ticket !== f.ticket));
  }

  const picker = (add: boolean) => (
    <label className="trace-open">
      {add ? "Add traces…" : "Open traces…"}
      <input
        type="file"
        multiple
        accept=".json,.gz,application/json,application/gzip"
        aria-label={add ? "Add trace files" : "Open trace files"}
        onChange={(e) => {
          void open(e.currentTarget.files, add);
          e.currentTarget.value = "";
        }}
      />
    </label>
  );

  return (
    <Panel what="The trace panel" className="panel trace-panel" aria-label="Trace">
      <div className="step-section-head">
        <h3>Trace: measure your own step</h3>
        <span className="muted step-small">
          PyTorch profiler traces (Kineto .json or .json.gz, one per rank), measured as Holistic Trace
          Analysis does
        </span>
      </div>
      <div className="trace-controls">
        {picker(false)}
        {openFiles.length > 0 && picker(true)}
        <label>
          <input type="checkbox" checked={allSteps} onChange={(e) => setAllSteps(e.currentTarget.checked)} />{" "}
          Keep the last step (HTA drops it)
        </label>
      </div>
      {files.length > 0 && (
        <ul className="trace-files">
          {files.map((f) => (
            <li key={f.ticket} data-state={f.state}>
              <span className="trace-file-name">{f.name}</span>
              {f.state === "reading" && (
                <progress value={f.done} max={Math.max(1, f.total)} aria-label={`Reading ${f.name}`} />
              )}
              {f.state === "open" && f.batch !== shown && <span className="muted step-small">read</span>}
              {f.state === "failed" && (
                <span className="trace-error" role="alert">
                  {f.error}
                  {f.batch !== shown && shown > 0 ? " (the traces open before stay open)" : ""}
                </span>
              )}
              <button type="button" className="secondary" onClick={() => close(f)}>
                {f.state === "reading" ? "Cancel" : "Close"}
              </button>
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p className="trace-error" role="alert">
          {problem}
        </p>
      )}
      {view && (
        <TraceFigures
          view={view}
          stepIndex={stepIndex}
          onStep={setStepIndex}
          onRank={(r) => {
            setRank(r);
            setStepIndex(0);
          }}
          onUseFit={(a, b) => {
            setLink(which, { alpha: a, bandwidth: b });
            setFittedLink({ which, alpha: a, bandwidth: b, files: openFiles.map((f) => f.name) });
          }}
          link={link}
          borrow={{
            on: borrow,
            set: setBorrow,
            modelName,
            buckets: sizes?.length ?? null,
          }}
        />
      )}
      <TraceCompare controlIds={openIds} allSteps={allSteps} />
    </Panel>
  );
}
