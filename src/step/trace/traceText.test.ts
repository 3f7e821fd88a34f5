/**
 * The streaming scanner cuts out the events JSON.parse would read from the whole text, however
 * the text is cut into pieces: strings full of quotes, backslashes and brackets, nested args,
 * escapes split across pieces (fast-check).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TraceTextReader } from "./traceText.ts";

const tricky = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('\\"', "\\\\", '"}]{[', "\\u0022", "ncclKernel\\n", "\u2028", "é"),
  fc
    .array(fc.constantFrom("\\", '"', "{", "}", "[", "]", ",", ":", "a"), { maxLength: 10 })
    .map((a) => a.join("")),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    tricky,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(tricky, tie("v"), { maxKeys: 3 }),
  ),
})).v;
const event = fc.record({
  ph: fc.constantFrom("X", "i"),
  name: tricky,
  ts: fc.integer(),
  args: fc.dictionary(tricky, value, { maxKeys: 4 }),
});

describe("the streaming scanner", () => {
  it("reads the events JSON.parse reads, in any pieces", () => {
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 6 }),
        fc.dictionary(fc.constantFrom("schemaVersion", "distributedInfo", "x"), value, { maxKeys: 2 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (events, meta, cuts, spaced) => {
          const text = JSON.stringify({ ...meta, traceEvents: events }, null, spaced ? 2 : undefined);
          const got: unknown[] = [];
          const r = new TraceTextReader({ event: (e) => got.push(e) });
          let at = 0;
          let k = 0;
          while (at < text.length) {
            const len = cuts[k++ % cuts.length] as number;
            r.push(text.slice(at, at + len));
            at += len;
          }
          const out = r.end();
          expect(got).toEqual(JSON.parse(text).traceEvents);
          expect(out.sawEvents).toBe(true);
        },
      ),
      { numRuns: 1500 },
    );
  });
});
