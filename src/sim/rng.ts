/**
 * The seeded generator behind every random number of the cluster model.
 *
 * xoroshiro128+ (pure-rand's, see Rng) works on 32-bit integer arithmetic only (no Math.random, no
 * platform-dependent floats), so a seed gives the same sequence in Node, browsers and workers.
 * Doubles take 53 random bits (pure-rand's uniformFloat64); the exponential is −ln(1 − u)/rate.
 * Math.log is not required by ECMAScript to be correctly rounded, but V8, SpiderMonkey and
 * JavaScriptCore all use the same fdlibm-derived implementation.
 */
/** Neighbouring seeds start xoroshiro128+ in nearly equal states; these draws decorrelate them. */
const WARM_UP_DRAWS = 32;

/** Murmur3's 32-bit finaliser: spreads the bits of consecutive seeds (Monte Carlo uses s, s+1, ...). */
function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85eb_ca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2_ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** uniformFloat64's two draws: the low 26 bits of one, then the low 27 of the next. */
const MASK_26 = 0x3ff_ffff;
const MASK_27 = 0x7ff_ffff;

/**
 * pure-rand's xoroshiro128plus and uniformFloat64, step for step (rng.test.ts compares them
 * draw by draw), written out here so that no call returns a value V8 must box: pure-rand's
 * next() returns a full 32-bit integer (past a small integer's 31 bits it becomes a heap
 * number when the call is not inlined, as half the draws do), and every uniform then allocated
 * another (about 75 KB of garbage a default run). The state is an Int32Array, and bits() hands
 * back at most 27 bits.
 */
export class Rng {
  /** pure-rand's s01, s00, s11, s10. */
  private readonly s = new Int32Array(4);

  /** seed: an integer in [0, 2^32); others are reduced modulo 2^32. */
  constructor(seed: number) {
    // pure-rand's xoroshiro128plus(seed): (s01, s00, s11, s10) = (−1, ~seed, seed | 0, 0).
    const x = mix32(seed) | 0;
    this.s[0] = -1;
    this.s[1] = ~x;
    this.s[2] = x;
    this.s[3] = 0;
    for (let i = 0; i < WARM_UP_DRAWS; i++) this.bits(0);
  }

  /** One step of xoroshiro128+: its 32-bit output, masked. */
  private bits(mask: number): number {
    const s = this.s;
    const s01 = s[0]!;
    const s00 = s[1]!;
    const s11 = s[2]!;
    const s10 = s[3]!;
    const out = (s00 + s10) | 0;
    const a0 = s10 ^ s00;
    const a1 = s11 ^ s01;
    s[1] = (s00 << 24) ^ (s01 >>> 8) ^ a0 ^ (a0 << 16);
    s[0] = (s01 << 24) ^ (s00 >>> 8) ^ a1 ^ ((a1 << 16) | (a0 >>> 16));
    s[3] = (a1 << 5) ^ (a0 >>> 27);
    s[2] = (a0 << 5) ^ (a1 >>> 27);
    return out & mask;
  }

  /** Uniform in [0, 1), a multiple of 2^−53. */
  uniform(): number {
    const high = this.bits(MASK_26);
    const low = this.bits(MASK_27);
    return high * 2 ** -26 + low * 2 ** -53;
  }

  /**
   * uniform() for each of out[from], ..., out[to − 1], in that order: the same draws, with the
   * state in local variables for the whole batch. A failure trace takes its uniforms this way
   * (generateFailureTrace): called once per draw, uniform() and bits() were a fifth of a default
   * run, and a uniform returned from a call V8 did not inline was a heap number each time.
   */
  fill(out: Float64Array, from: number, to: number): void {
    const s = this.s;
    let s01 = s[0]!;
    let s00 = s[1]!;
    let s11 = s[2]!;
    let s10 = s[3]!;
    for (let k = from; k < to; k++) {
      // bits(MASK_26), then bits(MASK_27): xoroshiro128+'s step, written out twice.
      const high = ((s00 + s10) | 0) & MASK_26;
      let a0 = s10 ^ s00;
      let a1 = s11 ^ s01;
      const n00 = (s00 << 24) ^ (s01 >>> 8) ^ a0 ^ (a0 << 16);
      const n01 = (s01 << 24) ^ (s00 >>> 8) ^ a1 ^ ((a1 << 16) | (a0 >>> 16));
      const n10 = (a1 << 5) ^ (a0 >>> 27);
      const n11 = (a0 << 5) ^ (a1 >>> 27);
      const low = ((n00 + n10) | 0) & MASK_27;
      a0 = n10 ^ n00;
      a1 = n11 ^ n01;
      s00 = (n00 << 24) ^ (n01 >>> 8) ^ a0 ^ (a0 << 16);
      s01 = (n01 << 24) ^ (n00 >>> 8) ^ a1 ^ ((a1 << 16) | (a0 >>> 16));
      s10 = (a1 << 5) ^ (a0 >>> 27);
      s11 = (a0 << 5) ^ (a1 >>> 27);
      out[k] = high * 2 ** -26 + low * 2 ** -53;
    }
    s[0] = s01;
    s[1] = s00;
    s[2] = s11;
    s[3] = s10;
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

/**
 * The seed of a run's stream number `stream` (1, 2, …): a generator of its own, so that what it
 * draws (§5's lemon slots, lognormal repairs) moves none of the main stream's draws, and a
 * scenario that draws nothing from it keeps every number of before.
 */
export function streamSeed(seed: number, stream: number): number {
  return (mix32(seed) ^ mix32(Math.imul(0x9e37_79b9, stream) + 0x7f4a_7c15)) >>> 0;
}

/**
 * A standard normal that is a pure function of (key, a, b): §5's lognormal repair of the b-th
 * host of failure a, the same under every policy whichever order they ask in. Box–Muller on two
 * uniforms of 53 bits hashed from the three integers.
 */
export function hashedNormal(key: number, a: number, b: number): number {
  const h1 = mix32(key ^ mix32(a + 0x632b_e5ab));
  const h2 = mix32(h1 ^ mix32(b + 0x85eb_ca77));
  const h3 = mix32(h2 ^ 0x27d4_eb2f);
  const h4 = mix32(h3 ^ 0x1656_67b1);
  const u1 = (h1 & MASK_26) * 2 ** -26 + (h2 & MASK_27) * 2 ** -53 || 2 ** -53;
  const u2 = (h3 & MASK_26) * 2 ** -26 + (h4 & MASK_27) * 2 ** -53;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
