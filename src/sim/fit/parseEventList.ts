/**
 * Format 1: the InfiniteHBD trace's JSON event list (stepfun-ai/InfiniteHBD-Trace):
 * `[{node_id, event_time (days), event_type: "fault_start" | "fault_end", fault_type: {Level,
 * Class, Desc}}, …]`. Each error names its event by number (1-based, as a person counts).
 */
import { LogBuilder } from "./logBuilder.ts";
import { checkedText, quote } from "./quote.ts";
import { type EventLog, LogError, MAX_LABEL_CHARS, SECONDS_PER_DAY } from "./types.ts";

export const EVENT_LABELS = ["Level", "Class", "Desc"] as const;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function hostOf(v: unknown, where: string): string {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v !== "string" || v === "") throw new LogError(`${where}: node_id must be a non-empty string`);
  return checkedText(v, where, "node_id");
}

/** A fault_type's label; a label the log leaves out reads "unlabelled". */
function labelOf(type: Record<string, unknown>, key: string, where: string): string {
  const v = type[key];
  if (v === undefined || v === null || v === "") return "unlabelled";
  if (typeof v !== "string") throw new LogError(`${where}: fault_type.${key} must be a string`);
  return checkedText(v, where, `fault_type.${key}`, MAX_LABEL_CHARS);
}

/** The parsed JSON of an event list (an array), read into a log. */
export function parseEventList(events: readonly unknown[]): EventLog {
  const log = new LogBuilder("events", [...EVENT_LABELS], "Class");
  events.forEach((e, i) => {
    const where = `event ${i + 1}`;
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
      const type = isRecord(e.fault_type) ? e.fault_type : {};
      log.start(
        where,
        seconds,
        host,
        EVENT_LABELS.map((k) => labelOf(type, k, where)),
      );
    } else if (e.event_type === "fault_end") {
      log.end(where, seconds, host);
    } else {
      const shown = typeof e.event_type === "string" ? quote(e.event_type) : String(e.event_type);
      throw new LogError(`${where}: unknown event_type ${shown}; "fault_start" or "fault_end"`);
    }
  });
  return log.build();
}
