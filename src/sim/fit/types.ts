/**
 * A failure log as the fit reads it (docs/model.md §5 "Fitting a log"), whatever its format: the
 * fault starts and ends in time order, hosts and labels interned to indexes. The parsers fill
 * it; the statistics read it and never see the text again.
 */

export type LogFormat = "events" | "csv" | "counts";

/** What each format is called where a person reads it. */
export const FORMAT_NAMES: Record<LogFormat, string> = {
  events: "an event list (InfiniteHBD's JSON)",
  csv: "a CSV of time,host,cause",
  counts: "a counts table",
};

/** A log of fault starts and ends (formats 1 and 2). */
export interface EventLog {
  format: "events" | "csv";
  /** Host ids as the log writes them; a host's index is its place here. */
  hostNames: string[];
  /** The labels a fault carries (Level, Class, Desc; or cause) and the one used by default. */
  labelKeys: string[];
  defaultLabel: string;
  /** Per label key: the distinct values, each fault start's value as an index into them. */
  labelValues: string[][];
  /** Fault starts, sorted by time (stable: file order at one instant). Seconds. */
  startSeconds: Float64Array;
  /** −1: a job-wide fault (a CSV line with an empty host): in the rate and causes, not per host. */
  startHost: Int32Array;
  /** startLabel[k][i]: fault start i's value of label key k. */
  startLabel: Int32Array[];
  /** Fault ends, sorted by time. Seconds. */
  endSeconds: Float64Array;
  endHost: Int32Array;
}

/** Format 3: a published table: rate and mix only. */
export interface CountsLog {
  format: "counts";
  gpus: number;
  gpusPerHost: number;
  days: number;
  causes: { name: string; count: number }[];
}

export type FailureLog = EventLog | CountsLog;

/** A log the fit refuses: the message names the line or event and the problem. Nothing was fitted. */
export class LogError extends Error {
  override name = "LogError";
}

/** The bounds of §5: past them a log is refused before any work. */
export const MAX_LOG_EVENTS = 1_000_000;
export const MAX_LOG_BYTES = 64 * 1024 * 1024;
export const MAX_HOST_ID_CHARS = 200;
/** A label longer than this is not a cause name; it is cut to a cause's 40 characters later. */
export const MAX_LABEL_CHARS = 200;

export const SECONDS_PER_DAY = 86_400;
