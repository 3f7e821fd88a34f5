/** fast-check generators of scenarios, shared by the property tests of several layers. */

import fc from "fast-check";
import { parseScenario, type Scenario } from "../sim/scenario/index.ts";

/**
 * The four policies of scenario version 3 (synchronous, FT-HSDP, in-memory checkpoints, hot
 * spares), by key: what tests that select "every policy" of those versions select, fixed so that
 * a strategy added to the plug-in list does not change them.
 */
export const V3_POLICIES: readonly string[] = ["synchronous", "ftHsdp", "inMemory", "hotSpare"];

/** Valid scenarios, built so the cross-field rules hold: hosts = replicas · hostsPerReplica. */
export const validScenario: fc.Arbitrary<Scenario> = fc
  .record({
    gpusPerHost: fc.constantFrom(1, 2, 4, 8),
    replicas: fc.integer({ min: 1, max: 64 }),
    hostsPerReplica: fc.integer({ min: 1, max: 256 }),
    days: fc.double({ min: 0.01, max: 10, noNaN: true }),
    perHostDay: fc.double({ min: 0, max: 0.05, noNaN: true }),
    arrivals: fc.constantFrom("poisson" as const, "fixed" as const),
    hangFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    seed: fc.integer({ min: 0, max: 0xffff_ffff }),
    restart: fc.integer({ min: 0, max: 3600 }),
    ckpt: fc.constantFrom(0, 10, 60),
    catchUp: fc.constantFrom("nonBlocking" as const, "blocking" as const),
  })
  .map((r) =>
    parseScenario({
      seed: r.seed,
      cluster: {
        gpus: r.gpusPerHost * r.replicas * r.hostsPerReplica,
        gpusPerHost: r.gpusPerHost,
        replicas: r.replicas,
      },
      training: { days: r.days },
      failures: { perHostDay: r.perHostDay, arrivals: r.arrivals, hangFraction: r.hangFraction },
      sync: {
        restartSeconds: r.restart,
        checkpointMinutes: r.ckpt,
        checkpointWriteSeconds: r.ckpt > 0 ? 30 : 0,
      },
      ft: { catchUp: r.catchUp, catchUpSeconds: 60, minReplicas: Math.max(1, Math.floor(r.replicas / 2)) },
    }),
  );

const v2Cause = fc
  .record({
    share: fc.constantFrom(0.5, 1, 4),
    scope: fc.constantFrom("host" as const, "rack" as const, "job" as const),
    hang: fc.boolean(),
    newHost: fc.boolean(),
  })
  .map((c) => ({
    name: `${c.scope}${c.hang ? " hang" : ""}`,
    share: c.share,
    scope: c.scope,
    hang: c.hang,
    // A job-scope cause strikes no host, so it breaks none (the validator's rule).
    newHost: c.scope !== "job" && c.newHost,
  }));

/**
 * Version-2 scenarios over every §3 field: cause lists (host, rack and job scopes, hangs, newHost),
 * racks and placement, Weibull arrivals, FTAR hang timeouts, FT-HSDP checkpoints and limited spare
 * pools. Small clusters and short horizons (at most a few hundred failures), integer times so
 * events often tie, MTBFs from well below to well above the recovery times.
 */
export const v2Scenario: fc.Arbitrary<Scenario> = fc
  .record({
    replicas: fc.integer({ min: 1, max: 6 }),
    hostsPerReplica: fc.constantFrom(1, 2, 4, 6),
    rackChoice: fc.nat(),
    placement: fc.constantFrom("packed" as const, "striped" as const),
    gpusPerHost: fc.constantFrom(1, 8),
    mtbfSeconds: fc.constantFrom(30, 300, 1800, 7200),
    days: fc.constantFrom(0.02, 0.1, 0.5),
    arrivals: fc.constantFrom("poisson" as const, "fixed" as const, "weibull" as const),
    weibullShape: fc.constantFrom(0.3, 1, 2.5),
    causes: fc.oneof(fc.constant([]), fc.array(v2Cause, { minLength: 1, maxLength: 4 })),
    hangFraction: fc.constantFrom(0, 0.5),
    failStop: fc.integer({ min: 0, max: 120 }),
    hang: fc.integer({ min: 0, max: 900 }),
    hangTimeout: fc.constantFrom(0, 30, 2000),
    restart: fc.integer({ min: 0, max: 900 }),
    checkpointMinutes: fc.constantFrom(0, 1, 30),
    write: fc.constantFrom(0, 10, 120),
    ftCheckpointMinutes: fc.constantFrom(0, 1, 30),
    ftWrite: fc.constantFrom(0, 10, 120),
    replicaRestart: fc.integer({ min: 0, max: 900 }),
    catchUp: fc.constantFrom("nonBlocking" as const, "blocking" as const),
    catchUpSeconds: fc.constantFrom(0, 60),
    rejoin: fc.integer({ min: 0, max: 300 }),
    minReplicasFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    pool: fc.constantFrom("unlimited" as const, "limited" as const),
    spareHosts: fc.constantFrom(0, 1, 4, 1000),
    repairHours: fc.constantFrom(0.05, 1, 24),
    seed: fc.integer({ min: 0, max: 0xffff_ffff }),
  })
  .map((r) => {
    const hosts = r.replicas * r.hostsPerReplica;
    const divisors = Array.from({ length: hosts }, (_, i) => i + 1).filter((d) => hosts % d === 0);
    return parseScenario({
      seed: r.seed,
      cluster: {
        gpus: hosts * r.gpusPerHost,
        gpusPerHost: r.gpusPerHost,
        replicas: r.replicas,
        hostsPerRack: divisors[r.rackChoice % divisors.length]!,
        placement: r.placement,
      },
      training: { days: r.days },
      failures: {
        // The validator caps r_f at 10 per host-day: the smallest clusters get a longer MTBF.
        perHostDay: Math.min(10, 86_400 / (r.mtbfSeconds * hosts)),
        arrivals: r.arrivals,
        weibullShape: r.weibullShape,
        hangFraction: r.causes.length > 0 ? 0 : r.hangFraction,
        causes: r.causes,
      },
      detection: { failStopSeconds: r.failStop, hangSeconds: r.hang },
      sync: {
        restartSeconds: r.restart,
        checkpointMinutes: r.checkpointMinutes,
        checkpointWriteSeconds: r.write,
      },
      ft: {
        replicaRestartSeconds: r.replicaRestart,
        catchUp: r.catchUp,
        catchUpSeconds: r.catchUpSeconds,
        rejoinSeconds: r.rejoin,
        minReplicas: 1 + Math.floor(r.minReplicasFraction * (r.replicas - 1)),
        hangTimeoutSeconds: r.hangTimeout,
        checkpointMinutes: r.ftCheckpointMinutes,
        checkpointWriteSeconds: r.ftWrite,
      },
      spares: { pool: r.pool, hosts: r.spareHosts, repairHours: r.repairHours },
    });
  });

/**
 * Version-3 scenarios (docs/model.md §4): a version-2 scenario with 1–4 of the policies in any
 * order, the in-memory and hot-spare groups over their interesting ranges (no checkpoints to
 * every few seconds, few standbys to many, refills from none to slow) and FT-HSDP's own costs.
 */
export const v3Scenario: fc.Arbitrary<Scenario> = fc
  .record({
    base: v2Scenario,
    policies: fc.shuffledSubarray([...V3_POLICIES], {
      minLength: 1,
    }),
    imMinutes: fc.constantFrom(0, 0.5, 3, 30),
    imWrite: fc.constantFrom(0, 2, 45),
    imRestart: fc.integer({ min: 0, max: 600 }),
    persistEvery: fc.integer({ min: 1, max: 5 }),
    standbys: fc.integer({ min: 0, max: 4 }),
    migrate: fc.integer({ min: 0, max: 300 }),
    refillMinutes: fc.constantFrom(0, 1, 30),
    overhead: fc.constantFrom(0, 5, 50),
    restrike: fc.constantFrom("stall" as const, "quiet" as const),
  })
  .map((r) =>
    parseScenario({
      ...r.base,
      policies: [...r.policies],
      ft: { ...r.base.ft, stepOverheadPercent: r.overhead, restrike: r.restrike },
      inMemory: {
        checkpointMinutes: r.imMinutes,
        writeSeconds: r.imWrite,
        restartSeconds: r.imRestart,
        persistEvery: r.persistEvery,
      },
      hotSpare: { standbys: r.standbys, migrateSeconds: r.migrate, refillMinutes: r.refillMinutes },
    }),
  );

/** A generated version-2 scenario running DiLoCo beside FT-HSDP, every diloco field varied, slow hosts sometimes. */
export const dilocoScenario: fc.Arbitrary<Scenario> = fc
  .record({
    base: v2Scenario,
    syncEvery: fc.constantFrom(1, 3, 20, 100, 500),
    syncSeconds: fc.constantFrom(0, 5, 60, 900),
    overlap: fc.double({ min: 0, max: 1, noNaN: true }),
    q: fc.constantFrom(1, 0.9, 0.5),
    slow: fc.constantFrom(0, 0, 0.2, 2),
    evict: fc.constantFrom(0, 0, 5),
  })
  .map((r) =>
    parseScenario({
      ...r.base,
      policies: ["ftHsdp", "diloco"],
      diloco: {
        syncEvery: r.syncEvery,
        syncSeconds: r.syncSeconds,
        overlapSteps: Math.floor(r.overlap * (r.syncEvery - 1)),
        stepEquivalence: r.q,
      },
      slow: { perHostDay: r.slow, medianMinutes: 20, sigma: 0.5, factor: 2, evictAfterMinutes: r.evict },
    }),
  );
