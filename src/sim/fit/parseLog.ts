/**
 * A log's text, its format detected and named (§5 "Fitting a log"): a JSON array is an event
 * list, a JSON object a counts table, anything else is read as CSV, whose header must then name
 * its columns. The size bound comes before any parsing, so a refused log costs nothing.
 */
import type { TimeUnit } from "./csvTime.ts";
import { parseCounts } from "./parseCounts.ts";
import { parseCsv } from "./parseCsv.ts";
import { parseEventList } from "./parseEventList.ts";
import { type FailureLog, LogError, MAX_LOG_BYTES, MAX_LOG_EVENTS } from "./types.ts";

export interface ParseOptions {
  /** The unit of a CSV's numeric times (default days). */
  unit?: TimeUnit;
}

/** UTF-8 bytes of a string, counted without encoding it. */
function utf8Bytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export function checkLogSize(bytes: number): void {
  if (bytes > MAX_LOG_BYTES) {
    throw new LogError(`the log is ${(bytes / 1024 / 1024).toFixed(1)} MiB; at most 64 MiB is read`);
  }
}

export function parseLog(text: string, options: ParseOptions = {}): FailureLog {
  // A string of n UTF-16 units is at most 3n bytes: only a long one is counted.
  if (text.length * 3 > MAX_LOG_BYTES) checkLogSize(utf8Bytes(text));
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const first = body.trimStart()[0];
  if (first === "[" || first === "{") {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (e) {
      throw new LogError(
        `not JSON (${(e as Error).message}); an event list is a JSON array, a counts table a JSON object`,
      );
    }
    if (Array.isArray(value)) {
      if (value.length > MAX_LOG_EVENTS) {
        throw new LogError(
          `the event list has ${value.length.toLocaleString("en-US")} events; at most ${MAX_LOG_EVENTS.toLocaleString("en-US")} are read`,
        );
      }
      return parseEventList(value);
    }
    return parseCounts(value as Record<string, unknown>);
  }
  if (body.trim() === "") throw new LogError("the log is empty");
  return parseCsv(body, options.unit);
}
