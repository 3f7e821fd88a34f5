/**
 * A CSV time cell: an ISO 8601 timestamp, or a number in the unit the reader chose (days by
 * default). A timestamp without a zone is read as UTC, so the same file gives the same fit in
 * every browser and time zone (Date.parse would read it as local time).
 */
import { SECONDS_PER_DAY } from "./types.ts";

export type TimeUnit = "days" | "hours" | "seconds";
export const TIME_UNITS: readonly TimeUnit[] = ["days", "hours", "seconds"];
export const SECONDS_PER: Record<TimeUnit, number> = { days: SECONDS_PER_DAY, hours: 3600, seconds: 1 };

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const ISO = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/;

export type CellTime = { kind: "number" | "iso"; seconds: number } | null;

/** The cell's time in seconds (numbers: × the unit; timestamps: since 1970, UTC), or null. */
export function cellTime(cell: string, unit: TimeUnit): CellTime {
  const text = cell.trim();
  if (NUMBER.test(text)) {
    const seconds = Number(text) * SECONDS_PER[unit];
    return Number.isFinite(seconds) ? { kind: "number", seconds } : null;
  }
  const m = ISO.exec(text);
  if (!m) return null;
  const [, date, clock, zone] = m;
  const ms = Date.parse(clock === undefined ? `${date}T00:00:00Z` : `${date}T${clock}${zone ?? "Z"}`);
  return Number.isFinite(ms) ? { kind: "iso", seconds: ms / 1000 } : null;
}
