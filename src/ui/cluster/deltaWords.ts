/**
 * How a Monte Carlo difference and its error read, in points: the cards' and the comparison's
 * ETTR (McBand.tsx, CompareWith.tsx) and the comparison's badput shares (badputPairs.ts). Apart
 * from McBand.tsx so that plain modules (and the e2e spec, through badputPairs.ts) need no React.
 */

/** Decimals that show a half-width: 1 down to ±0.1 point, then 2 (a tighter band needs them). */
export function digitsFor(halfPoints: number): number {
  return halfPoints >= 0.095 ? 1 : 2;
}

/** "+3.1 ± 0.4 points": a difference of two fractions (ETTR, a badput share) and its 95 % error, in points. */
export function deltaText(d: { mean: number; half: number }): string {
  const dig = digitsFor(d.half * 100);
  const v = (d.mean * 100).toFixed(dig);
  const signed = v.startsWith("-") ? `−${v.slice(1)}` : `+${v}`;
  return `${signed} ± ${(d.half * 100).toFixed(dig)} points`;
}
