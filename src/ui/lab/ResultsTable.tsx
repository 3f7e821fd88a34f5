import type { Ceilings } from "../../gpu/ceilings.ts";
import type { Mode } from "../../gpu/executor.ts";
import type { CaseResult } from "../../gpu/runCase.ts";
import { MAX_LINKED_ROWS } from "../../link/labResultsLink.ts";
import type { LabResult } from "../../state/labState.ts";
import { visibleText } from "../visibleText.ts";
import { BANDWIDTH_UNITS, columnUnit, SIZE_UNITS, TIME_UNITS } from "./columnUnit.ts";
import { formatGBps } from "./labFormat.ts";

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
  // One unit a column, in its header, chosen from the rows shown.
  const size = columnUnit(
    results.map((r) => r.bytesPerDevice),
    SIZE_UNITS,
  );
  const time = columnUnit(
    results.map((r) => r.seconds),
    TIME_UNITS,
  );
  const algbw = columnUnit(
    results.map((r) => r.algbw),
    BANDWIDTH_UNITS,
  );
  const busbw = columnUnit(
    results.map((r) => r.busbw),
    BANDWIDTH_UNITS,
  );
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
            <th className="num">Devices</th>
            <th className="num">Size / device ({size.unit})</th>
            <th className="num">Time ({time.unit})</th>
            <th className="num">algbw ({algbw.unit})</th>
            <th className="num">busbw ({busbw.unit})</th>
            <th className="num">Efficiency</th>
            <th>Result</th>
          </tr>
        </thead>
        <tbody>
          {[...results].reverse().map((r) => (
            <tr key={r.id} className={r.verified ? "" : "bad"}>
              <td data-label="Mode">{r.mode}</td>
              <td data-label="Algorithm">{r.algorithm}</td>
              <td className="num" data-label="Devices">
                {r.devices}
              </td>
              <td className="num" data-label={`Size / device (${size.unit})`}>
                {size.format(r.bytesPerDevice)}
              </td>
              <td
                className="num"
                data-label={`Time (${time.unit})`}
                title={`${r.timer}, median of ${r.reps}`}
              >
                {time.format(r.seconds)}
              </td>
              <td className="num" data-label={`algbw (${algbw.unit})`}>
                {algbw.format(r.algbw)}
              </td>
              <td className="num" data-label={`busbw (${busbw.unit})`}>
                {busbw.format(r.busbw)}
              </td>
              <td className="num" data-label="Efficiency">
                {(r.efficiency * 100).toFixed(0)}%
              </td>
              <td data-label="Result">
                {/* One item, so a narrow screen's card keeps the mark beside its verdict. */}
                <span>
                  <Verdict r={r} />
                  {r.from !== null && (
                    <span className="from-link" title={`measured on ${visibleText(r.from)}, not here`}>
                      {" "}
                      †
                    </span>
                  )}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
