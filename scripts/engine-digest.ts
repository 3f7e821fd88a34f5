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

const bits = new DataView(new ArrayBuffer(8));
function feed(h: ReturnType<typeof createHash>, v: unknown): void {
  if (typeof v === "number") {
    bits.setFloat64(0, v);
    h.update(`n${bits.getBigUint64(0).toString(16)};`);
  } else if (v === null || v === undefined || typeof v !== "object") h.update(`${typeof v}:${String(v)};`);
  else if (ArrayBuffer.isView(v)) {
    const a = v as unknown as ArrayLike<number>;
    h.update(`[${a.length}`);
    for (let i = 0; i < a.length; i++) feed(h, a[i]);
    h.update("]");
  } else if (Array.isArray(v)) {
    h.update(`[${v.length}`);
    for (const x of v) feed(h, x);
    h.update("]");
  } else {
    for (const k of Object.keys(v).sort()) {
      h.update(`${k}=`);
      feed(h, (v as Record<string, unknown>)[k]);
    }
    h.update("}");
  }
}

/**
 * The result's echo of its scenario without the groups that came whole with version 6 while they
 * hold their defaults: those groups change no version-5 number, so the digest recorded before
 * them (ffa85a55…) still pins the same runs.
 */
const LATER_GROUPS = GROUPS.filter((g) =>
  Object.values(FIELD_SPECS[g] as Record<string, FieldSpec>).every((spec) => spec.since6),
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

// §7: DiLoCo beside FT-HSDP on the same scenarios, a digest of its own (its metrics and recordings).
const dilocoTotal = createHash("sha256");
for (const input of Object.values(cases)) {
  const s = parseScenario({ ...(input as object), policies: ["ftHsdp", "diloco"] });
  const h = createHash("sha256");
  for (let seed = 0; seed < seeds; seed++) {
    feed(h, runScenario(s, { seed }).diloco);
    feed(h, runScenario(s, { seed, record: true }).diloco);
  }
  dilocoTotal.update(h.digest("hex"));
}
console.log(`diloco       ${dilocoTotal.digest("hex")}`);
