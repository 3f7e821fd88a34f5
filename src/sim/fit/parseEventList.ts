/**
 * Format 1: the InfiniteHBD trace's JSON event list (stepfun-ai/InfiniteHBD-Trace):
 * `[{node_id, event_time (days), event_type: "fault_start" | "fault_end", fault_type: {Level,
 * Class, Desc}}, …]`. Each error names its event by number (1-based, as a person counts).
 */
import { LogBuilder } from "./logBuilder.ts";
import { quote } from "./quote.ts";
import { type EventLog, LogError, SECONDS_PER_DAY } from "./types.ts";

export const EVENT_LABELS = ["Level", "Class", "Desc"] as const;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function hostOf(v: unknown, where: string): string {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v !== "string" || v === "") throw new LogError(`${where}: node_id must be a non-empty string`);
  return v;
}

/** A fault_type's label; a label the log leaves out reads "unlabelled". */
function labelOf(type: Record<string, unknown>, key: string, i: number): string {
  const v = type[key];
  if (typeof v === "string" && v !== "") return v;
  if (v === undefined || v === null || v === "") return "unlabelled";
  if (typeof v !== "string") throw new LogError(`event ${i + 1}: fault_type.${key} must be a string`);
  return v;
}

/** The parsed JSON of an event list (an array), read into a log. */
export function parseEventList(events: readonly unknown[]): EventLog {
  const whereOf = (i: number) => `event ${i + 1}`;
  const log = new LogBuilder(
    "events",
    "node_id",
    [...EVENT_LABELS],
    (k) => `fault_type.${k}`,
    "Class",
    whereOf,
  );
  const labels = ["", "", ""];
  const none = {};
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (
      isRecord(e) &&
      e.event_type === "fault_start" &&
      typeof e.event_time === "number" &&
      Number.isFinite(e.event_time) &&
      typeof e.node_id === "string" &&
      e.node_id !== ""
    ) {
      // The common case, without a message string or an array per event.
      const type = isRecord(e.fault_type) ? e.fault_type : none;
      for (let k = 0; k < 3; k++) labels[k] = labelOf(type, EVENT_LABELS[k]!, i);
      log.start(i, e.event_time * SECONDS_PER_DAY, e.node_id, labels);
      continue;
    }
    const where = whereOf(i);
    if (!isRecord(e))
      throw new LogError(`${where}: not an object {node_id, event_time, event_type, fault_type}`);
    const host = hostOf(e.node_id, where);
    const days = e.event_time;
    if (typeof days !== "number" || !Number.isFinite(days)) {
      const shown = typeof days === "string" ? quote(days) : String(days);
      throw new LogError(`${where}: event_time ${shown} is not a time (a number of days)`);
    }
    const seconds = days * SECONDS_PER_DAY;
    if (e.event_type === "fault_start") {
      const type = isRecord(e.fault_type) ? e.fault_type : none;
      log.start(
        i,
        seconds,
        host,
        EVENT_LABELS.map((k) => labelOf(type, k, i)),
      );
    } else if (e.event_type === "fault_end") {
      log.end(i, seconds, host);
    } else {
      const shown = typeof e.event_type === "string" ? quote(e.event_type) : String(e.event_type);
      throw new LogError(`${where}: unknown event_type ${shown}; "fault_start" or "fault_end"`);
    }
  }
  return log.build();
}
