/**
 * "Compare with…": a second scenario beside the one on screen. It comes from a pasted Cluster link,
 * a scenario file, or the scenario on screen pinned before editing it; it becomes the pinned
 * baseline (mcStore.ts), so the page's link (s= and base=) reopens the same comparison. The panel
 * lists every field that differs (baseline → this, scenarioDiff.ts) and, per selected strategy,
 * both ETTR bands and their difference with its error: the numbers the cards show (bandPair.ts);
 * and each badput category's share both ways, its difference with its error found the same way.
 * A refused link or file is named and changes nothing.
 */
import { useState } from "react";
import { decodeScenarioLink } from "../../link/scenarioLink.ts";
import { policyOf } from "../../sim/policies/index.ts";
import { parseScenario, type Scenario } from "../../sim/scenario/index.ts";
import { scenarioDiff } from "../../sim/scenario/scenarioDiff.ts";
import { mcStore, useMcStore } from "../../state/mcStore.ts";
import { useAppStore } from "../../state/store.ts";
import { Panel } from "../boundary/Panel.tsx";
import { type BadputCell, badputBasis, badputPairs, sharedPolicies, shareParts } from "./badputPairs.ts";
import { SEGMENT_TEXT } from "./badputWords.ts";
import { bandPair } from "./bandPair.ts";
import { deltaText } from "./deltaWords.ts";
import { ciText, deltaBasis } from "./McBand.tsx";
import "./compare.css";

/** The largest scenario file read: a scenario with the longest replayed log fits well inside. */
export const MAX_COMPARE_FILE_BYTES = 4 * 1024 * 1024;

/** The scenario a pasted link carries, or an Error that says why it cannot be used. */
export function scenarioFromLink(text: string): Scenario | Error {
  try {
    const s = decodeScenarioLink(text);
    return s ?? new Error("The link carries no scenario (no s=): paste a Cluster view's link.");
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** The scenario a file holds (JSON, as the CLI and the share bar write it), or an Error naming the problem. */
export function scenarioFromFile(text: string, bytes: number): Scenario | Error {
  if (bytes > MAX_COMPARE_FILE_BYTES)
    return new Error(
      `The file is ${bytes.toLocaleString("en-US")} bytes; a scenario file is at most ${MAX_COMPARE_FILE_BYTES.toLocaleString("en-US")}.`,
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return new Error(`The file is not JSON: ${(e as Error).message}`);
  }
  try {
    return parseScenario(json);
  } catch (e) {
    return new Error(`The file's scenario was refused: ${(e as Error).message}`);
  }
}

function setBaseline(s: Scenario | Error, setError: (e: string | null) => void): void {
  if (s instanceof Error) {
    setError(s.message);
    return;
  }
  setError(null);
  mcStore.setState({ baseline: s });
}

function Differences({ baseline, scenario }: { baseline: Scenario; scenario: Scenario }) {
  const diffs = scenarioDiff(baseline, scenario);
  if (diffs.length === 0)
    return (
      <p data-testid="compare-nodiff">
        No field differs yet: edit the knobs and the differences appear here.
      </p>
    );
  return (
    <table className="compare-diff" data-testid="compare-diff">
      <caption>
        {diffs.length === 1 ? "1 field differs" : `${diffs.length} fields differ`} (baseline → this)
      </caption>
      <thead>
        <tr>
          <th scope="col">Knob</th>
          <th scope="col">Baseline</th>
          <td />
          <th scope="col">This scenario</th>
        </tr>
      </thead>
      <tbody>
        {diffs.map((d) => (
          <tr key={d.path} data-path={d.path}>
            <th scope="row">
              {d.label}
              {d.unit ? ` (${d.unit})` : ""}
            </th>
            <td className="compare-from">{d.from}</td>
            <td aria-hidden="true">→</td>
            <td className="compare-to">{d.to}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EttrTable({ baseline, scenario }: { baseline: Scenario; scenario: Scenario }) {
  const current = useMcStore((s) => s.current);
  const base = useMcStore((s) => s.base);
  return (
    <table className="compare-ettr" data-testid="compare-ettr">
      <caption>ETTR, Monte Carlo mean ± 95% half-width</caption>
      <thead>
        <tr>
          <th scope="col">Strategy</th>
          <th scope="col">Baseline</th>
          <th scope="col">This scenario</th>
          <th scope="col">Difference (this − baseline)</th>
        </tr>
      </thead>
      <tbody>
        {scenario.policies.map((p) => {
          const { e, b, d } = bandPair(p, scenario, { current, base, baseline });
          const inBase = baseline.policies.includes(p);
          return (
            <tr key={p} data-policy={p}>
              <th scope="row">{policyOf(p).label}</th>
              <td data-testid={`compare-base-${p}`}>
                {b ? ciText(b) : inBase ? "…" : "not in the baseline"}
              </td>
              <td data-testid={`compare-this-${p}`}>{e ? ciText(e) : "…"}</td>
              <td data-testid={`compare-delta-${p}`}>
                {d ? (
                  <>
                    <strong>{deltaText(d)}</strong>{" "}
                    <span className="muted">({deltaBasis(d, e?.n ?? 0, b?.n ?? 0)})</span>
                  </>
                ) : inBase ? (
                  "…"
                ) : (
                  "—"
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A badput cell, shareText's words: the shares, then what changed (its own line on a phone: compare.css). */
function ShareCell({ cell }: { cell: BadputCell }) {
  const [shares, change] = shareParts(cell);
  return (
    <>
      <span className="compare-shares">{shares}</span>
      {change ? (
        <>
          {" "}
          <span className="compare-change">({change})</span>
        </>
      ) : null}
    </>
  );
}

/**
 * Each strategy's badput, baseline → this, with the difference and its error, once both Monte
 * Carlos have stopped on what is on screen (their summaries and per-run shares: mcStore.ts).
 */
function BadputTable({ scenario }: { scenario: Scenario }) {
  const baseResult = useMcStore((s) => s.baseResult);
  const baseBadput = useMcStore((s) => s.baseBadput);
  const currentBadput = useMcStore((s) => s.currentBadput);
  const baseline = useMcStore((s) => s.baseline);
  const mc = useAppStore((s) => s.mc);
  const current =
    mc && currentBadput?.scenario === mc.scenario && JSON.stringify(mc.scenario) === JSON.stringify(scenario)
      ? { result: mc, samples: currentBadput.samples }
      : null;
  const base =
    baseResult &&
    baseBadput?.scenario === baseResult.scenario &&
    JSON.stringify(baseResult.scenario) === JSON.stringify(baseline)
      ? { result: baseResult, samples: baseBadput.samples }
      : null;
  if (!current || !base)
    return (
      <p className="muted small" data-testid="compare-badput-waiting">
        Where the time goes, side by side: once both Monte Carlos have stopped.
      </p>
    );
  const keys = sharedPolicies(base.result, current.result);
  const rows = badputPairs(base, current);
  // Every cell's difference is over the same seeds: any one says the basis.
  const first = rows.flatMap((r) => keys.map((k) => r.cells[k]?.d)).find((d) => d !== undefined);
  return (
    <table className="compare-ettr compare-badput" data-testid="compare-badput">
      <caption>
        Where the time goes: each category&apos;s mean share of wall time, baseline → this, and the difference
        ± 95% half-width{" "}
        <span className="muted" data-testid="compare-badput-basis">
          ({first ? badputBasis(first, current.result.seeds, base.result.seeds) : "no category lost time"})
        </span>
      </caption>
      <thead>
        <tr>
          <th scope="col">Lost to</th>
          {keys.map((k) => (
            <th key={k} scope="col">
              {policyOf(k).label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.category} data-category={r.category}>
            <th scope="row">{SEGMENT_TEXT[r.category].name}</th>
            {keys.map((k) => {
              const c = r.cells[k];
              return (
                <td key={k} data-testid={`compare-badput-${k}-${r.category}`}>
                  {c ? <ShareCell cell={c} /> : "—"}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function CompareWith() {
  const scenario = useAppStore((s) => s.scenario);
  const baseline = useMcStore((s) => s.baseline);
  const baseError = useMcStore((s) => s.baseError);
  const [link, setLink] = useState("");
  const [error, setError] = useState<string | null>(null);
  const onFile = (f: File | undefined) => {
    if (!f) return;
    if (f.size > MAX_COMPARE_FILE_BYTES) {
      setBaseline(scenarioFromFile("", f.size), setError);
      return;
    }
    f.text().then(
      (t) => setBaseline(scenarioFromFile(t, f.size), setError),
      (e: unknown) => setError(`The file could not be read: ${(e as Error).message}`),
    );
  };
  return (
    <Panel
      what="The comparison panel"
      className="panel compare-with"
      aria-label="Compare with"
      data-control="compare"
    >
      <h2>Compare with…</h2>
      <p className="muted">
        A second scenario, pinned as the baseline: paste any Cluster view link, open a scenario file, or pin
        the scenario on screen and then edit the knobs. The page&apos;s link keeps both.
      </p>
      <form
        className="compare-form"
        onSubmit={(ev) => {
          ev.preventDefault();
          setBaseline(scenarioFromLink(link), setError);
        }}
      >
        <label>
          Link
          <input
            type="text"
            data-testid="compare-link"
            value={link}
            placeholder="https://…#s=…"
            onChange={(ev) => setLink(ev.target.value)}
          />
        </label>
        <button type="submit" data-testid="compare-link-use">
          Compare
        </button>
        <label className="compare-file">
          or a scenario file
          <input
            type="file"
            accept=".json,application/json"
            data-testid="compare-file"
            onChange={(ev) => onFile(ev.target.files?.[0])}
          />
        </label>
        <button type="button" data-testid="compare-pin" onClick={() => mcStore.getState().pin()}>
          Pin this one, then edit
        </button>
      </form>
      {error ? (
        <p className="error-text" role="alert" data-testid="compare-error">
          {error}
        </p>
      ) : null}
      {baseline ? (
        <>
          <Differences baseline={baseline} scenario={scenario} />
          <EttrTable baseline={baseline} scenario={scenario} />
          <BadputTable scenario={scenario} />
          {baseError ? (
            <p className="error-text">The baseline&apos;s Monte Carlo failed: {baseError}.</p>
          ) : null}
        </>
      ) : (
        <p className="muted" data-testid="compare-none">
          No second scenario yet.
        </p>
      )}
    </Panel>
  );
}
