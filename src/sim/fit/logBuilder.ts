/**
 * Collects a log's fault starts and ends as a parser reads them, interning host ids and labels,
 * then sorts them by time into an EventLog. Sorting is stable, so faults at one instant keep the
 * file's order (which decides nothing the fit reports, but keeps it deterministic).
 */
import { type EventLog, LogError, MAX_LOG_EVENTS } from "./types.ts";

class Interner {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  of(value: string): number {
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(value);
      this.index.set(value, i);
    }
    return i;
  }
}

export class LogBuilder {
  private readonly hosts = new Interner();
  private readonly labels: Interner[];
  private readonly starts: { t: number; host: number; labels: number[] }[] = [];
  private readonly ends: { t: number; host: number }[] = [];

  constructor(
    private readonly format: EventLog["format"],
    private readonly labelKeys: string[],
    private readonly defaultLabel: string,
  ) {
    this.labels = labelKeys.map(() => new Interner());
  }

  private count(where: string): void {
    if (this.starts.length + this.ends.length >= MAX_LOG_EVENTS) {
      throw new LogError(
        `${where}: the log has more than ${MAX_LOG_EVENTS.toLocaleString("en-US")} fault starts and ends; at most that many are read`,
      );
    }
  }

  start(where: string, seconds: number, host: string, labels: readonly string[]): void {
    this.count(where);
    this.starts.push({
      t: seconds,
      host: this.hosts.of(host),
      labels: labels.map((l, k) => this.labels[k]!.of(l)),
    });
  }

  end(where: string, seconds: number, host: string): void {
    this.count(where);
    this.ends.push({ t: seconds, host: this.hosts.of(host) });
  }

  build(): EventLog {
    const starts = this.starts.sort((a, b) => a.t - b.t);
    const ends = this.ends.sort((a, b) => a.t - b.t);
    return {
      format: this.format,
      hostNames: this.hosts.values,
      labelKeys: this.labelKeys,
      defaultLabel: this.defaultLabel,
      labelValues: this.labels.map((l) => l.values),
      startSeconds: Float64Array.from(starts, (s) => s.t),
      startHost: Int32Array.from(starts, (s) => s.host),
      startLabel: this.labelKeys.map((_, k) => Int32Array.from(starts, (s) => s.labels[k]!)),
      endSeconds: Float64Array.from(ends, (e) => e.t),
      endHost: Int32Array.from(ends, (e) => e.host),
    };
  }
}
