/**
 * The trace worker's endpoints: read a trace file (a File/Blob, streamed in pieces and gunzipped
 * on the fly, never whole), hold each rank's trace by number, and measure the open ones. Each
 * read reports its progress and stops at the next piece when cancelled.
 */
import type { Link } from "../step/collectiveCost.ts";
import { TraceByteReader } from "../step/trace/traceBytes.ts";
import { MAX_TRACE_BYTES, TraceError } from "../step/trace/traceError.ts";
import type { RankTrace } from "../step/trace/traceModel.ts";
import { type TraceChoice, type TraceView, traceView } from "./traceView.ts";

export type { RankRow, TraceChoice, TraceView } from "./traceView.ts";

export type OpenReply = { ok: true; id: number; name: string } | { ok: false; name: string; error: string };

export type MeasureReply = { ok: true; view: TraceView } | { ok: false; error: string };

const held = new Map<number, RankTrace>();
const cancelled = new Set<number>();
let next = 1;

/**
 * Bytes of the file handed to the reader at once. A gzip bomb inflates ~1,000×, so 8 KiB is at
 * most ~8 MB of text: the read returns to the worker's event loop (where a cancel arrives) at
 * least every YIELD_MS and never runs one piece for long.
 */
export const READ_SLICE = 8 << 10;
const YIELD_MS = 40;

/** Lets the messages queued behind this read (a cancel, the next file) be handled. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A trace the worker holds, by the number traceOpen gave it (the comparison reads them). */
export function heldTrace(id: number): RankTrace | undefined {
  return held.get(id);
}

export const traceApi = {
  /** A number for the next file, so the page can cancel it while it reads. */
  traceTicket(): number {
    return next++;
  },

  traceCancel(ticket: number): void {
    cancelled.add(ticket);
  },

  async traceOpen(
    ticket: number,
    file: Blob,
    name: string,
    progress: (done: number, total: number) => void,
  ): Promise<OpenReply> {
    try {
      if (file.size > MAX_TRACE_BYTES) {
        throw new TraceError(
          "tooLarge",
          `it is ${(file.size / 2 ** 30).toFixed(2)} GiB; traces up to 1 GiB are read`,
        );
      }
      const reader = new TraceByteReader(name, new TextDecoder("utf-8"));
      const stream = file.stream().getReader();
      let done = 0;
      let since = Date.now();
      const stop = async () => {
        await stream.cancel();
        return { ok: false as const, name, error: "cancelled" };
      };
      for (;;) {
        if (cancelled.has(ticket)) return await stop();
        const { value, done: end } = await stream.read();
        if (end) break;
        for (let at = 0; at < value.length; at += READ_SLICE) {
          reader.push(value.subarray(at, at + READ_SLICE));
          done += Math.min(READ_SLICE, value.length - at);
          if (Date.now() - since >= YIELD_MS) {
            progress(done, file.size);
            await nextTask();
            since = Date.now();
            if (cancelled.has(ticket)) return await stop();
          }
        }
        progress(done, file.size);
      }
      held.set(ticket, reader.end());
      return { ok: true, id: ticket, name };
    } catch (e) {
      return { ok: false, name, error: e instanceof Error ? e.message : String(e) };
    } finally {
      cancelled.delete(ticket);
    }
  },

  traceClose(id: number): void {
    held.delete(id);
  },

  traceMeasure(
    ids: readonly number[],
    allSteps: boolean,
    stepIndex: number,
    link: Link,
    choice: TraceChoice = {},
  ): MeasureReply {
    try {
      const traces = ids.map((id) => held.get(id)).filter((t): t is RankTrace => t !== undefined);
      return { ok: true, view: traceView(traces, allSteps, stepIndex, link, choice) };
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  },
};
