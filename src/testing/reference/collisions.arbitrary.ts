/**
 * fast-check generators of version-2 scenarios chosen so that failures collide (docs/model.md §3):
 * small clusters, racks, striped placement, few spares with long repairs, job-scope causes, hangs
 * with FTAR timeouts, FT-HSDP checkpoints, and an MTBF comparable to the recovery times.
 */
import fc from "fast-check";
import type { Scenario, ScenarioInput } from "../../sim/scenario/index.ts";
import { parseScenario } from "../../sim/scenario/index.ts";
import type { Cause } from "./failures.ts";

const cause: fc.Arbitrary<Cause> = fc
  .record({
    share: fc.constantFrom(0.5, 1, 3),
    scope: fc.constantFrom("host" as const, "rack" as const, "job" as const),
    hang: fc.boolean(),
    newHost: fc.boolean(),
  })
  .map((c) => ({
    ...c,
    name: `${c.scope}${c.hang ? " hang" : ""}`,
    newHost: c.scope !== "job" && c.newHost,
  }));

/** The knobs of docs/model.md §1 that both generators draw (each with its own ranges). */
interface CollidingKnobs {
  replicas: number;
  hostsPerReplica: number;
  mtbfSeconds: number;
  days: number;
  arrivals: "poisson" | "fixed" | "weibull";
  hangFraction: number;
  failStop: number;
  hang: number;
  restart: number;
  checkpointMinutes: number;
  write: number;
  reconfigure: number;
  replicaRestart: number;
  catchUp: "nonBlocking" | "blocking";
  catchUpSeconds: number;
  rejoin: number;
  minReplicasFraction: number;
  seed: number;
}

/** A scenario of 8-GPU hosts from the §1 knobs. */
function collidingInput(r: CollidingKnobs) {
  const hosts = r.replicas * r.hostsPerReplica;
  return {
    seed: r.seed,
    cluster: { gpus: hosts * 8, gpusPerHost: 8, replicas: r.replicas },
    training: { days: r.days },
    failures: {
      // The validator caps r_f at 10 per host-day: small clusters get a longer MTBF.
      perHostDay: Math.min(10, 86_400 / (r.mtbfSeconds * hosts)),
      arrivals: r.arrivals,
      hangFraction: r.hangFraction,
    },
    detection: { failStopSeconds: r.failStop, hangSeconds: r.hang },
    sync: {
      restartSeconds: r.restart,
      checkpointMinutes: r.checkpointMinutes,
      checkpointWriteSeconds: r.write,
    },
    ft: {
      reconfigureSeconds: r.reconfigure,
      replicaRestartSeconds: r.replicaRestart,
      catchUp: r.catchUp,
      catchUpSeconds: r.catchUpSeconds,
      rejoinSeconds: r.rejoin,
      minReplicas: 1 + Math.floor(r.minReplicasFraction * (r.replicas - 1)),
    },
  } satisfies ScenarioInput;
}

/** Version-1 scenarios: small clusters whose MTBF is comparable to the recovery times, so failures overlap often. */
export const collidingV1Scenario: fc.Arbitrary<Scenario> = fc
  .record({
    replicas: fc.integer({ min: 1, max: 6 }),
    hostsPerReplica: fc.constantFrom(1, 3, 64, 400),
    mtbfSeconds: fc.constantFrom(20, 120, 600, 1800, 7200),
    days: fc.constantFrom(0.002, 0.02, 0.2, 1),
    arrivals: fc.constantFrom("poisson" as const, "fixed" as const),
    hangFraction: fc.constantFrom(0, 0.3, 1),
    failStop: fc.integer({ min: 0, max: 120 }),
    hang: fc.integer({ min: 0, max: 900 }),
    restart: fc.integer({ min: 0, max: 900 }),
    checkpointMinutes: fc.constantFrom(0, 0.5, 3, 30),
    write: fc.constantFrom(0, 5, 60, 300),
    reconfigure: fc.integer({ min: 0, max: 60 }),
    replicaRestart: fc.integer({ min: 0, max: 900 }),
    catchUp: fc.constantFrom("nonBlocking" as const, "blocking" as const),
    catchUpSeconds: fc.integer({ min: 0, max: 300 }),
    rejoin: fc.integer({ min: 0, max: 300 }),
    minReplicasFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    seed: fc.integer({ min: 0, max: 0xffff_ffff }),
  })
  .map((r) => parseScenario(collidingInput(r)));

export const collidingV2Scenario: fc.Arbitrary<Scenario> = fc
  .record({
    replicas: fc.integer({ min: 1, max: 5 }),
    hostsPerReplica: fc.constantFrom(1, 2, 4, 6),
    rackChoice: fc.nat(),
    placement: fc.constantFrom("packed" as const, "striped" as const),
    mtbfSeconds: fc.constantFrom(20, 120, 600, 1800),
    days: fc.constantFrom(0.002, 0.02, 0.1),
    arrivals: fc.constantFrom("poisson" as const, "fixed" as const, "weibull" as const),
    weibullShape: fc.constantFrom(0.3, 1, 2.5),
    causes: fc.oneof(fc.constant([] as Cause[]), fc.array(cause, { minLength: 1, maxLength: 4 })),
    hangFraction: fc.constantFrom(0, 0.3, 1),
    failStop: fc.integer({ min: 0, max: 120 }),
    hang: fc.integer({ min: 0, max: 900 }),
    hangTimeout: fc.constantFrom(0, 0, 30, 2000),
    restart: fc.integer({ min: 0, max: 900 }),
    checkpointMinutes: fc.constantFrom(0, 0.6, 3, 30),
    write: fc.constantFrom(0, 5, 60, 300),
    ftCheckpointMinutes: fc.constantFrom(0, 0, 0.6, 3, 30),
    ftWrite: fc.constantFrom(0, 5, 60),
    reconfigure: fc.integer({ min: 0, max: 60 }),
    replicaRestart: fc.integer({ min: 0, max: 900 }),
    catchUp: fc.constantFrom("nonBlocking" as const, "blocking" as const),
    catchUpSeconds: fc.integer({ min: 0, max: 300 }),
    rejoin: fc.integer({ min: 0, max: 300 }),
    minReplicasFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    pool: fc.constantFrom("unlimited" as const, "limited" as const, "limited" as const),
    spareHosts: fc.constantFrom(0, 1, 3),
    repairHours: fc.constantFrom(0.01, 0.1, 2),
    seed: fc.integer({ min: 0, max: 0xffff_ffff }),
  })
  .map((r) => {
    const hosts = r.replicas * r.hostsPerReplica;
    const divisors = Array.from({ length: hosts }, (_, i) => i + 1).filter((d) => hosts % d === 0);
    const v1 = collidingInput(r);
    const input: ScenarioInput = {
      ...v1,
      cluster: {
        ...v1.cluster,
        hostsPerRack: divisors[r.rackChoice % divisors.length]!,
        placement: r.placement,
      },
      failures: {
        ...v1.failures,
        weibullShape: r.weibullShape,
        hangFraction: r.causes.length > 0 ? 0 : r.hangFraction,
        causes: r.causes,
      },
      ft: {
        ...v1.ft,
        hangTimeoutSeconds: r.hangTimeout,
        checkpointMinutes: r.ftCheckpointMinutes,
        checkpointWriteSeconds: r.ftWrite,
      },
      spares: { pool: r.pool, hosts: r.spareHosts, repairHours: r.repairHours },
    };
    return parseScenario(input);
  });
