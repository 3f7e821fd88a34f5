/**
 * The reference's own reading of docs/model.md §3 "New fields", "Racks and placement", "Arrivals"
 * and "Detection": what a failure event is, which hosts and replicas it strikes, how long each
 * policy takes to detect it, and a failure generator with dice of its own. Written from the spec
 * alone, beside the engine, so the two can be compared (./independent.test.ts).
 */
import type { FailureTrace } from "../../sim/failures/failureTrace.ts";
import { derived, type Scenario } from "../../sim/scenario/index.ts";

export type Scope = "host" | "rack" | "job";

export interface Cause {
  name: string;
  share: number;
  scope: Scope;
  hang: boolean;
  newHost: boolean;
}

/** The §3 fields, named as the reference reads them; V1_KNOBS are their version-1 defaults. */
export interface Knobs {
  hostsPerRack: number;
  placement: "packed" | "striped";
  arrivals: "poisson" | "fixed" | "weibull";
  weibullShape: number;
  causes: readonly Cause[];
  hangTimeoutSeconds: number;
  ftCheckpointMinutes: number;
  ftCheckpointWriteSeconds: number;
  pool: "unlimited" | "limited";
  spareHosts: number;
  repairHours: number;
  /** §5: lemon slots' share and how many times as often they fail. */
  badShare: number;
  badFactor: number;
  /** §5: repairs take repairHours, or repairHours × e^(σZ). */
  repairLaw: "fixed" | "lognormal";
  repairSigma: number;
}

export const V1_KNOBS: Omit<Knobs, "arrivals"> = {
  hostsPerRack: 1,
  placement: "packed",
  weibullShape: 1,
  causes: [],
  hangTimeoutSeconds: 0,
  ftCheckpointMinutes: 0,
  ftCheckpointWriteSeconds: 0,
  pool: "unlimited",
  spareHosts: 0,
  repairHours: 24,
  badShare: 0,
  badFactor: 1,
  repairLaw: "fixed",
  repairSigma: 1,
};

/** A version-1 scenario's knobs: every §3 field at its default. */
export function v1Knobs(s: Scenario): Knobs {
  return { ...V1_KNOBS, arrivals: drawnArrivals(s) };
}

/** The reference draws arrivals; a replay of a log (§5) has none to draw. */
export function drawnArrivals(s: Scenario): Knobs["arrivals"] {
  const a = s.failures.arrivals;
  if (a === "log") throw new Error("the reference draws failures; a replay has its own (failureTraceOf)");
  return a;
}

/** One failure event (§3 "Arrivals": each arrival is one event). */
export interface Failure {
  time: number;
  scope: Scope;
  /** host scope: the host; rack scope: the rack; job scope: unused (−1). */
  target: number;
  hang: boolean;
  newHost: boolean;
  /** Index in knobs.causes; −1 for a version-1 failure (no cause list). */
  cause: number;
  /**
   * §5: each struck host's repair as a multiple of repairHours (hostsStruck's order), drawn with
   * the failure; absent = 1 (fixed repairs).
   */
  repair?: number[];
  /** §6: the eviction of a slow host (host scope, new host, found at once: no detection). */
  evicted?: boolean;
}

/** Hosts the event strikes: one host, every host of one rack, or none (the job as a whole). */
export function hostsStruck(k: Knobs, f: Failure): number[] {
  if (f.scope === "host") return [f.target];
  if (f.scope === "rack")
    return Array.from({ length: k.hostsPerRack }, (_, j) => f.target * k.hostsPerRack + j);
  return [];
}

/** §3 "Racks and placement": packed = blocks of adjacent hosts, striped = host mod R. */
export function replicaOfHost(s: Scenario, k: Knobs, host: number): number {
  const R = s.cluster.replicas;
  return k.placement === "striped" ? host % R : Math.floor(host / derived(s).hostsPerReplica);
}

/** §3 "Detection": the watchdog for the synchronous job. */
export function syncDetectSeconds(s: Scenario, f: Failure): number {
  if (f.evicted) return 0;
  return f.hang ? s.detection.hangSeconds : s.detection.failStopSeconds;
}

/** §3 "Detection": FT-HSDP's FTAR drops a hung member after its own timeout when that is sooner. */
export function ftDetectSeconds(s: Scenario, k: Knobs, f: Failure): number {
  if (f.evicted) return 0;
  if (!f.hang) return s.detection.failStopSeconds;
  return k.hangTimeoutSeconds > 0
    ? Math.min(s.detection.hangSeconds, k.hangTimeoutSeconds)
    : s.detection.hangSeconds;
}

/** A version-1 trace (one host each, newHost) as reference events. */
export function failuresOfTrace(f: FailureTrace): Failure[] {
  return Array.from({ length: f.count }, (_, i) => ({
    time: f.time[i]!,
    scope: "host" as const,
    target: f.host[i]!,
    hang: f.hang[i] === 1,
    newHost: true,
    cause: -1,
  }));
}

/**
 * Γ(x) by the Lanczos approximation (g = 7, n = 9), good to ~1e-15 relative for x in [1, 6]
 * (the Weibull scale needs Γ(1 + 1/k), k in [0.2, 5]). The reference keeps its own so that a
 * mistake in the engine's Γ shows up as a Monte Carlo disagreement.
 */
export function gamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * gamma(1 - x));
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return Math.sqrt(2 * Math.PI) * t ** (z + 0.5) * Math.exp(-t) * a;
}

/**
 * Failures drawn with a generator of its own (mulberry32), so Monte Carlo means can be compared
 * with the engine's without sharing its dice: this checks the arrival, cause, host and hang draws.
 */
export function referenceFailures(s: Scenario, k: Knobs, seed: number): Failure[] {
  const { hosts, lambdaPerSecond, horizonSeconds } = derived(s);
  const uniform = mulberry32(seed);
  const pickHost = lemonHostPicker(k, hosts, mulberry32(seed ^ 0x5bd1_e995));
  const normal = gaussian(mulberry32(seed ^ 0x1b87_3593));
  const repairs = (n: number): { repair?: number[] } =>
    k.repairLaw === "lognormal"
      ? { repair: Array.from({ length: n }, () => Math.exp(k.repairSigma * normal())) }
      : {};
  const mean = 1 / lambdaPerSecond;
  const scale = mean / gamma(1 + 1 / k.weibullShape);
  const totalShare = k.causes.reduce((a, c) => a + c.share, 0);
  const out: Failure[] = [];
  if (lambdaPerSecond <= 0) return out;
  for (let n = 1; ; n++) {
    const previous = out.at(-1)?.time ?? 0;
    let time: number;
    if (k.arrivals === "fixed") time = n * mean;
    else if (k.arrivals === "poisson") time = previous - Math.log(1 - uniform()) * mean;
    else time = previous + scale * (-Math.log(1 - uniform())) ** (1 / k.weibullShape);
    if (time >= horizonSeconds) return out;
    if (k.causes.length === 0) {
      out.push({
        time,
        scope: "host",
        target: pickHost.host(uniform()),
        hang: uniform() < s.failures.hangFraction,
        newHost: true,
        cause: -1,
        ...repairs(1),
      });
      continue;
    }
    // The cause by share (a walk over cumulative weights), then what it strikes.
    let u = uniform() * totalShare;
    let cause = 0;
    while (cause < k.causes.length - 1 && u >= k.causes[cause]!.share) u -= k.causes[cause++]!.share;
    const c = k.causes[cause]!;
    const target =
      c.scope === "host" ? pickHost.host(uniform()) : c.scope === "rack" ? pickHost.rack(uniform()) : -1;
    const struck = c.scope === "host" ? 1 : c.scope === "rack" ? k.hostsPerRack : 0;
    out.push({ time, scope: c.scope, target, hang: c.hang, newHost: c.newHost, cause, ...repairs(struck) });
  }
}

/** mulberry32: the reference's own dice (not the engine's xoroshiro). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Standard normals by the polar (Marsaglia) method: not the engine's Box–Muller. */
export function gaussian(uniform: () => number): () => number {
  return () => {
    for (;;) {
      const a = 2 * uniform() - 1;
      const b = 2 * uniform() - 1;
      const r = a * a + b * b;
      if (r > 0 && r < 1) return a * Math.sqrt((-2 * Math.log(r)) / r);
    }
  };
}

/**
 * §5 "badHosts" read from the spec: exactly round(share × hosts) lemon slots, chosen uniformly
 * (rejection sampling, not the engine's shuffle); a host is picked with probability ∝ its rate
 * (1 for a good slot, factor for a lemon: the ratio is all a pick needs), a rack ∝ its hosts'
 * sum. A walk over the slots, slow and plain.
 */
function lemonHostPicker(k: Knobs, hosts: number, uniform: () => number) {
  const bad = new Set<number>();
  const n = Math.round(k.badShare * hosts);
  while (bad.size < n) bad.add(Math.floor(uniform() * hosts));
  const rate = (h: number) => (bad.has(h) ? k.badFactor : 1);
  const walk = (count: number, weight: (i: number) => number, u: number): number => {
    let total = 0;
    for (let i = 0; i < count; i++) total += weight(i);
    let x = u * total;
    for (let i = 0; i < count; i++) {
      x -= weight(i);
      if (x < 0) return i;
    }
    return count - 1;
  };
  const rackWeight = (r: number) => {
    let w = 0;
    for (let j = 0; j < k.hostsPerRack; j++) w += rate(r * k.hostsPerRack + j);
    return w;
  };
  return {
    host: (u: number) => (n === 0 ? Math.floor(u * hosts) : walk(hosts, rate, u)),
    rack: (u: number) =>
      n === 0 ? Math.floor(u * (hosts / k.hostsPerRack)) : walk(hosts / k.hostsPerRack, rackWeight, u),
  };
}
