import type { Ceilings } from "../../gpu/ceilings.ts";
import type { Mode } from "../../gpu/executor.ts";
import type { CaseResult } from "../../gpu/runCase.ts";
import { MAX_LINKED_ROWS } from "../../link/labResultsLink.ts";
import type { LabResult } from "../../state/labState.ts";
import { visibleText } from "../visibleText.ts";
import { bytes, formatGBps, time } from "./labFormat.ts";

function Verdict({ r }: { r: CaseResult }) {
  const title = `max |error| ${r.maxAbsError.toExponential(2)}; tolerance there ${r.toleranceAtWorst.toExponential(2)}`;
  return r.verified ? (
    <span className="verdict ok" title={title}>
      ✓ verified
    </span>
  ) : (
    <span className="verdict bad" title={title}>
      ✗ wrong
    </span>
  );
}

export function CeilingsLine({ ceilings }: { ceilings: Partial<Record<Mode, Ceilings>> }) {
  const entries = Object.entries(ceilings) as [Mode, Ceilings][];
  if (entries.length === 0) return null;
  return (
    <p className="lab-ceilings">
      Ceilings measured in this session (bytes read + written per second):{" "}
      {entries.map(([mode, c]) => (
        <span key={mode}>
          <strong>{mode === "cpu" ? "CPU" : "GPU"}</strong> streaming kernel {formatGBps(c.streamingGBps)}{" "}
          (copy {formatGBps(c.streamCopyGBps)}, add {formatGBps(c.streamAddGBps)}),{" "}
          {mode === "cpu" ? "memcpy" : "copyBufferToBuffer"} {formatGBps(c.copyBufferGBps)}.{" "}
        </span>
      ))}
    </p>
  );
}

export function ResultsTable({ results }: { results: LabResult[] }) {
  if (results.length === 0) return <p className="lab-empty">No runs yet: pick a collective and press Run.</p>;
  const elsewhere = [...new Set(results.flatMap((r) => (r.from === null ? [] : [visibleText(r.from)])))];
  return (
    <div className="lab-table-wrap">
      {results.length > MAX_LINKED_ROWS && (
        <p className="lab-note">
          The link carries the latest {MAX_LINKED_ROWS} of these {results.length} rows.
        </p>
      )}
      {elsewhere.length > 0 && (
        <p className="lab-note" data-testid="results-from-link">
          † Came with the link: measured on {elsewhere.join(", ")} by whoever made it, not on this machine.
          Run adds this machine&apos;s.
        </p>
      )}
      <table className="lab-table" aria-label="Results">
        <thead>
          <tr>
            <th>Mode</th>
            <th>Algorithm</th>
            <th>Devices</th>
            <th>Size / device</th>
            <th>Time</th>
            <th>algbw</th>
            <th>busbw</th>
            <th>Efficiency</th>
            <th>Result</th>
          </tr>
        </thead>
        <tbody>
          {[...results].reverse().map((r) => (
            <tr key={r.id} className={r.verified ? "" : "bad"}>
              <td>{r.mode}</td>
              <td>{r.algorithm}</td>
              <td className="num">{r.devices}</td>
              <td className="num">{bytes(r.bytesPerDevice)}</td>
              <td className="num" title={`${r.timer}, median of ${r.reps}`}>
                {time(r.seconds)}
              </td>
              <td className="num">{formatGBps(r.algbw)}</td>
              <td className="num">{formatGBps(r.busbw)}</td>
              <td className="num">{(r.efficiency * 100).toFixed(0)}%</td>
              <td>
                <Verdict r={r} />
                {r.from !== null && (
                  <span className="from-link" title={`measured on ${visibleText(r.from)}, not here`}>
                    {" "}
                    †
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
