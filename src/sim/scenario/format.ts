/** Numbers as the scenario's messages write them ("1,000,000", at most six decimals). */

// One formatter for every message, made at the first one (it loads ICU's locale data, which a
// run that refuses nothing never needs): toLocaleString with options makes one per call.
let numberFormat: Intl.NumberFormat | undefined;
export function fmt(n: number): string {
  if (!numberFormat) numberFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });
  return numberFormat.format(n);
}
