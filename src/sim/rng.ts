/**
 * The seeded generator behind every random number of the cluster model.
 *
 * pure-rand's xoroshiro128+ works on 32-bit integer arithmetic only (no Math.random, no
 * platform-dependent floats), so a seed gives the same sequence in Node, browsers and workers.
 * Doubles take 53 random bits (pure-rand's uniformFloat64); the exponential is −ln(1 − u)/rate.
 * Math.log is not required by ECMAScript to be correctly rounded, but V8, SpiderMonkey and
 * JavaScriptCore all use the same fdlibm-derived implementation.
 */
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import type { RandomGenerator } from "pure-rand/types/RandomGenerator";

/** Neighbouring seeds start xoroshiro128+ in nearly equal states; these draws decorrelate them. */
const WARM_UP_DRAWS = 32;

/** Murmur3's 32-bit finaliser: spreads the bits of consecutive seeds (Monte Carlo uses s, s+1, ...). */
function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85eb_ca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2_ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class Rng {
  private readonly gen: RandomGenerator;

  /** seed: an integer in [0, 2^32); others are reduced modulo 2^32. */
  constructor(seed: number) {
    this.gen = xoroshiro128plus(mix32(seed) | 0);
    for (let i = 0; i < WARM_UP_DRAWS; i++) this.gen.next();
  }

  /** Uniform in [0, 1), a multiple of 2^−53. */
  uniform(): number {
    return uniformFloat64(this.gen);
  }

  /** Exponential with the given rate (> 0); 1 − u keeps the argument of the log in (0, 1]. */
  exponential(rate: number): number {
    return -Math.log(1 - this.uniform()) / rate;
  }

  /** Uniform integer in [0, n): floor(u·n); the bias is below n·2^−53, nil for any cluster size. */
  below(n: number): number {
    return Math.floor(this.uniform() * n);
  }
}
