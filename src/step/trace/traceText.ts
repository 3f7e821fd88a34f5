/**
 * A streaming reader of a PyTorch profiler trace's text, fed in chunks (a gunzip stream's output,
 * decoded piece by piece), so a 200 MB trace is never one string. It understands the two shapes
 * torch.profiler has written:
 *
 * - Kineto's object, `{"schemaVersion": 1, "distributedInfo": {...}, "traceEvents": [...], ...}`:
 *   each top-level value other than `traceEvents` is kept (parsed) as metadata, up to a bound;
 * - the older chrome-trace array of PyTorch 1.x's autograd profiler, `[{...}, {...}]`.
 *
 * Every event object is cut out of the text by a small scanner (strings, escapes, nesting) and
 * handed to `JSON.parse` on its own: one event's text is small, so the cost is bounded by the
 * largest event, not the file.
 */
import { TraceError } from "./traceError.ts";

/** Top-level metadata values larger than this are skipped (an embedded blob is not metadata). */
const MAX_META_CHARS = 1 << 20;
/** One event's text larger than this is refused: no profiler event is megabytes long. */
const MAX_EVENT_CHARS = 4 << 20;
/**
 * Text read before the first event larger than this is refused: a trace's metadata is kilobytes,
 * so 32 Mi characters of whitespace or skipped values are not a trace (a gzip of whitespace
 * inflates to gigabytes and would be read to its end to be called empty).
 */
export const MAX_CHARS_BEFORE_EVENTS = 32 << 20;

type Mode =
  | "start" // before the first value
  | "key" // in the top-level object, expecting a key, a comma or the closing brace
  | "colon"
  | "value" // expecting the value of `key`
  | "events" // in the events array, expecting an event, a comma or the closing bracket
  | "done";

const WS = new Set([0x20, 0x09, 0x0a, 0x0d, 0xfeff]);
/** The next character that is not whitespace: a run of whitespace is skipped in native code. */
const NOT_WS = /[^ \t\n\r\ufeff]/g;

export interface TraceTextSink {
  event(raw: unknown): void;
}

export class TraceTextReader {
  private mode: Mode = "start";
  private topIsArray = false;
  private key = "";
  /** The value being cut out: its pieces so far, nesting depth, string state. */
  private parts: string[] = [];
  private partChars = 0;
  private capturing: "event" | "meta" | "key" | null = null;
  private depth = 0;
  private inString = false;
  private escape = false;
  private skipMeta = false;
  private primitive = false;
  private sawEvents = false;
  /** An event object has begun: the bound on the text before the first event no longer applies. */
  private sawEvent = false;
  /** Pieces pushed, and where the next backslash of piece `slashPiece` is (−1: none left). */
  private pieces = 0;
  private slashPiece = -1;
  private slashAt = -2;
  readonly meta: Record<string, unknown> = {};
  chars = 0;

  constructor(private readonly sink: TraceTextSink) {}

  /** Reads one more piece of the text. */
  push(text: string): void {
    this.chars += text.length;
    this.pieces++;
    let i = 0;
    const n = text.length;
    while (i < n) {
      if (this.capturing !== null) {
        i = this.scanValue(text, i);
        continue;
      }
      const c = text.charCodeAt(i);
      if (WS.has(c)) {
        NOT_WS.lastIndex = i;
        i = NOT_WS.exec(text)?.index ?? n;
        continue;
      }
      i = this.structural(c, text, i);
    }
    if (!this.sawEvent && this.chars > MAX_CHARS_BEFORE_EVENTS) {
      throw new TraceError(
        "notTrace",
        `not a profiler trace: no event in the first ${MAX_CHARS_BEFORE_EVENTS / 2 ** 20} Mi characters of its text (a trace's metadata is far smaller)`,
      );
    }
  }

  /** The text ended: anything unfinished means the file was cut short. */
  end(): { meta: Record<string, unknown>; sawEvents: boolean } {
    if (this.mode === "start") throw new TraceError("notTrace", "the file is empty");
    if (this.mode !== "done") {
      throw new TraceError(
        "truncated",
        "the trace ends early: the JSON text stops in the middle (a cut-off file?)",
      );
    }
    return { meta: this.meta, sawEvents: this.sawEvents };
  }

  private structural(c: number, text: string, i: number): number {
    const ch = text[i] as string;
    switch (this.mode) {
      case "start":
        if (ch === "{") this.mode = "key";
        else if (ch === "[") {
          this.topIsArray = true;
          this.sawEvents = true;
          this.mode = "events";
        } else
          throw new TraceError("notTrace", "not a profiler trace: the text is not a JSON object or array");
        return i + 1;
      case "key":
        if (ch === ",") return i + 1;
        if (ch === "}") {
          this.mode = "done";
          return i + 1;
        }
        if (ch === '"') {
          this.begin("key", ch);
          return i; // the scanner reads the quote
        }
        throw new TraceError("notTrace", `not a profiler trace: unexpected "${ch}" where a key should be`);
      case "colon":
        if (ch !== ":") throw new TraceError("notTrace", "not a profiler trace: a key without a value");
        this.mode = "value";
        return i + 1;
      case "value":
        if (this.key === "traceEvents") {
          if (ch !== "[") throw new TraceError("notTrace", "not a profiler trace: traceEvents is not a list");
          this.sawEvents = true;
          this.mode = "events";
          return i + 1;
        }
        this.skipMeta = false;
        this.begin("meta", ch);
        return i;
      case "events":
        if (ch === ",") return i + 1;
        if (ch === "]") {
          this.mode = this.topIsArray ? "done" : "key";
          return i + 1;
        }
        if (ch === "{") {
          this.sawEvent = true;
          this.begin("event", ch);
          return i;
        }
        throw new TraceError(
          "notTrace",
          "not a profiler trace: traceEvents holds something other than events",
        );
      default:
        if (c !== 0)
          throw new TraceError("notTrace", "not a profiler trace: text after the end of the JSON value");
        return i + 1;
    }
  }

  private begin(kind: "event" | "meta" | "key", first: string): void {
    this.capturing = kind;
    // A number, true, false or null ends at a delimiter, not at a closing bracket or quote.
    this.primitive = !(first === "{" || first === "[" || first === '"');
    this.parts = [];
    this.partChars = 0;
    this.depth = 0;
    this.inString = false;
    this.escape = false;
  }

  /** Scans from `i` until the captured value ends (or the chunk does); returns where it stopped. */
  private scanValue(text: string, i: number): number {
    const start = i;
    const n = text.length;
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escape;
    let ended = -1;
    // The next backslash of this piece, kept across the values it holds.
    let slash = this.slashPiece === this.pieces ? this.slashAt : -2;
    if (this.primitive) {
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x2c || c === 0x7d || c === 0x5d || WS.has(c)) {
          ended = i;
          break;
        }
      }
    } else {
      // Inside a string only a quote or a backslash matters: `indexOf` finds the next of each in
      // native code (a backslash is rare, so its place is looked up once and kept). Between
      // strings (a colon, a comma, a number) the gaps are short: a loop over them.
      if (escaped && i < n) {
        escaped = false;
        i++;
      }
      while (i < n) {
        if (inString) {
          const q = text.indexOf('"', i);
          if (slash !== -1 && slash < i) slash = text.indexOf("\\", i);
          if (slash !== -1 && (q === -1 || slash < q)) {
            // An escape: skip the character it escapes (maybe in the next piece).
            if (slash + 1 < n) i = slash + 2;
            else {
              escaped = true;
              i = n;
            }
            continue;
          }
          if (q === -1) {
            i = n;
            break;
          }
          i = q + 1;
          inString = false;
          if (depth === 0) {
            ended = i;
            break;
          }
          continue;
        }
        let c = text.charCodeAt(i);
        while (c !== 0x22 && c !== 0x7b && c !== 0x7d && c !== 0x5b && c !== 0x5d) {
          if (++i >= n) break;
          c = text.charCodeAt(i);
        }
        if (i >= n) break;
        i++;
        if (c === 0x22) inString = true;
        else if (c === 0x7b || c === 0x5b) depth++;
        else {
          depth--;
          if (depth === 0) {
            ended = i;
            break;
          }
        }
      }
    }
    if (!this.primitive) {
      this.slashPiece = this.pieces;
      this.slashAt = slash;
    }
    const stop = ended === -1 ? n : ended;
    this.keep(text, start, stop);
    if (ended === -1) {
      this.depth = depth;
      this.inString = inString;
      this.escape = escaped;
      return n;
    }
    this.finish();
    return ended;
  }

  private keep(text: string, start: number, stop: number): void {
    const len = stop - start;
    if (len <= 0) return;
    const limit = this.capturing === "event" ? MAX_EVENT_CHARS : MAX_META_CHARS;
    if (this.partChars + len > limit) {
      if (this.capturing === "event") {
        throw new TraceError(
          "notTrace",
          `not a profiler trace: one event is longer than ${limit} characters`,
        );
      }
      this.skipMeta = true;
      this.parts = [];
    }
    this.partChars += len;
    if (!this.skipMeta) this.parts.push(start === 0 && stop === text.length ? text : text.slice(start, stop));
  }

  private finish(): void {
    const kind = this.capturing;
    const body = this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join("");
    this.capturing = null;
    this.parts = [];
    this.partChars = 0;
    if (kind === "key") {
      this.key = parseJson(body, "a key") as string;
      this.mode = "colon";
      return;
    }
    if (kind === "meta") {
      if (!this.skipMeta) this.meta[this.key] = parseJson(body, `the value of "${this.key.slice(0, 40)}"`);
      this.mode = "key";
      return;
    }
    this.sink.event(parseJson(body, "an event"));
  }
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TraceError("notTrace", `not a profiler trace: ${what} is not valid JSON`);
  }
}
