/**
 * A trace file's bytes, in pieces, into its text, in pieces: gunzip on the fly when the bytes
 * start with gzip's magic number (fflate's streaming Gunzip), then UTF-8 decoding in stream mode,
 * so neither the compressed nor the uncompressed file is ever held whole. Used by the trace
 * worker and by `npm run trace`. The UTF-8 decoder is handed in (the worker's and Node's
 * `TextDecoder`) so that this folder stays pure ECMAScript.
 */
import { Gunzip } from "fflate";
import { RankTraceReader } from "./readTrace.ts";
import { TraceError } from "./traceError.ts";
import type { RankTrace } from "./traceModel.ts";

/** What the reader needs of a `TextDecoder("utf-8")`: stream-mode decoding. */
export interface Utf8StreamDecoder {
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}

/**
 * Compressed bytes handed to the gunzip at once. fflate inflates a whole push into one piece, and
 * deflate packs up to ~1,030 bytes of text into one byte: a 1 MiB piece of a gzip bomb would
 * become one 1 GB string. 16 KiB gives at most ~16 MB of text per piece.
 */
export const GUNZIP_SLICE = 16 << 10;

export class TraceByteReader {
  private readonly reader: RankTraceReader;
  private gunzip: Gunzip | null = null;
  private started = false;
  /** The first byte, held until the second shows whether this is gzip. */
  private held: Uint8Array | null = null;
  /** The last 8 bytes read: gzip's trailer (CRC-32, then the text's length mod 2³²). */
  private readonly tail = new Uint8Array(8);
  private textCount = 0;
  bytesIn = 0;

  constructor(
    file: string,
    private readonly decoder: Utf8StreamDecoder,
  ) {
    this.reader = new RankTraceReader(file);
  }

  push(input: Uint8Array, final = false): void {
    let bytes = input;
    if (!this.started && this.held !== null) {
      bytes = new Uint8Array(this.held.length + input.length);
      bytes.set(this.held);
      bytes.set(input, this.held.length);
      this.held = null;
    }
    if (!this.started && bytes.length === 1 && !final) {
      this.held = bytes.slice();
      return;
    }
    this.bytesIn += input.length;
    this.keepTail(bytes);
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
      for (let at = 0; at < bytes.length; at += GUNZIP_SLICE) {
        const last = at + GUNZIP_SLICE >= bytes.length;
        this.gunzip.push(bytes.subarray(at, at + GUNZIP_SLICE), final && last);
      }
      if (bytes.length === 0) this.gunzip.push(bytes, final);
    } catch (e) {
      if (e instanceof TraceError) throw e;
      const why = e instanceof Error ? e.message : String(e);
      throw new TraceError("gzip", `the gzip data is broken or cut off (${why})`);
    }
  }

  private keepTail(bytes: Uint8Array): void {
    if (bytes.length >= 8) this.tail.set(bytes.subarray(bytes.length - 8));
    else if (bytes.length > 0) {
      this.tail.copyWithin(0, bytes.length);
      this.tail.set(bytes, 8 - bytes.length);
    }
  }

  /** Bytes of text (after the gunzip) read so far. */
  get textBytes(): number {
    return this.textCount;
  }

  private text(chunk: Uint8Array): void {
    this.textCount += chunk.length;
    this.reader.push(this.decoder.decode(chunk, { stream: true }));
  }

  /** The bytes ended. */
  end(): RankTrace {
    if (this.held !== null) this.push(new Uint8Array(0), true);
    if (this.gunzip !== null) {
      this.push(new Uint8Array(0), true);
      // fflate does not check the trailer: a file cut in its last bytes would pass unnoticed.
      const t = this.tail;
      const size =
        ((t[4] as number) | ((t[5] as number) << 8) | ((t[6] as number) << 16) | ((t[7] as number) << 24)) >>>
        0;
      if (this.bytesIn < 18 || size !== this.textCount % 2 ** 32) {
        throw new TraceError(
          "gzip",
          "the gzip data is cut off: its trailer does not match the text it holds",
        );
      }
    }
    this.reader.push(this.decoder.decode());
    return this.reader.end();
  }
}
