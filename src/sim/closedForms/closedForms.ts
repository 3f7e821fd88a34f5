/**
 * The closed forms shown beside the simulation (docs/model.md §1 "Metrics", §3 "Closed forms,
 * version 2", as corrected). Each form says what it assumes; where the scenario breaks an
 * assumption (Weibull or other arrivals, a limited spare pool, job-scope causes, racks striking
 * several replicas, recoveries that overlap, a rollback the form ignores) its value is null and
 * its note says why, so the page shows "—" and the reason instead of a number that does not apply.
 *
 * With a hang fraction h (or a cause mix), a failure's detection delay is a mix: the synchronous
 * forms take their expectation over it (E[e^(−λD)] is exact for the restart-on-hit recovery);
 * FT-HSDP's use e^(−λ·E[S]) because its stalls overlap instead of restarting each other.
 */
import { causeTable } from "../failures/causes.ts";
import { derived } from "../scenario/derived.ts";
import type { Scenario } from "../scenario/index.ts";
import type { ClosedForms, ClosedFormValue } from "../types.ts";

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** The Young/Daly checkpoint interval √(2W/λ), in seconds: what the UI's one-click button sets. */
export function youngDalySeconds(writeSeconds: number, lambdaPerSecond: number): number {
  return lambdaPerSecond > 0 ? Math.sqrt((2 * writeSeconds) / lambdaPerSecond) : Number.POSITIVE_INFINITY;
}

/** Why no closed form with Poisson arrivals applies, or null when one may. */
function poissonAssumptionBroken(s: Scenario): string | null {
  if (s.failures.arrivals === "weibull") return "Weibull arrivals: the form assumes Poisson arrivals";
  if (s.failures.arrivals === "fixed") return "fixed arrivals: see the fixed-arrival row";
  if (s.failures.arrivals === "log") return "a replay of a log: the form assumes Poisson arrivals";
  if (s.spares.pool === "limited") return "a limited spare pool: waits for spares are not in the form";
  return null;
}

const ARRIVAL_WORDS = {
  poisson: "Poisson arrivals",
  weibull: "Weibull arrivals",
  fixed: "fixed arrivals",
  log: "a replay of a log",
} as const;

/** Why no fixed-arrival form applies, or null when one may. */
function fixedAssumptionBroken(s: Scenario, lambda: number): string | null {
  if (s.failures.arrivals !== "fixed")
    return `${ARRIVAL_WORDS[s.failures.arrivals]}: the form assumes a failure exactly every 1/λ`;
  if (lambda <= 0) return "no failures";
  if (s.spares.pool === "limited") return "a limited spare pool: waits for spares are not in the form";
  return null;
}

/** Why FT-HSDP's forms do not apply whatever the arrivals, or null. */
function ftAssumptionBroken(s: Scenario, jobShare: number, rackShare: number): string | null {
  if (jobShare > 0) return "job-scope causes: a job restart and its rollback are not in the form";
  if (rackShare > 0 && rackStrikesSeveralReplicas(s)) return "rack failures strike several replicas at once";
  return null;
}

const pctText = (x: number) => `${(100 * x).toFixed(1)} %`;

/**
 * The forms are long-run rates: a run starts healthy (its first failure comes a while in), so a
 * short horizon reads higher than the rate (3 h at the headline's 18-minute MTBF: about a point).
 * Below this many expected failures in the horizon they show "—".
 */
export const LONG_RUN_MIN_FAILURES = 100;
/**
 * FT-HSDP's Poisson form is first order in λ: it states λ(S + T) ≪ 1 and, read as λ(S + T) ≤ 1,
 * stays within about a point of the Monte Carlo (−0.4 at 0.56, the headline; −1.2 at 1.1; −1.9
 * at 1.7).
 */
export const FT_FORM_MAX_LOAD = 1;
/**
 * It also runs on R − 1 replicas per failure: it ignores stops when more than R − minReplicas are
 * down at once. Shown while that chance (down replicas ~ Poisson with mean λT) is below 0.5 %.
 */
export const FT_FORM_MAX_SHORT = 0.005;
/**
 * Meta's model is first order in λ(u₀ + C + W): its neglected terms, about half its square, pass
 * a point beyond 0.15 (at λ(C + W) = 0.5 it reads 5 points under the simulation).
 */
export const META_MAX_LOAD = 0.15;

/** P(N > k) for N Poisson with mean m. */
function poissonTail(m: number, k: number): number {
  if (k < 0) return 1;
  let term = Math.exp(-m);
  let cdf = term;
  for (let i = 1; i <= k && cdf < 1; i++) {
    term *= m / i;
    cdf += term;
  }
  return Math.max(0, 1 - cdf);
}

/** Why a long-run form does not fit this horizon, or null. */
export function horizonTooShort(s: Scenario): string | null {
  const { expectedFailures, expectedSlowEpisodes } = derived(s);
  // §6's slow episodes average out over the horizon as failures do: they count alike. A horizon
  // where nothing happens at all is exact for every form (nothing is lost).
  const events = expectedFailures + expectedSlowEpisodes;
  if (!(events < LONG_RUN_MIN_FAILURES) || events === 0) return null;
  const what = expectedSlowEpisodes > 0 ? "expected failures and slow episodes" : "expected failures";
  return `a long-run rate: shown from ${LONG_RUN_MIN_FAILURES} ${what} in the horizon (here ${events.toPrecision(2)})`;
}

/** A form's value as a long-run rate: "—" with why below the horizon it holds for. */
export function longRun(s: Scenario, v: ClosedFormValue): ClosedFormValue {
  if (v.value === null) return v;
  const short = horizonTooShort(s);
  return short ? { value: null, note: short } : v;
}

export function closedForms(s: Scenario): ClosedForms {
  const { lambdaPerSecond: lambda, mtbfSeconds: mtbf } = derived(s);
  const causes = causeTable(s);
  const { restartSeconds, checkpointMinutes, checkpointWriteSeconds } = s.sync;
  const ft = s.ft;
  const R = s.cluster.replicas;
  const blocking = ft.catchUp === "blocking";
  // Per failure, FT-HSDP stalls everyone for S and runs on R−1 replicas for T; if R−1 replicas
  // are fewer than minReplicas, the degraded time is a stall too.
  const downStalls = R - 1 < ft.minReplicas;
  let T = ft.replicaRestartSeconds + (blocking ? 0 : ft.catchUpSeconds);
  const stallAfter = ft.reconfigureSeconds + ft.rejoinSeconds + (blocking ? ft.catchUpSeconds : 0);

  // Expectations over the cause mix (probabilities sum to 1), and the longest recovery of a cause
  // that happens at all (a fixed-arrival form holds only while recoveries never overlap).
  let meanDetect = 0;
  let meanFtDetect = 0;
  let syncSurvival = 0;
  let maxSyncRecovery = 0;
  let maxFtRecovery = 0;
  for (let c = 0; c < causes.count; c++) {
    const w = causes.probability[c]!;
    const d = causes.syncDetectSeconds[c]!;
    meanDetect += w * d;
    meanFtDetect += w * causes.ftDetectSeconds[c]!;
    syncSurvival += w * Math.exp(-lambda * (d + restartSeconds));
    if (w > 0) {
      maxSyncRecovery = Math.max(maxSyncRecovery, d + restartSeconds);
      maxFtRecovery = Math.max(maxFtRecovery, causes.ftDetectSeconds[c]! + stallAfter + T);
    }
  }
  // Summed in version 1's order, so its numbers keep their bits.
  let S = meanFtDetect + ft.reconfigureSeconds + ft.rejoinSeconds + (blocking ? ft.catchUpSeconds : 0);
  if (downStalls) {
    S += T;
    T = 0;
  }

  // Version 1's arithmetic, kept bit for bit for old consumers of the CLI's JSON (v1Compat pins
  // it); what the page shows is the forms below, which say where they apply.
  // A rate so small (1e-310 per host-day) that 1/λ overflows has an MTBF of Infinity: every
  // failure-free fraction is 1 to the last bit, where the formula would give ∞/∞ = NaN.
  const fixed =
    lambda > 0 && Number.isFinite(mtbf)
      ? {
          synchronous: clamp01((mtbf - (meanDetect + restartSeconds)) / mtbf),
          ftHsdp: clamp01((mtbf - S - T / R) / mtbf),
        }
      : { synchronous: 1, ftHsdp: 1 };
  const poissonSyncNoRollback = syncSurvival;
  const C = checkpointMinutes * 60;
  const W = C > 0 ? checkpointWriteSeconds : 0;
  const metaRaw =
    C > 0 ? (1 - lambda * (meanDetect + restartSeconds + C / 2)) / (1 + checkpointWriteSeconds / C) : null;
  const metaFirstOrder = metaRaw === null ? null : clamp01(metaRaw);

  const broken = poissonAssumptionBroken(s);
  const ftBroken = ftAssumptionBroken(s, causes.jobShare, causes.rackShare);

  // Meta's first-order model: u0 the restart overhead, Δt_cp the interval, w_cp the write.
  const metaApproximation: ClosedFormValue =
    metaRaw === null
      ? { value: null, note: "no checkpoint interval (0 = no rollback)" }
      : broken
        ? { value: null, note: broken }
        : metaRaw <= 0
          ? {
              value: null,
              note: `outside its regime: λ(u₀ + Δt/2) = ${(lambda * (meanDetect + restartSeconds + C / 2)).toPrecision(2)} ≥ 1 (it would read ${pctText(metaRaw)})`,
            }
          : lambda * (meanDetect + restartSeconds + C + W) > META_MAX_LOAD
            ? {
                value: null,
                note: `outside its regime: λ(u₀ + C + W) = ${(lambda * (meanDetect + restartSeconds + C + W)).toPrecision(2)}, past the ${META_MAX_LOAD} where it holds to about a point (it would read ${pctText(metaRaw)})`,
              }
            : {
                value: Math.min(1, metaRaw),
                note: `long-run, first-order approximation: λ(u₀ + C + W) = ${(lambda * (meanDetect + restartSeconds + C + W)).toPrecision(2)} ≤ ${META_MAX_LOAD}`,
              };

  // Renewal argument: a training run of C + W completes with probability e^(−λ(C+W)); C → 0, W = 0
  // gives E[e^(−λD)], the version-1 form.
  const syncRenewal: ClosedFormValue = broken
    ? { value: null, note: broken }
    : {
        value: clamp01(
          lambda > 0 && C > 0 ? (syncSurvival * lambda * C) / Math.expm1(lambda * (C + W)) : syncSurvival,
        ),
        note: "long-run rate, exact for this model (renewal argument)",
      };

  const poissonNoRollback: ClosedFormValue = broken
    ? { value: null, note: broken }
    : C > 0
      ? {
          value: null,
          note: `checkpoints every ${checkpointMinutes} min: rollback is possible (see the renewal row)`,
        }
      : {
          value: clamp01(syncSurvival),
          note: "long-run rate, exact for this model (no rollback: a recovery restarts when hit)",
        };

  // FT-HSDP's stalls do not restart each other: they overlap like randomly placed segments, so
  // the share of time outside every stall is e^(−λ·E[S]) (not E[e^(−λS)], which overstates it
  // when detection times are mixed). Its own checkpoint writes take C/(C+W) of the rest.
  const ftC = ft.checkpointMinutes * 60;
  const ftWriteFactor = ftC > 0 ? ftC / (ftC + ft.checkpointWriteSeconds) : 1;
  // FTAR's step overhead o slows every step by 1 + o/100: both FT-HSDP forms divide by it.
  const o = ft.stepOverheadPercent;
  const speed = 1 / (1 + o / 100);
  const overheadNote = o > 0 ? `, divided by 1 + ${o}/100 (FTAR's step overhead)` : "";
  const load = lambda * (S + T);
  const short = downStalls ? 0 : poissonTail(lambda * T, R - ft.minReplicas);
  const ftPoissonBroken =
    broken ??
    ftBroken ??
    (load > FT_FORM_MAX_LOAD
      ? `λ(S + T) = ${load.toPrecision(2)}, past the ${FT_FORM_MAX_LOAD} where this first-order form holds to about a point`
      : short > FT_FORM_MAX_SHORT
        ? `more than R − minReplicas = ${R - ft.minReplicas} replicas are down at once ${(100 * short).toPrecision(3)} % of the time (the form allows ${100 * FT_FORM_MAX_SHORT} %): those stops are not in it`
        : null);
  const ftFirstOrder: ClosedFormValue = ftPoissonBroken
    ? { value: null, note: ftPoissonBroken }
    : {
        value: clamp01(Math.exp(-lambda * S) * (1 - (lambda * T) / R) * ftWriteFactor * speed),
        note: `long-run, first order in λ (one replica per failure; λ(S + T) = ${load.toPrecision(2)} ≤ ${FT_FORM_MAX_LOAD})${overheadNote}`,
      };

  // A run of fixed arrivals starts with a whole failure-free interval and ends part-way through
  // one: over horizon H it reads above the long-run rate by up to (time lost per failure)/H.
  const H = s.training.days * 86_400;
  const edgeNote = (lostPerFailure: number) =>
    `; this ${s.training.days}-day run starts failure-free, so it reads up to ${(100 * Math.min(1, lostPerFailure / H)).toPrecision(2)} point higher`;
  const fixedBroken = fixedAssumptionBroken(s, lambda);
  let fixedSync: ClosedFormValue;
  if (fixedBroken) fixedSync = { value: null, note: fixedBroken };
  else if (maxSyncRecovery >= mtbf)
    fixedSync = {
      value: null,
      note: "a recovery lasts as long as the interval between failures: they merge",
    };
  else if (C > 0) {
    // Each window τ − D between a recovery and the next failure completes k = ⌊(τ − D)/(C + W)⌋
    // checkpoints and keeps k·C; the rest rolls back. Averaged over the cause mix.
    let kept = 0;
    for (let c = 0; c < causes.count; c++) {
      const w = causes.probability[c]!;
      if (w > 0) kept += w * Math.floor((mtbf - causes.syncDetectSeconds[c]! - restartSeconds) / (C + W)) * C;
    }
    fixedSync = {
      value: clamp01(kept / mtbf),
      note: `long-run rate, exact for this model: k·C/τ, k = ⌊(τ − D)/(C + W)⌋${edgeNote(maxSyncRecovery)}`,
    };
  } else
    fixedSync = {
      value: fixed.synchronous,
      note: `long-run rate, exact for this model: (τ − D)/τ, no rollback${edgeNote(maxSyncRecovery)}`,
    };

  const ftFixedBroken =
    fixedBroken ??
    ftBroken ??
    (ftC > 0
      ? "FT-HSDP writes checkpoints: their stalls are not in the form"
      : maxFtRecovery >= mtbf
        ? "a replica's recovery lasts as long as the interval between failures: they overlap"
        : null);
  const fixedFt: ClosedFormValue = ftFixedBroken
    ? { value: null, note: ftFixedBroken }
    : {
        value: clamp01(fixed.ftHsdp * speed),
        note: `long-run rate, exact for this model: (τ − S − T/R)/τ${overheadNote}${edgeNote(S + T / R)}`,
      };

  return {
    fixed,
    poissonSyncNoRollback,
    metaFirstOrder,
    syncRenewal: longRun(s, syncRenewal),
    ftFirstOrder: longRun(s, ftFirstOrder),
    metaApproximation: longRun(s, metaApproximation),
    fixedArrivals: { synchronous: longRun(s, fixedSync), ftHsdp: longRun(s, fixedFt) },
    poissonNoRollback: longRun(s, poissonNoRollback),
  };
}

/** Whether one rack can hold hosts of two replicas (striped placement, or racks across replica blocks). */
function rackStrikesSeveralReplicas(s: Scenario): boolean {
  const { hostsPerReplica } = derived(s);
  const k = s.cluster.hostsPerRack;
  if (k === 1 || s.cluster.replicas === 1) return false;
  return s.cluster.placement === "striped" || hostsPerReplica % k !== 0;
}
