/**
 * What a crafted file costs, and what it may claim: a gzip of whitespace is refused once the
 * text before the first event passes its bound (not after inflating to its end), a gzip bomb's
 * piece is inflated in pieces of bounded size, and a rank or world size no job can have is
 * refused by name.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { measureSet } from "./ranks.ts";
import { readTraceText } from "./readTrace.ts";
import { GUNZIP_SLICE, TraceByteReader, type Utf8StreamDecoder } from "./traceBytes.ts";
import { TraceError } from "./traceError.ts";
import { MAX_CHARS_BEFORE_EVENTS } from "./traceText.ts";

/** A decoder that remembers the largest piece of text it was handed. */
function spyDecoder(): Utf8StreamDecoder & { largest: number } {
  const d = new TextDecoder("utf-8");
  const spy = {
    largest: 0,
    decode(input?: Uint8Array, options?: { stream?: boolean }) {
      spy.largest = Math.max(spy.largest, input?.length ?? 0);
      return d.decode(input, options);
    },
  };
  return spy;
}

/** Pushes `bytes` in 1 MiB pieces (as `npm run trace` reads) until the reader refuses. */
function readUntilRefused(bytes: Uint8Array, decoder: Utf8StreamDecoder = new TextDecoder("utf-8")) {
  const r = new TraceByteReader("bomb.json.gz", decoder);
  const piece = 1 << 20;
  try {
    for (let i = 0; i < bytes.length; i += piece) r.push(bytes.subarray(i, i + piece));
    r.end();
  } catch (e) {
    if (!(e instanceof TraceError)) throw e;
    return { error: e, textBytes: r.textBytes };
  }
  return { error: null, textBytes: r.textBytes };
}

const gz = (text: string | Buffer) => new Uint8Array(gzipSync(text, { level: 9 }));

describe("a gzip bomb costs what its bound allows", { timeout: 60_000 }, () => {
  // 128 MB of whitespace in 125 KB of gzip: read whole, it was called "empty" after 15 s.
  const spaces = gz(Buffer.alloc(128e6, 0x20));

  it("whitespace is refused once the text before the first event passes the bound", () => {
    const r = readUntilRefused(spaces);
    expect(r.error?.kind).toBe("notTrace");
    expect(r.error?.message).toMatch(/no event in the first 32 Mi characters/);
    // Stopped within one piece of the bound, far short of the 128 MB inside.
    expect(r.textBytes).toBeLessThan(MAX_CHARS_BEFORE_EVENTS + 1100 * GUNZIP_SLICE);
  });

  it("so is whitespace inside the events list, before its first event", () => {
    const text = Buffer.concat([
      Buffer.from('{"traceEvents": ['),
      Buffer.alloc(64e6, 0x20),
      Buffer.from("]}"),
    ]);
    const r = readUntilRefused(gz(text));
    expect(r.error?.message).toMatch(/no event in the first/);
  });

  it("a 1 MiB piece of a bomb is inflated into pieces of at most ~16 MB of text, not one string", () => {
    const spy = spyDecoder();
    readUntilRefused(spaces.subarray(0, 1 << 20), spy);
    expect(spy.largest).toBeGreaterThan(0);
    expect(spy.largest).toBeLessThanOrEqual(1100 * GUNZIP_SLICE);
  });

  it("a trace with its events is read as before, in any piece size", () => {
    const text = `{"traceEvents": [${'{"ph":"X","name":"k","cat":"cpu_op","ts":1,"dur":2},'.repeat(5000)}{"ph":"i"}]}`;
    const r = readUntilRefused(gz(text));
    expect(r.error).toBeNull();
    expect(r.textBytes).toBe(text.length);
  });
});

describe("impossible rank metadata is refused by name", () => {
  const trace = (info: Record<string, unknown> | null, file = "t.json") =>
    readTraceText(
      file,
      JSON.stringify({
        ...(info === null ? {} : { distributedInfo: info }),
        traceEvents: [{ ph: "X", cat: "cpu_op", name: "aten::add", ts: 1, dur: 2, tid: 1 }],
      }),
    );
  const refusal = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      if (e instanceof TraceError) return `${e.kind}: ${e.message}`;
      throw e;
    }
    return "accepted";
  };

  it("rank −1, rank 5 of world size 2, world size 10¹², a fractional rank", () => {
    expect(refusal(() => trace({ rank: -1, world_size: 2 }))).toBe(
      "badRank: distributedInfo's rank is -1: a rank is a whole number from 0 to 1 (world size 2)",
    );
    expect(refusal(() => trace({ rank: 5, world_size: 2 }))).toMatch(
      /^badRank: distributedInfo's rank is 5: .* from 0 to 1 \(world size 2\)/,
    );
    expect(refusal(() => trace({ rank: 0, world_size: 1e12 }))).toBe(
      "badRank: distributedInfo's world_size is 1000000000000: a world size is a whole number from 1 to 1,000,000",
    );
    expect(refusal(() => trace({ rank: 0, world_size: 0 }))).toMatch(/^badRank: .*world_size is 0/);
    expect(refusal(() => trace({ rank: 1.5, world_size: 4 }))).toMatch(/^badRank: .*rank is 1.5/);
  });

  it("a rank read from the file name is held to the same bounds", () => {
    const t = trace(null, "rank99999999999.json");
    expect(refusal(() => measureSet([t], { allSteps: false }))).toMatch(
      /^badRank: the file name's \(rank99999999999.json\) rank is 99999999999: a rank is a whole number from 0 to 999,999/,
    );
  });

  it("possible ones are read as before", () => {
    expect(trace({ rank: 1, world_size: 2, backend: "nccl" })).toMatchObject({ rank: 1, worldSize: 2 });
    const set = measureSet([trace(null, "rank3.json")], { allSteps: false });
    expect(set.ranks[0]?.rank).toBe(3);
  });
});
