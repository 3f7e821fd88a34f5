/** Ticks and labels for simulated time (seconds from the start), in days, hours, minutes, seconds. */
const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

const STEPS = [
  1,
  2,
  5,
  10,
  15,
  30,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  5 * DAY,
  7 * DAY,
  10 * DAY,
  30 * DAY,
  90 * DAY,
];

/** Round-number tick times in [t0, t1], about `target` of them, and the step between them. */
export function timeTicks(t0: number, t1: number, target: number): { step: number; ticks: number[] } {
  const want = (t1 - t0) / Math.max(1, target);
  const step = STEPS.find((s) => s >= want) ?? (STEPS.at(-1) as number);
  const ticks: number[] = [];
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) ticks.push(t);
  return { step, ticks };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "day 3 14:05:30": where in the run an instant is (days count from 0, as on the axis). */
export function formatClock(t: number): string {
  const d = Math.floor(t / DAY);
  const rest = t - d * DAY;
  const h = Math.floor(rest / HOUR);
  const m = Math.floor((rest % HOUR) / MINUTE);
  const s = Math.floor(rest % MINUTE);
  return `day ${d} ${pad(h)}:${pad(m)}:${pad(s)}`;
}

/** A tick label no more precise than the step: "day 3", "d3 14:00", "d3 14:05:30". */
export function formatTick(t: number, step: number): string {
  const d = Math.floor(t / DAY);
  if (step >= DAY) return `day ${d}`;
  const rest = Math.round(t - d * DAY);
  const h = Math.floor(rest / HOUR);
  const m = Math.floor((rest % HOUR) / MINUTE);
  const s = rest % MINUTE;
  return step >= MINUTE ? `d${d} ${pad(h)}:${pad(m)}` : `d${d} ${pad(h)}:${pad(m)}:${pad(s)}`;
}
