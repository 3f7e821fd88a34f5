/**
 * One SHA-256 over every policy's metrics and recordings, recorded and unrecorded, across the
 * scenarios a change to the engine's loops must leave bit for bit alone: plain, slow, evicting,
 * spare pool, FT checkpoints, cause mix, hangs, racks, quiet restrikes, step overhead, blocking
 * catch-up. Run before and after a refactor (`npx tsx scripts/engine-digest.ts`): the digests
 * must match. Doubles are written by their bits, so -0, NaN and the last ulp count.
 */
import { createHash } from "node:crypto";
import { runScenario } from "../src/sim/engine.ts";
import { presetById } from "../src/sim/presets.ts";
import {
  DEFAULT_SCENARIO,
  FIELD_SPECS,
  type FieldSpec,
  GROUPS,
  parseScenario,
  type Scenario,
} from "../src/sim/scenario/index.ts";
import { feedBits } from "../src/testing/bitDigest.ts";

// The four policies of scenario version 3, by key: fixed, so that the digest covers the same runs
// whatever strategies the plug-in list adds.
const all = { policies: ["synchronous", "ftHsdp", "inMemory", "hotSpare"] };
const slow = presetById("slow-greyhound")!.scenario.slow!;
const spares = presetById("spares-dry")!.scenario.spares!;
const cases: Record<string, unknown> = {
  plain: { ...all },
  slow: { ...all, slow },
  slowDense: { ...all, slow: { ...slow, perHostDay: 0.05, factor: 2 } },
  evicting: { ...all, slow: { ...slow, evictAfterMinutes: 10 } },
  evictingNow: { ...all, slow: { ...slow, perHostDay: 0.03, evictAfterMinutes: 0 } },
  spare: { ...all, spares },
  checkpoint: { ...presetById("headline-job-failures")!.scenario, ...all },
  cause: { ...presetById("llama3-strategies")!.scenario },
  hang: { ...presetById("torchft-timeout")!.scenario, ...all },
  striped: { ...presetById("racks-striped")!.scenario, ...all },
  teaching: { ...presetById("teaching")!.scenario, ...all },
  quiet: {
    ...all,
    ft: {
      restrike: "quiet",
      catchUp: "blocking",
      stepOverheadPercent: 3,
      checkpointMinutes: 20,
      checkpointWriteSeconds: 30,
    },
    spares,
    slow: { ...slow, evictAfterMinutes: 5 },
  },
  everything: {
    ...presetById("llama3-strategies")!.scenario,
    ft: {
      restrike: "quiet",
      stepOverheadPercent: 2,
      checkpointMinutes: 30,
      checkpointWriteSeconds: 0,
      minReplicas: 14,
    },
    spares: { pool: "limited", hosts: 2, repairHours: 8 },
    slow: { ...slow, perHostDay: 0.02, evictAfterMinutes: 20 },
  },
};

const feed = feedBits;

/**
 * The result's echo of its scenario without the groups that came whole with version 6 while they
 * hold their defaults: those groups change no version-5 number, so the digest recorded before
 * them (ffa85a55…) still pins the same runs.
 */
const LATER_GROUPS = GROUPS.filter((g) =>
  Object.values(FIELD_SPECS[g] as Record<string, FieldSpec>).every((spec) => spec.since === 6),
);
/** Version 6's metrics and badput categories, which every version-5 policy reports as 0. */
const LATER_METRICS = ["roundsCommitted", "roundsDiscarded", "meanParticipants"];
const LATER_BADPUT = ["outerSync", "convergence"];
function withoutLater(m: unknown): unknown {
  if (m === null || typeof m !== "object" || !("badput" in m)) return m;
  const out: Record<string, unknown> = { ...m };
  for (const k of LATER_METRICS) if (out[k] === 0) delete out[k];
  const badput: Record<string, unknown> = { ...(out.badput as Record<string, unknown>) };
  for (const k of LATER_BADPUT) if (badput[k] === 0) delete badput[k];
  out.badput = badput;
  return out;
}
function withoutLaterDefaults<R extends { scenario: Scenario }>(r: R): R {
  const scenario: Record<string, unknown> = { ...r.scenario };
  for (const g of LATER_GROUPS)
    if (JSON.stringify(scenario[g]) === JSON.stringify(DEFAULT_SCENARIO[g])) delete scenario[g];
  const out: Record<string, unknown> = { ...r, scenario };
  for (const k of all.policies) if (k in out) out[k] = withoutLater(out[k]);
  return out as R;
}

const total = createHash("sha256");
const seeds = Number(process.argv[2] ?? 6);
for (const [name, input] of Object.entries(cases)) {
  const s = parseScenario(input);
  const h = createHash("sha256");
  for (let seed = 0; seed < seeds; seed++) {
    feed(h, withoutLaterDefaults(runScenario(s, { seed })));
    feed(h, withoutLaterDefaults(runScenario(s, { seed, record: true })));
  }
  const d = h.digest("hex");
  total.update(d);
  console.log(`${name.padEnd(12)} ${d.slice(0, 16)}`);
}
console.log(`all          ${total.digest("hex")}`);

/** DiLoCo beside FT-HSDP on each input: one digest of its metrics and recordings over every seed. */
function dilocoDigest(inputs: readonly unknown[]): string {
  const total = createHash("sha256");
  for (const input of inputs) {
    const s = parseScenario({ ...(input as object), policies: ["ftHsdp", "diloco"] });
    const h = createHash("sha256");
    for (let seed = 0; seed < seeds; seed++) {
      feed(h, runScenario(s, { seed }).diloco);
      feed(h, runScenario(s, { seed, record: true }).diloco);
    }
    total.update(h.digest("hex"));
  }
  return total.digest("hex");
}

// §7: DiLoCo on the same scenarios, a digest of its own.
console.log(`diloco       ${dilocoDigest(Object.values(cases))}`);

// §7's own knobs, which the line above leaves at their defaults: the two DiLoCo presets, a
// streaming overlap, one-step rounds, a sync longer than the round, and those with slow hosts,
// checkpoints, spares and a quorum.
const dilocoKnobs: Record<string, unknown> = {
  fourSites: presetById("diloco-four-sites")!.scenario,
  minutes: presetById("diloco-failures-minutes")!.scenario,
  streaming: { diloco: { syncEvery: 50, syncSeconds: 120, overlapSteps: 20, stepEquivalence: 0.9 } },
  everyStep: { diloco: { syncEvery: 1, syncSeconds: 3 }, training: { days: 3 } },
  longSync: { diloco: { syncEvery: 5, syncSeconds: 400, overlapSteps: 4 } },
  mixed: {
    ...(cases.everything as object),
    diloco: { syncEvery: 30, syncSeconds: 90, overlapSteps: 10, stepEquivalence: 0.8 },
  },
  slowStreaming: {
    slow: { ...slow, perHostDay: 0.05 },
    diloco: { syncEvery: 40, syncSeconds: 200, overlapSteps: 15 },
  },
};
console.log(`diloco knobs ${dilocoDigest(Object.values(dilocoKnobs))}`);
