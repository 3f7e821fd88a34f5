/**
 * The failures of one run, drawn once: both policies consume the same trace, so their
 * difference is the policies', not the dice's (docs/model.md §1 "Failures", §3).
 *
 * Each row is one failure event: when, which cause, and what it strikes. What it strikes is a
 * run of hosts (one host, one rack, or none for a job-scope failure) and, through the placement,
 * a cyclic run of replicas: replica (replica + j) mod R for j < replicaCount. Both placements
 * make a rack's replicas such a run, so no per-event list is ever allocated.
 */

import { Rng } from "../rng.ts";
import { derived } from "../scenario/derived.ts";
import type { Scenario } from "../scenario/index.ts";
import type { SlowEpisodes } from "../slow/slowTypes.ts";
import { ScopeCode } from "../types.ts";
import { arrivalProcess } from "./arrivals.ts";
import { type CauseTable, causeTable, drawCause } from "./causes.ts";
import { lemonPicker } from "./lemons.ts";

/** Failures in time order, strictly before the horizon; rows are the same index across arrays. */
export interface FailureTrace {
  count: number;
  /** The run's seed: §5's lognormal repairs are drawn from it (spares.ts), per failure and host. */
  seed: number;
  time: Float64Array;
  /** The first host struck (−1 for job scope). */
  host: Int32Array;
  /** Hosts struck: host, host + 1, ..., host + hostCount − 1. */
  hostCount: Int32Array;
  /** The first FT-HSDP replica struck (−1 for job scope). */
  replica: Int32Array;
  /** Replicas struck: (replica + j) mod R for j < replicaCount; R for job scope. */
  replicaCount: Int32Array;
  /** 1 = hang, 0 = fail-stop. */
  hang: Uint8Array;
  /** 1 = the struck hosts break and need replacements. */
  newHost: Uint8Array;
  /** ScopeCode. */
  scope: Uint8Array;
  /** Index into scenario.failures.causes; −1 without a cause mix. */
  cause: Int8Array;
  /** The synchronous job's detection delay: hangSeconds for a hang, failStopSeconds otherwise. */
  detectSeconds: Float64Array;
  /** FT-HSDP's detection delay (FTAR's hang timeout applies). */
  ftDetectSeconds: Float64Array;
  /** §6: 1 = the eviction of a slow host (slowEpisodes.ts's withEvictions adds these rows). */
  evicted: Uint8Array;
  /** §6: the run's slow episodes, when it has any (the policies read their rate from them). */
  slow?: SlowEpisodes;
}

export function allocateTrace(capacity: number, seed = 0): FailureTrace {
  return {
    count: 0,
    seed,
    time: new Float64Array(capacity),
    host: new Int32Array(capacity),
    hostCount: new Int32Array(capacity),
    replica: new Int32Array(capacity),
    replicaCount: new Int32Array(capacity),
    hang: new Uint8Array(capacity),
    newHost: new Uint8Array(capacity),
    scope: new Uint8Array(capacity),
    cause: new Int8Array(capacity),
    detectSeconds: new Float64Array(capacity),
    ftDetectSeconds: new Float64Array(capacity),
    evicted: new Uint8Array(capacity),
    // Present from the start, so a trace with slow episodes (withEvictions' copy) has the same
    // shape as one without: the policies' loops then see one kind of trace object. With two, a
    // process running both (a bench, a sweep over slow.perHostDay) ran FT-HSDP's loop up to 1.3×
    // as long, by how V8 happened to compile it (bench/abRows.ts; numbers unchanged to the bit).
    slow: undefined,
  };
}

export function growTrace(t: FailureTrace): FailureTrace {
  const bigger = allocateTrace(t.time.length * 2, t.seed);
  bigger.count = t.count;
  for (const k of Object.keys(t) as (keyof FailureTrace)[]) {
    const column = t[k];
    if (ArrayBuffer.isView(column)) (bigger[k] as typeof column).set(column as never);
  }
  return bigger;
}

/** Where a scenario's hosts sit: which replica a host serves and which replicas a host run strikes. */
export class Layout {
  readonly hosts: number;
  readonly replicas: number;
  readonly hostsPerReplica: number;
  readonly hostsPerRack: number;
  readonly striped: boolean;

  constructor(s: Scenario) {
    const d = derived(s);
    this.hosts = d.hosts;
    this.replicas = s.cluster.replicas;
    this.hostsPerReplica = d.hostsPerReplica;
    this.hostsPerRack = s.cluster.hostsPerRack;
    this.striped = s.cluster.placement === "striped";
  }

  /** packed: ⌊h / hostsPerReplica⌋ (version 1); striped: h mod R. */
  replicaOf(host: number): number {
    return this.striped ? host % this.replicas : Math.floor(host / this.hostsPerReplica);
  }

  /** How many replicas the hosts first .. first + count − 1 strike (a cyclic run from replicaOf(first)). */
  replicaCountOf(first: number, count: number): number {
    // One host is one replica under either placement: the common case skips two divisions.
    if (count === 1) return 1;
    if (this.striped) return Math.min(count, this.replicas);
    return this.replicaOf(first + count - 1) - this.replicaOf(first) + 1;
  }
}

/** The rack host h sits in: racks are runs of hostsPerRack adjacent hosts (rack k: hosts k·n .. k·n + n − 1). */
export function rackOf(host: number, hostsPerRack: number): number {
  return Math.floor(host / hostsPerRack);
}

/**
 * The replicas an event strikes, (replica + j) mod R for j < replicaCount, as at most two
 * inclusive ranges [a, b] in increasing order: the cyclic run split where it wraps past R − 1.
 * Empty for a job-scope event (replica −1), which strikes the job, not a run of replicas.
 */
export function struckReplicaRanges(
  replica: number,
  replicaCount: number,
  replicas: number,
): [number, number][] {
  if (replica < 0 || replicaCount <= 0) return [];
  const count = Math.min(replicaCount, replicas);
  const last = replica + count - 1;
  if (last < replicas) return [[replica, last]];
  return [
    [0, last - replicas],
    [replica, replicas - 1],
  ];
}

/** Fill row i with an event of cause c striking `count` hosts from `first` (count 0: the job). */
export function strike(
  t: FailureTrace,
  i: number,
  layout: Layout,
  causes: CauseTable,
  c: number,
  first: number,
  count: number,
): void {
  t.host[i] = count > 0 ? first : -1;
  t.hostCount[i] = count;
  t.replica[i] = count > 0 ? layout.replicaOf(first) : -1;
  t.replicaCount[i] = count > 0 ? layout.replicaCountOf(first, count) : layout.replicas;
  t.hang[i] = causes.hang[c]!;
  t.newHost[i] = causes.newHost[c]!;
  t.scope[i] = causes.scope[c]!;
  t.cause[i] = causes.explicit ? c : -1;
  t.detectSeconds[i] = causes.syncDetectSeconds[c]!;
  t.ftDetectSeconds[i] = causes.ftDetectSeconds[c]!;
}

/**
 * The trace a Monte Carlo run draws into (reuse = true): its columns are kept from run to run,
 * because allocating eleven failure-sized typed arrays for every seed cost more than a tenth of
 * a default run (off-heap buffers, and the garbage collections they trigger). Only rows below
 * `count` are meaningful, and every reader stops there. The caller must be done with the trace
 * before the next reuse: runScenario keeps nothing of it in an unrecorded result.
 */
let scratch: FailureTrace | null = null;

function reused(capacity: number): FailureTrace {
  if (scratch === null || scratch.time.length < capacity) scratch = allocateTrace(capacity);
  scratch.count = 0;
  return scratch;
}

/** Version 1's two implicit causes: 0 = fail-stop, 1 = hang (see causes.ts). */
const V1_FAIL_STOP = 0;
const V1_HANG = 1;

/**
 * The uniforms a trace is drawn from, in batches of this many (Rng.fill), kept from run to run.
 * An event takes at most MAX_DRAWS: its arrival, then the host and the hang coin (version 1), or
 * the cause and the host or rack.
 */
const BATCH = 1024;
const MAX_DRAWS = 3;
const uniforms = new Float64Array(BATCH);

/**
 * Draw the failures of scenario s with the given seed. Per event, in this order: the
 * inter-arrival time (none for fixed arrivals), then, without a cause mix, the host and the hang
 * coin — version 1's draws exactly; the coin is drawn even when hangFraction is 0 or 1, so
 * changing it flips labels without moving any failure — or, with a cause mix, the cause and then
 * the host (host scope) or the rack (rack scope); a job-scope event draws nothing more.
 *
 * The uniforms are drawn ahead in batches and taken in order, so the sequence (and every number)
 * is the one of drawing each when needed; the draws left over at the horizon are never used.
 */
export function generateFailureTrace(s: Scenario, seed: number, reuse = false): FailureTrace {
  if (s.failures.arrivals === "log") return replayTrace(s, seed);
  const { hosts, racks, lambdaPerSecond, horizonSeconds, expectedFailures } = derived(s);
  // Mean + 8σ: growing is a rare fallback, not the normal path.
  const capacity = Math.ceil(expectedFailures + 8 * Math.sqrt(expectedFailures)) + 16;
  let t = reuse ? reused(capacity) : allocateTrace(capacity);
  t.seed = seed;
  if (lambdaPerSecond <= 0) return t;
  // §5's lemon slots: null without any (the uniform picks of version 3, same draws).
  const lemons = lemonPicker(s, seed);
  const rng = new Rng(seed);
  const arrival = arrivalProcess(s, lambdaPerSecond);
  const next = arrival.next;
  const arrivalDraws = arrival.draws;
  const poisson = s.failures.arrivals === "poisson";
  const causes = causeTable(s);
  const layout = new Layout(s);
  const { hangFraction } = s.failures;
  const k = s.cluster.hostsPerRack;
  const u = uniforms;
  // u[at .. BATCH − 1] are drawn and not yet taken.
  let at = BATCH;
  let now = 0;
  for (let n = 1; ; n++) {
    if (at > BATCH - MAX_DRAWS) {
      // The few not taken move to the front, and the rest of the batch is drawn after them.
      const left = BATCH - at;
      u.copyWithin(0, at, BATCH);
      rng.fill(u, left, BATCH);
      at = 0;
    }
    // Poisson (the default) is written out: a call V8 leaves out of line returns its double boxed.
    if (poisson) now = now + -Math.log(1 - u[at]!) / lambdaPerSecond;
    else now = next(u[at]!, now, n);
    at += arrivalDraws;
    if (now >= horizonSeconds) break;
    if (t.count === t.time.length) {
      t = growTrace(t);
      if (reuse) scratch = t;
    }
    const i = t.count++;
    t.time[i] = now;
    if (!causes.explicit) {
      const host = lemons === null ? Math.floor(u[at++]! * hosts) : lemons.host(u[at++]!);
      const c = u[at++]! < hangFraction ? V1_HANG : V1_FAIL_STOP;
      strike(t, i, layout, causes, c, host, 1);
      continue;
    }
    const c = drawCause(causes, u[at++]!);
    const scope = causes.scope[c]!;
    if (scope === ScopeCode.host) {
      const host = lemons === null ? Math.floor(u[at++]! * hosts) : lemons.host(u[at++]!);
      strike(t, i, layout, causes, c, host, 1);
    } else if (scope === ScopeCode.rack) {
      const rack = lemons === null ? Math.floor(u[at++]! * racks) : lemons.rack(u[at++]!);
      strike(t, i, layout, causes, c, rack * k, k);
    } else strike(t, i, layout, causes, c, 0, 0);
  }
  return t;
}

/**
 * §5: the failures of a replayed log. Each event strikes its listed hosts at once; they are
 * struck as maximal runs of adjacent host indexes, one row per run, all at the event's instant
 * (a rack, or one host, is one run: one row, exactly as drawn). A row's replicas follow from
 * its run through the placement, as for a drawn rack. Rows at one instant act as one failure
 * striking all their hosts: a failure at the instant a recovery starts restarts it from that
 * same instant with the same detection, so nothing but the count of failures tells them apart
 * (docs/model.md, "Replaying a log"). Every seed gives the same rows.
 */
function replayTrace(s: Scenario, seed: number): FailureTrace {
  const { horizonSeconds } = derived(s);
  const causes = causeTable(s);
  const layout = new Layout(s);
  const events = s.failures.log.events;
  let t = allocateTrace(Math.max(16, events.length), seed);
  const hosts: number[] = [];
  for (const e of events) {
    const time = e[0]!;
    if (time >= horizonSeconds) break;
    const c = e[1]!;
    hosts.length = 0;
    for (let j = 2; j < e.length; j++) hosts.push(e[j]!);
    hosts.sort((a, b) => a - b);
    let j = 0;
    do {
      let n = 1;
      while (j + n < hosts.length && hosts[j + n] === hosts[j]! + n) n++;
      if (t.count === t.time.length) t = growTrace(t);
      const i = t.count++;
      t.time[i] = time;
      // A job-scope cause lists no host: one row striking the job.
      strike(t, i, layout, causes, c, hosts.length > 0 ? hosts[j]! : 0, hosts.length > 0 ? n : 0);
      j += n;
    } while (j < hosts.length);
  }
  return t;
}

/** One hand-placed failure: a host (or the first host of a rack), or `scope: "job"`. */
export interface PlacedFailure {
  time: number;
  /** The host struck; for rack scope any host of the rack; ignored for job scope. */
  host?: number;
  hang?: boolean;
  /** Default "host". */
  scope?: "host" | "rack" | "job";
  /** Default: true, false for job scope (as a cause's default). */
  newHost?: boolean;
  /** Index into scenario.failures.causes, for the log; its scope, hang and newHost are used
   * when those are not given. */
  cause?: number;
}

/**
 * A hand-placed trace (tests, the independent reference, what-ifs): failures at the given times,
 * striking what each row says. Detection delays follow the scenario (FTAR's hang timeout too).
 */
export function failureTraceOf(s: Scenario, rows: readonly PlacedFailure[]): FailureTrace {
  const layout = new Layout(s);
  const k = s.cluster.hostsPerRack;
  const { failStopSeconds, hangSeconds } = s.detection;
  const timeout = s.ft.hangTimeoutSeconds;
  const sorted = [...rows].sort((a, b) => a.time - b.time);
  const t = allocateTrace(sorted.length, s.seed);
  t.count = sorted.length;
  sorted.forEach((row, i) => {
    const cause = row.cause === undefined ? undefined : s.failures.causes[row.cause];
    const scope = row.scope ?? cause?.scope ?? "host";
    const hang = row.hang ?? cause?.hang ?? false;
    const host = row.host ?? 0;
    const first = scope === "rack" ? host - (host % k) : host;
    const count = scope === "job" ? 0 : scope === "rack" ? k : 1;
    t.time[i] = row.time;
    t.host[i] = count > 0 ? first : -1;
    t.hostCount[i] = count;
    t.replica[i] = count > 0 ? layout.replicaOf(first) : -1;
    t.replicaCount[i] = count > 0 ? layout.replicaCountOf(first, count) : layout.replicas;
    t.hang[i] = hang ? 1 : 0;
    t.newHost[i] = (row.newHost ?? cause?.newHost ?? scope !== "job") ? 1 : 0;
    t.scope[i] = ScopeCode[scope];
    t.cause[i] = row.cause ?? -1;
    t.detectSeconds[i] = hang ? hangSeconds : failStopSeconds;
    t.ftDetectSeconds[i] =
      hang && timeout > 0 ? Math.min(hangSeconds, timeout) : hang ? hangSeconds : failStopSeconds;
  });
  return t;
}
