/** fast-check generators of scenarios, shared by the property tests of several layers. */
import fc from "fast-check";
import { parseScenario, type Scenario } from "./scenario.ts";

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
