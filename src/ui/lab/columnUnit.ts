/**
 * One unit for a column of the lab's results table, chosen from the column's values (a column once
 * read "48.2 MB/s" over "1.20 GB/s", so its figures could not be compared by eye). The unit goes in
 * the header; each cell is a number in it, with the same decimals down the column.
 */

export interface Unit {
  name: string;
  /** How many of the values' own unit one of this makes (GB/s in GB/s: 1; MB/s: 1e-3). */
  scale: number;
}

/** Largest first. */
export const BANDWIDTH_UNITS: readonly Unit[] = [
  { name: "GB/s", scale: 1 },
  { name: "MB/s", scale: 1e-3 },
  { name: "kB/s", scale: 1e-6 },
];
export const TIME_UNITS: readonly Unit[] = [
  { name: "s", scale: 1 },
  { name: "ms", scale: 1e-3 },
  { name: "µs", scale: 1e-6 },
];
export const SIZE_UNITS: readonly Unit[] = [
  { name: "GiB", scale: 1024 ** 3 },
  { name: "MiB", scale: 1024 ** 2 },
  { name: "KiB", scale: 1024 },
  { name: "B", scale: 1 },
];

export interface ColumnUnit {
  unit: string;
  /** A value of the column, in the unit, with the column's decimals. */
  format(value: number): string;
}

/** Past this many decimals a column reads as noise; a smaller unit is chosen instead. */
const MAX_DIGITS = 3;

const digitsFor = (x: number, significant: number) =>
  x > 0 ? Math.max(0, significant - 1 - Math.floor(Math.log10(x))) : 0;

/**
 * The largest unit in which the column's smallest value still shows two significant digits within
 * three decimals (else the smallest unit); decimals enough for two significant digits of the
 * smallest value and three of the largest, at most three, none when every value is whole.
 */
export function columnUnit(values: readonly number[], units: readonly Unit[]): ColumnUnit {
  const finite = values.filter((v) => Number.isFinite(v) && v > 0);
  const min = finite.length > 0 ? Math.min(...finite) : 1;
  const max = finite.length > 0 ? Math.max(...finite) : 1;
  const last = units[units.length - 1];
  if (!last) throw new Error("a column needs at least one unit");
  const unit = units.find((u) => digitsFor(min / u.scale, 2) <= MAX_DIGITS) ?? last;
  const whole = finite.every((v) => Number.isInteger(v / unit.scale));
  const digits = whole
    ? 0
    : Math.min(MAX_DIGITS, Math.max(digitsFor(min / unit.scale, 2), digitsFor(max / unit.scale, 3)));
  return {
    unit: unit.name,
    format: (v) =>
      (v / unit.scale).toLocaleString("en-US", {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      }),
  };
}
