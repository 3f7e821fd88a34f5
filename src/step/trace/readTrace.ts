/**
 * One rank file's text, read in pieces into what the measurement keeps.
 */

import { TraceError } from "./traceError.ts";
import { type RankTrace, RankTraceBuilder } from "./traceModel.ts";
import { TraceTextReader } from "./traceText.ts";

export class RankTraceReader {
  private readonly builder: RankTraceBuilder;
  private readonly text: TraceTextReader;

  constructor(readonly file: string) {
    this.builder = new RankTraceBuilder(file);
    this.text = new TraceTextReader(this.builder);
  }

  push(text: string): void {
    this.text.push(text);
  }

  get chars(): number {
    return this.text.chars;
  }

  end(): RankTrace {
    const { meta, sawEvents } = this.text.end();
    if (!sawEvents) throw new TraceError("notTrace", "not a profiler trace: it has no traceEvents list");
    return this.builder.finish(meta);
  }
}

/** A whole text at once (tests, small files). */
export function readTraceText(file: string, text: string, pieceChars = 1 << 16): RankTrace {
  const r = new RankTraceReader(file);
  for (let i = 0; i < text.length; i += pieceChars) r.push(text.slice(i, i + pieceChars));
  return r.end();
}
