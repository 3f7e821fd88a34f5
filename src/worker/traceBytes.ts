/**
 * A trace file's bytes, in pieces, into its text, in pieces: gunzip on the fly when the bytes
 * start with gzip's magic number (fflate's streaming Gunzip), then UTF-8 decoding in stream mode,
 * so neither the compressed nor the uncompressed file is ever held whole. Used by the trace
 * worker and by `npm run trace`.
 */
import { Gunzip } from "fflate";
import { RankTraceReader } from "../step/trace/readTrace.ts";
import { TraceError } from "../step/trace/traceError.ts";
import type { RankTrace } from "../step/trace/traceModel.ts";

export class TraceByteReader {
  private readonly reader: RankTraceReader;
  private readonly decoder = new TextDecoder("utf-8");
  private gunzip: Gunzip | null = null;
  private started = false;
  bytesIn = 0;

  constructor(file: string) {
    this.reader = new RankTraceReader(file);
  }

  push(bytes: Uint8Array, final = false): void {
    this.bytesIn += bytes.length;
    if (!this.started && bytes.length > 0) {
      this.started = true;
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
        this.gunzip = new Gunzip((chunk) => this.text(chunk));
      }
    }
    if (this.gunzip === null) {
      this.text(bytes);
      return;
    }
    try {
      this.gunzip.push(bytes, final);
    } catch (e) {
      if (e instanceof TraceError) throw e;
      const why = e instanceof Error ? e.message : String(e);
      throw new TraceError("gzip", `the gzip data is broken or cut off (${why})`);
    }
  }

  private text(chunk: Uint8Array): void {
    this.reader.push(this.decoder.decode(chunk, { stream: true }));
  }

  /** The bytes ended. */
  end(): RankTrace {
    if (this.gunzip !== null) this.push(new Uint8Array(0), true);
    this.reader.push(this.decoder.decode());
    return this.reader.end();
  }
}
