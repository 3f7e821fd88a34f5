import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALIGN_ELEMENTS, spanOf, splitAligned } from "./chunking.ts";

describe("splitAligned", () => {
  it("covers [0, count) exactly, in order, with every chunk starting on a 256-byte boundary", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 1, max: 16 }), (count, parts) => {
        const chunks = splitAligned(count, parts);
        expect(chunks).toHaveLength(parts);
        let next = 0;
        for (const c of chunks) {
          expect(c.offset).toBe(next);
          expect(c.length).toBeGreaterThanOrEqual(0);
          if (c.length > 0) expect((c.offset * 4) % 256).toBe(0);
          next = c.offset + c.length;
        }
        expect(next).toBe(count);
      }),
    );
  });

  it("balances chunks to within one alignment block", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 1, max: 16 }), (count, parts) => {
        const full = splitAligned(count, parts)
          .slice(0, -1)
          .map((c) => c.length);
        if (full.length > 0)
          expect(Math.max(...full) - Math.min(...full)).toBeLessThanOrEqual(ALIGN_ELEMENTS);
      }),
    );
  });

  it("leaves trailing chunks empty when the buffer has fewer blocks than parts", () => {
    expect(splitAligned(100, 4)).toEqual([
      { offset: 0, length: 64 },
      { offset: 64, length: 36 },
      { offset: 100, length: 0 },
      { offset: 100, length: 0 },
    ]);
  });

  it("spans consecutive chunks", () => {
    const chunks = splitAligned(1000, 4);
    expect(spanOf(chunks, 1, 3)).toEqual({ offset: 256, length: 512 });
    expect(() => spanOf(chunks, 2, 2)).toThrow();
  });

  it("rejects nonsense sizes", () => {
    expect(() => splitAligned(-1, 2)).toThrow(/count/);
    expect(() => splitAligned(10, 0)).toThrow(/parts/);
  });
});
