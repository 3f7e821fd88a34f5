/**
 * Records what step links produced BEFORE the slow rank touched the step model:
 * src/step/compat/step-recorded.json, compared bit for bit by stepCompat.test.ts.
 *
 * It was run once, on commit d18b5c1 (the last commit before the slow rank). Do not re-run it to
 * make that test pass: a re-run after the step model changed would record the new numbers.
 *
 *   npx tsx scripts/record-step-compat.ts > src/step/compat/step-recorded.json
 */
import fc from "fast-check";
import {
  DEFAULT_STEP_SETTINGS,
  decodeStepParam,
  encodeStepParam,
  type StepSettings,
} from "../src/link/stepLink.ts";
import { LINK_PRESETS } from "../src/step/collectiveCost.ts";
import { stepDigest } from "../src/step/compat/stepDigest.ts";
import { parseModelList } from "../src/step/modelList.ts";
import { PRESET_CATALOG, presetInfo } from "../src/step/presetCatalog.ts";
import { presetParams } from "../src/step/presets.ts";
import { runStep } from "../src/step/stepTimeline.ts";

function record(label: string, link: string) {
  // An address without `st=` opens the defaults, as the store reads it.
  const s = link === "" ? DEFAULT_STEP_SETTINGS : decodeStepParam(link);
  const params = s.model.kind === "preset" ? presetParams(s.model.id) : parseModelList(s.model.text);
  return { label, link, result: stepDigest(runStep(params, s.config)) };
}

const arbSettings: fc.Arbitrary<StepSettings> = fc
  .record({
    model: fc.constantFrom(...PRESET_CATALOG.map((p) => p.id)),
    capMb: fc.constantFrom(0.5, 5, 25, 100, 512),
    firstBucketMb: fc.constantFrom(1, 4),
    backwardScale: fc.constantFrom(1, 0.5, 3),
    mode: fc.constantFrom<"ddp" | "hsdp">("ddp", "hsdp"),
    gpusPerReplica: fc.integer({ min: 1, max: 64 }),
    replicas: fc.integer({ min: 1, max: 64 }),
    missingReplica: fc.boolean(),
    algorithm: fc.constantFrom<"ring" | "halvingDoubling">("ring", "halvingDoubling"),
    intra: fc.constantFrom(...LINK_PRESETS.map((l) => l.id)),
    inter: fc.constantFrom(...LINK_PRESETS.map((l) => l.id)),
  })
  .map((c) => {
    const compute = presetInfo(c.model).compute;
    const base = DEFAULT_STEP_SETTINGS.config;
    return {
      model: { kind: "preset", id: c.model },
      config: {
        capMb: c.capMb,
        firstBucketMb: c.firstBucketMb,
        compute: { ...compute, backwardMs: compute.backwardMs * c.backwardScale },
        parallel: {
          ...base.parallel,
          mode: c.mode,
          gpusPerReplica: c.gpusPerReplica,
          replicas: c.replicas,
          missingReplica: c.missingReplica,
          algorithm: c.algorithm,
          intraLink: LINK_PRESETS.find((l) => l.id === c.intra) ?? base.parallel.intraLink,
          interLink: LINK_PRESETS.find((l) => l.id === c.inter) ?? base.parallel.interLink,
        },
      },
    };
  });

const pasted: StepSettings = {
  model: {
    kind: "paste",
    text: JSON.stringify([
      { name: "embed.weight", shape: [5000, 512], dtype: "torch.bfloat16" },
      { name: "block.0.attn.weight", shape: [512, 1536], dtype: "torch.bfloat16" },
      { name: "block.0.norm.weight", shape: [512], dtype: "torch.float32" },
      { name: "block.1.attn.weight", shape: [512, 1536], dtype: "torch.bfloat16" },
      { name: "head.weight", shape: [5000, 512], dtype: "torch.bfloat16" },
    ]),
  },
  config: {
    ...DEFAULT_STEP_SETTINGS.config,
    capMb: 2,
    compute: { forwardMs: 3, backwardMs: 6, optimizerMs: 0.5 },
  },
};

const cases = [
  record("default", ""),
  record("pasted", encodeStepParam(pasted).param),
  ...fc
    .sample(arbSettings, { seed: 20261205, numRuns: 16 })
    .map((s, i) => record(`generated:${i}`, encodeStepParam(s).param)),
];
process.stdout.write(`${JSON.stringify({ recordedAt: "d18b5c1", cases }, null, 1)}\n`);
