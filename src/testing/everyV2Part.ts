/**
 * A scenario with every version-2 part at once (docs/model.md §3): striped racks of 8 hosts, a
 * cause mix of every scope (host failures that break hosts, host hangs, rack switches that hang,
 * job-wide software bugs), FTAR's 60 s hang timeout, FT checkpoints and a limited spare pool. The
 * tests of what the worker and the timeline build from a run, and bench:cluster at 100,000
 * replicas, share it, so each exercises job restarts, rack marks and spare waits together.
 */
import type { ScenarioInput } from "../sim/scenario/index.ts";

export interface EveryV2PartSize {
  gpus: number;
  replicas: number;
  perHostDay: number;
  days: number;
  spareHosts: number;
}

export function everyV2Part({
  gpus,
  replicas,
  perHostDay,
  days,
  spareHosts,
}: EveryV2PartSize): ScenarioInput {
  return {
    cluster: { gpus, replicas, hostsPerRack: 8, placement: "striped" },
    failures: {
      perHostDay,
      causes: [
        { name: "GPU", share: 6, scope: "host", hang: false, newHost: true },
        { name: "NCCL hang", share: 2, scope: "host", hang: true, newHost: true },
        { name: "ToR switch", share: 1, scope: "rack", hang: true, newHost: false },
        { name: "software bug", share: 1, scope: "job", hang: false, newHost: false },
      ],
    },
    training: { days },
    ft: { checkpointMinutes: 30, checkpointWriteSeconds: 20, hangTimeoutSeconds: 60 },
    spares: { pool: "limited", hosts: spareHosts, repairHours: 48 },
  };
}
