/**
 * Collects a log's fault starts and ends as a parser reads them, interning host ids and labels,
 * then sorts them by time into an EventLog. A value is checked (length, control characters) the
 * first time it is seen only: a 100,000-event log names a few thousand hosts and a few dozen
 * labels. Rows are kept in flat number arrays, and sorted only when the file was not already in
 * time order; the sort is stable, so faults at one instant keep the file's order.
 */
import { checkedText } from "./quote.ts";
import { type EventLog, LogError, MAX_HOST_ID_CHARS, MAX_LABEL_CHARS, MAX_LOG_EVENTS } from "./types.ts";

class Interner {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  constructor(
    private readonly what: string,
    private readonly max: number,
  ) {}
  of(value: string, where: () => string): number {
    let i = this.index.get(value);
    if (i === undefined) {
      checkedText(value, where(), this.what, this.max);
      i = this.values.length;
      this.values.push(value);
      this.index.set(value, i);
    }
    return i;
  }
}

/** The order of rows by time, stable; null when they already are in order. */
function timeOrder(t: readonly number[]): Int32Array | null {
  let sorted = true;
  for (let i = 1; i < t.length && sorted; i++) sorted = t[i - 1]! <= t[i]!;
  if (sorted) return null;
  return Int32Array.from(t, (_, i) => i).sort((a, b) => t[a]! - t[b]! || a - b);
}

function column(
  values: readonly number[],
  order: Int32Array | null,
  Type: typeof Float64Array | typeof Int32Array,
) {
  const out = new Type(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[order === null ? i : order[i]!]!;
  return out;
}

export class LogBuilder {
  private readonly hosts: Interner;
  private readonly labels: Interner[];
  private readonly startT: number[] = [];
  private readonly startH: number[] = [];
  /** Label k of start i at i × keys + k. */
  private readonly startL: number[] = [];
  private readonly endT: number[] = [];
  private readonly endH: number[] = [];

  constructor(
    private readonly format: EventLog["format"],
    hostField: string,
    private readonly labelKeys: string[],
    labelField: (key: string) => string,
    private readonly defaultLabel: string,
    /** Names row r (a line or an event) in a message: built only for a message. */
    private readonly whereOf: (row: number) => string,
  ) {
    this.hosts = new Interner(hostField, MAX_HOST_ID_CHARS);
    this.labels = labelKeys.map((k) => new Interner(labelField(k), MAX_LABEL_CHARS));
  }

  private count(row: number): void {
    if (this.startT.length + this.endT.length >= MAX_LOG_EVENTS) {
      throw new LogError(
        `${this.whereOf(row)}: the log has more than ${MAX_LOG_EVENTS.toLocaleString("en-US")} fault starts and ends; at most that many are read`,
      );
    }
  }

  start(row: number, seconds: number, host: string, labels: readonly string[]): void {
    this.count(row);
    const where = () => this.whereOf(row);
    this.startT.push(seconds);
    // An empty host (a CSV line of a job-wide failure, as a run's export writes one): no host.
    this.startH.push(host === "" ? -1 : this.hosts.of(host, where));
    for (let k = 0; k < labels.length; k++) this.startL.push(this.labels[k]!.of(labels[k]!, where));
  }

  end(row: number, seconds: number, host: string): void {
    this.count(row);
    this.endT.push(seconds);
    this.endH.push(this.hosts.of(host, () => this.whereOf(row)));
  }

  build(): EventLog {
    const starts = timeOrder(this.startT);
    const ends = timeOrder(this.endT);
    const keys = this.labelKeys.length;
    const n = this.startT.length;
    return {
      format: this.format,
      hostNames: this.hosts.values,
      labelKeys: this.labelKeys,
      defaultLabel: this.defaultLabel,
      labelValues: this.labels.map((l) => l.values),
      startSeconds: column(this.startT, starts, Float64Array) as Float64Array,
      startHost: column(this.startH, starts, Int32Array) as Int32Array,
      startLabel: this.labelKeys.map((_, k) => {
        const out = new Int32Array(n);
        for (let i = 0; i < n; i++) out[i] = this.startL[(starts === null ? i : starts[i]!) * keys + k]!;
        return out;
      }),
      endSeconds: column(this.endT, ends, Float64Array) as Float64Array,
      endHost: column(this.endH, ends, Int32Array) as Int32Array,
    };
  }
}
