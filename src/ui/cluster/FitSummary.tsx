/** A fitted log's figures, each in plain words (fitWords.ts), then what could not be estimated and why. */
import type { FitNote, LogFit } from "../../sim/fit/fitLog.ts";
import { FORMAT_NAMES } from "../../sim/fit/types.ts";
import {
  arrivalWords,
  burstWords,
  causesTerm,
  driftWords,
  lemonWords,
  rateWords,
  repairWords,
  sentence,
} from "./fitWords.ts";

const pct = (x: number) => `${(100 * x).toFixed(x < 0.1 ? 1 : 0)} %`;

export function FitSummary({ fit, notes, file }: { fit: LogFit; notes: FitNote[]; file: string }) {
  const arrivals = arrivalWords(fit);
  const rows: [string, string, string][] = [
    ["rate", "Rate", `${rateWords(fit)} ${burstWords(fit)}`.trim()],
    ["causes", causesTerm(fit.label), fit.causes.map((c) => `${c.name} ${pct(c.share)}`).join(" · ")],
    ["repairs", "Repairs", repairWords(fit)],
    ["lemons", "Lemon hosts", lemonWords(fit)],
    ["drift", "Drift", driftWords(fit)],
  ];
  return (
    <div className="fit-summary" data-testid="fit-summary">
      <p className="fit-source">
        <span data-testid="fit-file">{file}</span>: {FORMAT_NAMES[fit.format]},{" "}
        {fit.events.toLocaleString("en-US")} fault starts.
      </p>
      {arrivals && (
        <div className="fit-arrivals" data-testid="fit-arrivals">
          <p className="fit-headline">{arrivals.headline}</p>
          {arrivals.fleet && <p data-testid="fit-bursty-fleet">{arrivals.fleet}</p>}
          <p>{arrivals.detail}</p>
        </div>
      )}
      <dl className="fit-figures">
        {rows
          .filter(([, , text]) => text !== "")
          .map(([id, term, text]) => (
            <div key={id} data-testid={`fit-${id}`}>
              <dt>{term}</dt>
              <dd>{text}</dd>
            </div>
          ))}
      </dl>
      {notes.length > 0 && (
        <ul className="fit-notes" data-testid="fit-notes">
          {notes.map((n) => (
            <li key={`${n.what}:${n.why}`}>
              <strong>Not estimated: {n.what}.</strong> {sentence(n.why)}.
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
