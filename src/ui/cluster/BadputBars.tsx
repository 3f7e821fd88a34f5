/**
 * "Where the time goes" (docs/model.md §4): for each policy, one stacked horizontal bar of wall
 * time split into the useful share (ETTR) and the badput categories, which add up to it exactly;
 * beside it the lost GPU-hours, (1 − ETTR) × GPUs × hours, and their cost at a price per GPU-hour.
 * Each segment is labelled where its label fits, and hovering, focusing or clicking one says its
 * name, share and hours. Presentational: the Cluster view and the story's chapter 7 hand it runs.
 */

import { useRef, useState } from "react";
import { pct } from "../format.ts";
import { policyStyle } from "../policyColour.ts";
import { useWidth } from "../useWidth.ts";
import "./badput.css";
import {
  type BadputRow,
  compact,
  lostGpuHours,
  SEGMENT_TEXT,
  SEGMENTS,
  segmentText,
  share,
} from "./badputWords.ts";

export type { BadputRow };

/** Rough width of a label in the bar's 11 px font: whether it fits in its segment. */
const labelWidth = (text: string) => text.length * 6.2 + 8;

function Bar({
  row,
  gpus,
  days,
  barWidth,
  onActive,
  testPrefix,
}: {
  row: BadputRow;
  gpus: number;
  days: number;
  barWidth: number;
  onActive: (text: string | null) => void;
  testPrefix: string;
}) {
  const key = row.policy.key;
  return (
    <div className="badput-bar" data-testid={`${testPrefix}-bar-${key}`}>
      {SEGMENTS.map((seg) => {
        const s = share(row.metrics, seg);
        if (!(s > 0)) return null;
        const text = segmentText(seg, s, gpus, days);
        const label = seg === "useful" ? `ETTR ${pct(s, 0)}` : pct(s, s < 0.1 ? 1 : 0);
        const fits = s * barWidth >= labelWidth(label);
        return (
          <button
            key={seg}
            type="button"
            className={`badput-seg bp-${seg}`}
            style={{ flexBasis: `${s * 100}%` }}
            aria-label={`${row.policy.label}: ${text}`}
            title={text}
            data-testid={`${testPrefix}-seg-${key}-${seg}`}
            data-share={s}
            onMouseEnter={() => onActive(`${row.policy.label}: ${text}`)}
            onFocus={() => onActive(`${row.policy.label}: ${text}`)}
            onClick={() => onActive(`${row.policy.label}: ${text}`)}
          >
            {fits ? label : null}
          </button>
        );
      })}
    </div>
  );
}

/**
 * One bar per row, the lost GPU-hours and their cost beside each, a legend of the categories that
 * occur, and a line that says what the hovered or focused segment is.
 */
export function BadputBars({
  rows,
  gpus,
  days,
  price,
  testPrefix = "badput",
}: {
  rows: readonly BadputRow[];
  gpus: number;
  days: number;
  /** Dollars per GPU-hour. */
  price: number;
  testPrefix?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref, 360);
  const [active, setActive] = useState<string | null>(null);
  const present = SEGMENTS.filter((seg) => rows.some((r) => share(r.metrics, seg) > 0));
  return (
    <div className="badput">
      <div className="badput-rows">
        {rows.map((row, i) => {
          const lost = lostGpuHours(row.metrics.ettr, gpus, days);
          return (
            <div key={row.policy.key} className="badput-row" style={policyStyle(row.policy.key)}>
              <span className="badput-name">
                <span className="policy-swatch" aria-hidden="true" />
                {row.policy.label}
              </span>
              <div className="badput-track" ref={i === 0 ? ref : undefined}>
                <Bar
                  row={row}
                  gpus={gpus}
                  days={days}
                  barWidth={width}
                  onActive={setActive}
                  testPrefix={testPrefix}
                />
              </div>
              <span className="badput-lost">
                <span data-testid={`${testPrefix}-lost-${row.policy.key}`}>{compact(lost)}</span> GPU-h lost ·{" "}
                <strong data-testid={`${testPrefix}-cost-${row.policy.key}`}>${compact(lost * price)}</strong>
              </span>
            </div>
          );
        })}
      </div>
      <p className="badput-active muted small" aria-live="polite" data-testid={`${testPrefix}-active`}>
        {active ?? "Hover, focus or tap a segment for its share of wall time and its hours."}
      </p>
      <ul className="badput-legend" aria-label="Segments">
        {present.map((seg) => (
          <li key={seg}>
            <span className={`badput-key bp-${seg}`} aria-hidden="true" />
            {SEGMENT_TEXT[seg].name}
          </li>
        ))}
      </ul>
    </div>
  );
}
