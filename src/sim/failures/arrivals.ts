/**
 * Arrival processes (docs/model.md §1 "Failures", §3 "Arrivals"): when the job's failure events
 * happen. Each is one function from the previous event to the next; a new law is one entry here.
 */
import type { Arrivals, Scenario } from "../scenario/index.ts";

/**
 * The time of event k (1-based) after the event at `now`, from u, the next uniform in [0, 1) of
 * the run's sequence when the law draws one (`draws` = 1), unused otherwise. The uniforms come
 * in batches (Rng.fill), so a law takes its draw as an argument instead of drawing it.
 */
export type NextArrival = (u: number, now: number, k: number) => number;

export interface ArrivalLaw {
  /** Uniforms drawn per event: 1, or 0 for fixed arrivals. */
  draws: 0 | 1;
  next: NextArrival;
}

/** Γ(x) for x in [1, 6] (Lanczos, g = 7, n = 9: relative error below 1e−13). */
export function gamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return Math.sqrt(2 * Math.PI) * t ** (z + 0.5) * Math.exp(-t) * a;
}

/** Weibull scale θ that keeps the mean inter-arrival time at 1/λ: θ = (1/λ) / Γ(1 + 1/k). */
export function weibullScale(mtbfSeconds: number, shape: number): number {
  return mtbfSeconds / gamma(1 + 1 / shape);
}

/** The laws that draw arrivals; a replay of a log (§5) draws none (replayTrace.ts). */
export type DrawnArrivals = Exclude<Arrivals, "log">;

const ARRIVALS: Record<DrawnArrivals, (lambda: number, s: Scenario) => ArrivalLaw> = {
  // Exponential inter-arrival times: the draw version 1 made, unchanged (Rng.exponential's
  // −ln(1 − u)/rate).
  poisson: (lambda) => ({ draws: 1, next: (u, now) => now + -Math.log(1 - u) / lambda }),
  // Exactly one event every 1/λ, the first at 1/λ (k · 1/λ, not a running sum: no drift).
  fixed: (lambda) => ({ draws: 0, next: (_u, _now, k) => k * (1 / lambda) }),
  // A renewal process: θ·(−ln U)^(1/k) with U = 1 − u in (0, 1].
  weibull: (lambda, s) => {
    const k = s.failures.weibullShape;
    const theta = weibullScale(1 / lambda, k);
    const inv = 1 / k;
    return { draws: 1, next: (u, now) => now + theta * (-Math.log(1 - u)) ** inv };
  },
};

export function arrivalProcess(s: Scenario, lambda: number): ArrivalLaw {
  const law = s.failures.arrivals;
  if (law === "log") throw new Error("a replay of a log draws no arrivals (replayTrace.ts)");
  return ARRIVALS[law](lambda, s);
}
