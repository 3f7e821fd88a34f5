/**
 * The scenario keeps shares as weights (normalised over the list, so old links keep their
 * meaning), but a person thinks in percentages: typing 10 for one of two causes means 10 %, not
 * a weight of 10 beside the other's 1 (91 %). So an edited row gets exactly p, and the others
 * share the remaining 100 − p in the proportions they had; the weights then sum to 100.
 */
export function withPercent(weights: readonly number[], i: number, p: number): number[] {
  let others = 0;
  for (let j = 0; j < weights.length; j++) if (j !== i) others += weights[j] ?? 0;
  return weights.map((w, j) => {
    if (j === i) return p;
    const exact = (w / others) * (100 - p);
    // Four decimals keep links short; a share so small it would round to 0 stays exact.
    const rounded = Math.round(exact * 1e4) / 1e4;
    return rounded > 0 ? rounded : exact;
  });
}
