/**
 * Published numbers: each claim of the papers and operators beside the model's value on the
 * scenario that encodes the claim's assumptions, with the verdict computed from the two intervals.
 * The values are the ones `npm run papers -- --write` recorded from the engine (a unit test
 * recomputes every row and fails on any drift), so this view simulates nothing; each row's link
 * opens the Cluster view running the same seeds.
 */
import { claimHash } from "../../link/claimLink.ts";
import type { ClaimRow } from "../../sim/papers/claimTypes.ts";
import { recordedRows } from "../../sim/papers/recorded.ts";
import { modelText, publishedRange, verdictNote, verdictText } from "../../sim/papers/words.ts";
import { parseScenario } from "../../sim/scenario/index.ts";
import "./papers.css";

const ROWS = recordedRows();

function verdictClass(row: ClaimRow): string {
  if (row.verdict.kind === "off") return "claim-verdict off";
  return row.claim.calibrated ? "claim-verdict calibrated" : "claim-verdict within";
}

function ClaimCard({ row }: { row: ClaimRow }) {
  const c = row.claim;
  const note = verdictNote(row);
  return (
    <article className="claim panel" data-testid={`claim-${c.id}`}>
      <p className="claim-text">{c.claim}</p>
      <p className="claim-source muted">
        {c.source.title} ({c.source.year}), {c.source.where}
      </p>
      <dl className="claim-figures">
        <div>
          <dt>Published</dt>
          <dd>
            <span data-testid="claim-published">{c.published.text}</span>{" "}
            <span className="muted claim-interval">(read as {publishedRange(row)})</span>
          </dd>
        </div>
        <div>
          <dt>Model (95 %)</dt>
          <dd data-testid="claim-model">{modelText(c.metric, row.model)}</dd>
        </div>
        <div>
          <dt>Verdict</dt>
          <dd className={verdictClass(row)} data-testid="claim-verdict">
            {verdictText(row)}
          </dd>
        </div>
      </dl>
      {note && <p className="claim-note">{note}</p>}
      <details className="claim-assumptions">
        <summary>What we assumed</summary>
        <p>{c.assumptions}</p>
      </details>
      <a className="claim-link" href={claimHash(parseScenario(c.scenario), c.runs)} data-testid="claim-link">
        Open this scenario in the Cluster view ({c.runs.toLocaleString("en-US")} runs)
      </a>
    </article>
  );
}

export function PapersView() {
  const off = ROWS.filter((r) => r.verdict.kind === "off").length;
  return (
    <div className="papers-view">
      <div className="papers-intro">
        <h2>Published numbers beside the model</h2>
        <p data-testid="papers-summary">
          {ROWS.length} figures from papers and cluster operators, each run on a scenario that encodes what
          the source states. The model's value is the mean over the runs with its 95 % interval; the verdict
          is computed from the two intervals. {ROWS.length - off} agree, {off} do not, and where they do not,
          the likeliest reason is said: that is the teaching. A row marked calibrated agrees because one of
          its settings was taken from that very figure.
        </p>
      </div>
      <div className="claims">
        {ROWS.map((r) => (
          <ClaimCard key={r.claim.id} row={r} />
        ))}
      </div>
    </div>
  );
}
