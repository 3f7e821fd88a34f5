/**
 * The closed forms shown beside the simulation (SIMULATION.md §1 "Metrics"). Each is clamped to
 * [0, 1]: outside it a formula has left the regime it describes (e.g. recoveries longer than
 * the MTBF), and an ETTR below 0 would only mislead.
 *
 * With hangFraction h, a failure's detection delay is a two-point mix; the fixed-arrival
 * arithmetic uses its mean, and the Poisson form uses E[e^(−λD)], which is exact for the
 * restart-on-hit recovery and reduces to e^(−λD) when every failure has the same D.
 */
import { derived, type Scenario } from "./scenario.ts";
import type { ClosedForms } from "./types.ts";

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

export function closedForms(s: Scenario): ClosedForms {
  const { lambdaPerSecond: lambda, mtbfSeconds: mtbf } = derived(s);
  const h = s.failures.hangFraction;
  const { failStopSeconds, hangSeconds } = s.detection;
  const meanDetect = (1 - h) * failStopSeconds + h * hangSeconds;
  const { restartSeconds, checkpointMinutes, checkpointWriteSeconds } = s.sync;
  const ft = s.ft;
  const R = s.cluster.replicas;

  // Per failure, FT-HSDP stalls everyone for S and runs on R−1 replicas for T; if R−1 replicas
  // are fewer than minReplicas, the degraded time is a stall too.
  const blocking = ft.catchUp === "blocking";
  let S = meanDetect + ft.reconfigureSeconds + ft.rejoinSeconds + (blocking ? ft.catchUpSeconds : 0);
  let T = ft.replicaRestartSeconds + (blocking ? 0 : ft.catchUpSeconds);
  if (R - 1 < ft.minReplicas) {
    S += T;
    T = 0;
  }
  const fixed =
    lambda > 0
      ? {
          synchronous: clamp01((mtbf - (meanDetect + restartSeconds)) / mtbf),
          ftHsdp: clamp01((mtbf - S - T / R) / mtbf),
        }
      : { synchronous: 1, ftHsdp: 1 };

  const poissonSyncNoRollback =
    (1 - h) * Math.exp(-lambda * (failStopSeconds + restartSeconds)) +
    h * Math.exp(-lambda * (hangSeconds + restartSeconds));

  // Meta's first-order model: u0 the restart overhead, Δt_cp the interval, w_cp the write.
  const interval = checkpointMinutes * 60;
  const metaFirstOrder =
    interval > 0
      ? clamp01(
          (1 - lambda * (meanDetect + restartSeconds + interval / 2)) /
            (1 + checkpointWriteSeconds / interval),
        )
      : null;

  return { fixed, poissonSyncNoRollback, metaFirstOrder };
}
