/**
 * The closed forms shown beside the simulation (SIMULATION.md §1 "Metrics", §3 "Closed forms,
 * version 2"). Each is clamped to [0, 1]: outside it a formula has left the regime it describes
 * (e.g. recoveries longer than the MTBF), and an ETTR below 0 would only mislead.
 *
 * With a hang fraction h (or a cause mix), a failure's detection delay is a mix; the fixed-arrival
 * arithmetic uses its mean, and the Poisson forms use E[e^(−λD)], which is exact for the
 * restart-on-hit recovery and reduces to e^(−λD) when every failure has the same D.
 */
import { causeTable } from "./causes.ts";
import { derived } from "./derived.ts";
import type { Scenario } from "./scenario.ts";
import type { ClosedForms, ClosedFormValue } from "./types.ts";

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** The Young/Daly checkpoint interval √(2W/λ), in seconds: what the UI's one-click button sets. */
export function youngDalySeconds(writeSeconds: number, lambdaPerSecond: number): number {
  return lambdaPerSecond > 0 ? Math.sqrt((2 * writeSeconds) / lambdaPerSecond) : Number.POSITIVE_INFINITY;
}

/** Why no Poisson closed form applies to either policy, or null when one may. */
function poissonAssumptionBroken(s: Scenario): string | null {
  if (s.failures.arrivals === "weibull") return "Weibull arrivals: the forms assume Poisson arrivals";
  if (s.failures.arrivals === "fixed") return "fixed arrivals: see the fixed-arrival arithmetic";
  if (s.spares.pool === "limited") return "a limited spare pool: waits for spares are not in the form";
  return null;
}

export function closedForms(s: Scenario): ClosedForms {
  const { lambdaPerSecond: lambda, mtbfSeconds: mtbf } = derived(s);
  const causes = causeTable(s);
  const { restartSeconds, checkpointMinutes, checkpointWriteSeconds } = s.sync;
  const ft = s.ft;
  const R = s.cluster.replicas;
  const blocking = ft.catchUp === "blocking";
  const stallAfter = ft.reconfigureSeconds + ft.rejoinSeconds + (blocking ? ft.catchUpSeconds : 0);
  // Per failure, FT-HSDP stalls everyone for S and runs on R−1 replicas for T; if R−1 replicas
  // are fewer than minReplicas, the degraded time is a stall too.
  const downStalls = R - 1 < ft.minReplicas;
  let T = ft.replicaRestartSeconds + (blocking ? 0 : ft.catchUpSeconds);

  // Expectations over the cause mix (probabilities sum to 1): detection delays, e^(−λD), e^(−λS).
  let meanDetect = 0;
  let meanFtDetect = 0;
  let syncSurvival = 0;
  let ftSurvival = 0;
  for (let c = 0; c < causes.count; c++) {
    const w = causes.probability[c]!;
    const d = causes.syncDetectSeconds[c]!;
    meanDetect += w * d;
    meanFtDetect += w * causes.ftDetectSeconds[c]!;
    syncSurvival += w * Math.exp(-lambda * (d + restartSeconds));
    ftSurvival += w * Math.exp(-lambda * (causes.ftDetectSeconds[c]! + stallAfter + (downStalls ? T : 0)));
  }
  // Summed in version 1's order, so its numbers keep their bits.
  let S = meanFtDetect + ft.reconfigureSeconds + ft.rejoinSeconds + (blocking ? ft.catchUpSeconds : 0);
  if (downStalls) {
    S += T;
    T = 0;
  }

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

  // Meta's first-order model: u0 the restart overhead, Δt_cp the interval, w_cp the write.
  const C = checkpointMinutes * 60;
  const W = C > 0 ? checkpointWriteSeconds : 0;
  const metaFirstOrder =
    C > 0
      ? clamp01((1 - lambda * (meanDetect + restartSeconds + C / 2)) / (1 + checkpointWriteSeconds / C))
      : null;
  const metaApproximation: ClosedFormValue =
    metaFirstOrder === null
      ? { value: null, note: "no checkpoint interval (0 = no rollback)" }
      : {
          value: metaFirstOrder,
          note: `first-order approximation, valid while λ(C+W) ≪ 1 (here ${(lambda * (C + W)).toPrecision(2)})`,
        };

  const broken = poissonAssumptionBroken(s);
  // Renewal argument: a training run of C + W completes with probability e^(−λ(C+W)); C → 0, W = 0
  // gives E[e^(−λD)], the version-1 form.
  const syncRenewal: ClosedFormValue = broken
    ? { value: null, note: broken }
    : {
        value: clamp01(
          lambda > 0 && C > 0 ? (syncSurvival * lambda * C) / Math.expm1(lambda * (C + W)) : syncSurvival,
        ),
        note: "exact for this model (renewal argument)",
      };

  const ftBroken =
    broken ??
    (causes.jobShare > 0
      ? "job-scope causes: a job restart is not in the form"
      : causes.rackShare > 0 && rackStrikesSeveralReplicas(s)
        ? "rack failures strike several replicas at once"
        : null);
  const ftFirstOrder: ClosedFormValue = ftBroken
    ? { value: null, note: ftBroken }
    : { value: clamp01(ftSurvival * (1 - (lambda * T) / R)), note: "first order in λ" };

  return { fixed, poissonSyncNoRollback, metaFirstOrder, syncRenewal, ftFirstOrder, metaApproximation };
}

/** Whether one rack can hold hosts of two replicas (striped placement, or racks across replica blocks). */
function rackStrikesSeveralReplicas(s: Scenario): boolean {
  const { hostsPerReplica } = derived(s);
  const k = s.cluster.hostsPerRack;
  if (k === 1 || s.cluster.replicas === 1) return false;
  return s.cluster.placement === "striped" || hostsPerReplica % k !== 0;
}
