/** Number formats shared by the views, so a figure reads the same everywhere. */

/** 0.80123 → "80.1%" (the form the ETTR figures take everywhere). */
export function pct(x: number, digits = 1): string {
  return `${(x * 100).toFixed(digits)}%`;
}

/** Seconds as the largest sensible unit: "45 s", "7.0 min", "3.2 h", "1.5 d". */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "∞";
  const a = Math.abs(seconds);
  if (a < 90) return `${seconds.toFixed(a < 10 ? 1 : 0)} s`;
  if (a < 90 * 60) return `${(seconds / 60).toFixed(1)} min`;
  if (a < 48 * 3600) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} d`;
}

/** One formatter per number of digits: toLocaleString with options builds a new one at every call. */
const counters: Intl.NumberFormat[] = [];

export function count(n: number, digits = 0): string {
  let f = counters[digits];
  if (!f) {
    f = new Intl.NumberFormat("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
    counters[digits] = f;
  }
  return f.format(n);
}

/** Plural units written out as words, and their singular: "1 step", "1 day" (symbols such as s, min, h are left as they are). */
const SINGULAR: Readonly<Record<string, string>> = {
  steps: "step",
  days: "day",
  hours: "hour",
  minutes: "minute",
  seconds: "second",
  runs: "run",
  GPUs: "GPU",
  replicas: "replica",
  hosts: "host",
};

/** A unit after a value: its singular for exactly 1 where the unit is a plural word ("1 step", "2 steps", "1 s"). */
export function unitAfter(v: number, unit: string): string {
  return v === 1 ? (SINGULAR[unit] ?? unit) : unit;
}
