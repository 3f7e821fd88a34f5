import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { describe, expect, it } from "vitest";
import { Rng } from "./rng.ts";

const draws = (seed: number, n: number, f: (r: Rng) => number) => {
  const r = new Rng(seed);
  return Array.from({ length: n }, () => f(r));
};

describe("Rng", () => {
  it("draws exactly pure-rand's xoroshiro128+ and uniformFloat64 sequence (every run's numbers rest on it)", () => {
    // Rng's seeding: pure-rand's generator on Murmur3's finaliser of the seed, 32 draws skipped.
    const mix32 = (x: number) => {
      let h = x >>> 0;
      h = Math.imul(h ^ (h >>> 16), 0x85eb_ca6b);
      h = Math.imul(h ^ (h >>> 13), 0xc2b2_ae35);
      return (h ^ (h >>> 16)) >>> 0;
    };
    for (const seed of [0, 1, 2, 42, 1_000_003, 2 ** 31, 2 ** 32 - 1]) {
      const gen = xoroshiro128plus(mix32(seed) | 0);
      for (let i = 0; i < 32; i++) gen.next();
      const ours = new Rng(seed);
      for (let i = 0; i < 2000; i++) expect(ours.uniform()).toBe(uniformFloat64(gen));
    }
  });

  it("repeats its sequence for a seed, and consecutive seeds give unrelated sequences", () => {
    expect(draws(42, 100, (r) => r.uniform())).toEqual(draws(42, 100, (r) => r.uniform()));
    const a = draws(1, 1000, (r) => r.uniform());
    const b = draws(2, 1000, (r) => r.uniform());
    // Pearson correlation of the two sequences: about 0 ± 1/√1000 for independent ones.
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const ma = mean(a);
    const mb = mean(b);
    const cov = mean(a.map((x, i) => (x - ma) * (b[i]! - mb)));
    const sd = (xs: number[], m: number) => Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
    expect(Math.abs(cov / (sd(a, ma) * sd(b, mb)))).toBeLessThan(4 / Math.sqrt(1000));
  });

  it("draws uniforms in [0, 1) on the 2^-53 grid, evenly spread", () => {
    const n = 20_000;
    const us = draws(7, n, (r) => r.uniform());
    expect(us.every((u) => u >= 0 && u < 1 && Number.isInteger(u * 2 ** 53))).toBe(true);
    // Kolmogorov–Smirnov distance against U(0, 1); 1.63/√n is its 1 % critical value.
    const sorted = [...us].sort((x, y) => x - y);
    const ks = Math.max(...sorted.map((u, i) => Math.max((i + 1) / n - u, u - i / n)));
    expect(ks).toBeLessThan(1.63 / Math.sqrt(n));
  });

  it("draws exponentials with mean 1/rate", () => {
    const n = 20_000;
    const rate = 0.25;
    const xs = draws(9, n, (r) => r.exponential(rate));
    expect(xs.every((x) => x >= 0 && Number.isFinite(x))).toBe(true);
    const mean = xs.reduce((s, x) => s + x, 0) / n;
    // The standard deviation of an exponential equals its mean.
    expect(Math.abs(mean - 1 / rate)).toBeLessThan((4 * (1 / rate)) / Math.sqrt(n));
  });

  it("fills a batch with exactly the uniforms uniform() draws one by one, across batches and mixed with single draws", () => {
    // Failure traces draw their uniforms in batches: the same sequence keeps every run's numbers.
    for (const seed of [0, 1, 42, 2 ** 32 - 1]) {
      const one = new Rng(seed);
      const batched = new Rng(seed);
      const buf = new Float64Array(64);
      for (const size of [1, 2, 3, 17, 64, 0, 5]) {
        batched.fill(buf, 64 - size, 64);
        for (let k = 64 - size; k < 64; k++) expect(buf[k]).toBe(one.uniform());
        expect(batched.uniform()).toBe(one.uniform());
      }
    }
  });

  it("draws integers below n, each about equally often", () => {
    const counts = new Array(5).fill(0);
    for (const k of draws(3, 10_000, (r) => r.below(5))) counts[k]++;
    for (const c of counts) expect(Math.abs(c - 2000)).toBeLessThan(4 * Math.sqrt(2000 * 0.8));
  });
});
