/**
 * fast-check inputs over the whole accepted range of every scenario field, read from FIELD_SPECS
 * (so a field added there is covered without touching this file): each number is its minimum,
 * its smallest meaningful value, its maximum, a subnormal where 0 is allowed, or a value in
 * between. The cluster is built so its cross-field rules hold, and the failure rate is capped so
 * one run simulates at most `maxFailures` expected failures: every case has a bounded cost.
 * The input may still be refused (a rule between fields this file does not know): callers check.
 */
import fc from "fast-check";
import { FIELD_SPECS, type FieldSpec, GROUPS, type ScenarioInput } from "../sim/scenario/index.ts";

function numberArb(spec: Extract<FieldSpec, { kind: "int" | "number" }>): fc.Arbitrary<number> {
  const low = spec.smallest ?? spec.min;
  // An excluded bound is no edge of the accepted range (q in (0, 1] never takes 0).
  const edges = [
    ...(spec.maxExclusive ? [] : [spec.max]),
    ...(spec.minExclusive && low === spec.min ? [] : [low]),
    ...(spec.minExclusive ? [] : [spec.min]),
  ];
  if (spec.kind === "int")
    return fc.oneof(fc.constantFrom(...edges), fc.integer({ min: low, max: spec.max }));
  const subnormal = spec.min === 0 && spec.smallest === undefined ? [Number.MIN_VALUE] : [];
  return fc.oneof(
    fc.constantFrom(...edges, ...subnormal),
    fc.double({
      min: low,
      max: spec.max,
      noNaN: true,
      minExcluded: spec.minExclusive && low === spec.min,
      maxExcluded: spec.maxExclusive === true,
    }),
  );
}

function fieldArb(spec: FieldSpec): fc.Arbitrary<unknown> | null {
  if (spec.kind === "enum") return fc.constantFrom(...spec.values);
  if (spec.kind === "int" || spec.kind === "number") return numberArb(spec);
  return null; // a kind this generator does not know (lists): left at its default
}

/** Every field of every group except the cluster's, which clusterArb builds consistently. */
const groupsArb = fc.record(
  Object.fromEntries(
    GROUPS.filter((g) => g !== "cluster").map((g) => {
      const specs = FIELD_SPECS[g] as Record<string, FieldSpec>;
      const fields = Object.entries(specs).flatMap(([k, spec]) => {
        const arb = fieldArb(spec);
        return arb ? [[k, arb] as const] : [];
      });
      return [g, fc.record(Object.fromEntries(fields), { requiredKeys: [] })];
    }),
  ),
) as fc.Arbitrary<Record<string, Record<string, unknown>>>;

/** hosts = replicas × hostsPerReplica, GPUs = hosts × gpusPerHost ≤ 1,000,000, edges included. */
const clusterArb = fc
  .record({
    gpusPerHost: fc.constantFrom(1, 8, 64),
    replicas: fc.oneof(fc.constantFrom(1, 2), fc.integer({ min: 1, max: 2000 })),
    hostsPerReplica: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 500 })),
  })
  .map(({ gpusPerHost, replicas, hostsPerReplica }) => {
    const maxHosts = Math.floor(1_000_000 / gpusPerHost);
    const perReplica = Math.max(1, Math.min(hostsPerReplica, Math.floor(maxHosts / replicas)));
    const r = Math.min(replicas, maxHosts);
    return { gpus: r * perReplica * gpusPerHost, gpusPerHost, replicas: r };
  });

export function acceptedRangeInput(maxFailures: number): fc.Arbitrary<ScenarioInput> {
  return fc
    .record({
      seed: fc.integer({ min: 0, max: 0xffff_ffff }),
      cluster: clusterArb,
      groups: groupsArb,
      minShare: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map(({ seed, cluster, groups, minShare }) => {
      const input = { seed, cluster, ...groups } as Record<string, Record<string, unknown> | number>;
      const ft = (input.ft ?? {}) as Record<string, unknown>;
      if ("minReplicas" in ft) ft.minReplicas = Math.max(1, Math.ceil(minShare * cluster.replicas));
      // §7: the overlap stays below the round (overlapSteps < syncEvery).
      const diloco = (input.diloco ?? {}) as Record<string, unknown>;
      const syncEvery = typeof diloco.syncEvery === "number" ? diloco.syncEvery : 100;
      if (typeof diloco.overlapSteps === "number")
        diloco.overlapSteps = Math.min(diloco.overlapSteps, syncEvery - 1);
      // Bound the cost: the expected failures of one run at most maxFailures.
      const failures = (input.failures ?? {}) as Record<string, unknown>;
      const training = (input.training ?? {}) as Record<string, unknown>;
      const days = typeof training.days === "number" ? training.days : 30;
      const hosts = cluster.gpus / cluster.gpusPerHost;
      const rate = typeof failures.perHostDay === "number" ? failures.perHostDay : 0.00651;
      if (hosts * rate * days > maxFailures) failures.perHostDay = maxFailures / (hosts * days);
      return input as ScenarioInput;
    });
}
