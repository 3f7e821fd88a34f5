/** The §3 fields of a version-2 scenario, as the reference reads them (./failures.ts Knobs). */
import type { Scenario } from "../../sim/scenario/index.ts";
import { drawnArrivals, type Knobs } from "./failures.ts";

export function knobsOf(s: Scenario): Knobs {
  return {
    hostsPerRack: s.cluster.hostsPerRack,
    placement: s.cluster.placement,
    arrivals: drawnArrivals(s),
    weibullShape: s.failures.weibullShape,
    causes: s.failures.causes,
    hangTimeoutSeconds: s.ft.hangTimeoutSeconds,
    ftCheckpointMinutes: s.ft.checkpointMinutes,
    ftCheckpointWriteSeconds: s.ft.checkpointWriteSeconds,
    pool: s.spares.pool,
    spareHosts: s.spares.hosts,
    repairHours: s.spares.repairHours,
    badShare: s.failures.badHosts.share,
    badFactor: s.failures.badHosts.factor,
    repairLaw: s.spares.repairLaw,
    repairSigma: s.spares.repairSigma,
  };
}
