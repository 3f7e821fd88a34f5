import { describe, expect, it } from "vitest";
import { linkPreset } from "../step/collectiveCost.ts";
import { DEFAULT_STEP_CONFIG, presetInfo } from "../step/presetCatalog.ts";
import { NO_SLOW_RANK } from "../step/slowRank.ts";
import { LinkError } from "./linkError.ts";
import {
  DEFAULT_STEP_SETTINGS,
  decodeStepParam,
  encodeStepParam,
  encodeStepPayload,
  MAX_STEP_PARAM_CHARS,
  type StepSettings,
} from "./stepLink.ts";

const base = DEFAULT_STEP_CONFIG;
const roundTrip = (s: StepSettings) => decodeStepParam(encodeStepParam(s).param);

describe("step settings in a link (st=)", () => {
  it("leave the key out at the defaults", () => {
    expect(encodeStepParam(DEFAULT_STEP_SETTINGS)).toEqual({ param: "", pasteLeftOut: false });
  });

  it("round-trip a preset, every knob and edited links", () => {
    const s: StepSettings = {
      model: { kind: "preset", id: "llama3-70b" },
      config: {
        capMb: 0.5,
        firstBucketMb: 512,
        compute: { ...presetInfo("llama3-70b").compute, backwardMs: 1234.5 },
        parallel: {
          mode: "hsdp",
          gpusPerReplica: 64,
          replicas: 100_000,
          missingReplica: true,
          algorithm: "halvingDoubling",
          intraLink: { ...linkPreset("roce-400"), bandwidth: 51e9 },
          interLink: { ...linkPreset("nvlink-h100"), alpha: 0 },
        },
        slowRank: { kind: "link", factor: 2.5 },
      },
    };
    const param = encodeStepParam(s).param;
    expect(param).toMatch(/^2\./);
    expect(decodeStepParam(param)).toEqual(s);
    // A preset's own compute times are not carried: the preset brings them.
    const llama = { ...s, config: { ...s.config, compute: presetInfo("llama3-70b").compute } };
    expect(encodeStepParam(llama).param.length).toBeLessThan(param.length);
    expect(roundTrip(llama)).toEqual(llama);
  });

  it("carry a pasted list while it fits, and say so when it does not", () => {
    const entry = (i: number) =>
      `{"name": "layer${i}.weight", "shape": [${i + 1}, 7], "dtype": "torch.float32"}`;
    const small: StepSettings = {
      model: { kind: "paste", text: `[${entry(0)}, ${entry(1)}]` },
      config: { ...base, compute: presetInfo("vit_b_16").compute },
    };
    expect(encodeStepParam(small).pasteLeftOut).toBe(false);
    expect(roundTrip(small)).toEqual(small);
    // Random-looking names do not compress: a long list overflows the budget.
    const names = Array.from({ length: 400 }, (_, i) =>
      entry(i * 7919).replace("layer", `l${(i * 2654435761) % 1e9}_`),
    );
    const big: StepSettings = {
      model: { kind: "paste", text: `[${names.join(", ")}]` },
      config: small.config,
    };
    const encoded = encodeStepParam(big);
    expect(encoded.pasteLeftOut).toBe(true);
    expect(encoded.param.length).toBeLessThanOrEqual(MAX_STEP_PARAM_CHARS);
    // Everything but the list comes through; the model is the default one.
    expect(decodeStepParam(encoded.param)).toEqual({
      model: DEFAULT_STEP_SETTINGS.model,
      config: small.config,
    });
  });

  it("never make a link that cannot open: a list past the decoder's 16 KB is left out however well it compresses", () => {
    const entry = (i: number) =>
      `{"name": "layers.${i >> 1}.${i % 2 ? "weight" : "bias"}", "shape": [64, 64], "dtype": "torch.float32"}`;
    const config = { ...base, capMb: 4 };
    // Repetitive entries deflate far under the 3,000-character budget, but their JSON (every quote
    // escaped) inflates past what a link may hold: such a link would be refused when opened.
    const repetitive = `[${Array.from({ length: 210 }, (_, i) => entry(i)).join(", ")}]`;
    expect(repetitive.length).toBeLessThan(16 * 1024);
    expect(JSON.stringify(repetitive).length).toBeGreaterThan(16 * 1024);
    for (const text of [repetitive, `[${Array.from({ length: 200_000 }, (_, i) => entry(i)).join(",\n")}]`]) {
      const encoded = encodeStepParam({ model: { kind: "paste", text }, config });
      expect(encoded.pasteLeftOut).toBe(true);
      expect(decodeStepParam(encoded.param)).toEqual({ model: DEFAULT_STEP_SETTINGS.model, config });
    }
    // The same list, shorter, still travels.
    const short = `[${Array.from({ length: 100 }, (_, i) => entry(i)).join(", ")}]`;
    const settings: StepSettings = { model: { kind: "paste", text: short }, config };
    expect(encodeStepParam(settings).pasteLeftOut).toBe(false);
    expect(roundTrip(settings)).toEqual(settings);
  });

  it("carry a slow rank, and open a link from before it with none", () => {
    for (const slowRank of [
      { kind: "compute", factor: 1.5 },
      { kind: "link", factor: 100 },
      { kind: "none", factor: 3 },
    ] as const) {
      const s: StepSettings = { model: DEFAULT_STEP_SETTINGS.model, config: { ...base, slowRank } };
      expect(encodeStepParam(s).param).not.toBe("");
      expect(roundTrip(s)).toEqual(s);
    }
    // Only what differs from the default travels: a compute-slow rank at the default factor.
    const compute = encodeStepParam({
      model: DEFAULT_STEP_SETTINGS.model,
      config: { ...base, slowRank: { kind: "compute", factor: 1.5 } },
    });
    expect(decodeStepParam(encodeStepPayload({ slowRank: { kind: "compute" } }))).toEqual(
      decodeStepParam(compute.param),
    );
    // A link made before the slow rank (no slowRank key) opens with none.
    const old = decodeStepParam(encodeStepPayload({ capMb: 4, parallel: { mode: "hsdp" } }));
    expect(old.config.slowRank).toEqual(NO_SLOW_RANK);
    expect(base.slowRank).toEqual(NO_SLOW_RANK);
  });

  it("refuse bad values, naming the field", () => {
    const bad = (value: object, message: RegExp) => {
      expect(() => decodeStepParam(encodeStepPayload(value))).toThrow(LinkError);
      expect(() => decodeStepParam(encodeStepPayload(value))).toThrow(message);
    };
    bad({ capMb: 0.1 }, /capMb: Too small/);
    bad({ model: "gpt5" }, /model/);
    bad({ parallel: { replicas: 2.5 } }, /parallel\.replicas/);
    bad({ parallel: { interLink: { bandwidth: 1 } } }, /parallel\.interLink\.bandwidth/);
    bad({ bogus: 1 }, /bogus/);
    bad({ slowRank: { factor: 0.5 } }, /slowRank\.factor: Too small: expected number to be >=1/);
    bad({ slowRank: { factor: 101 } }, /slowRank\.factor: Too big: expected number to be <=100/);
    bad({ slowRank: { kind: "dead" } }, /slowRank\.kind/);
    expect(() => decodeStepParam("2.AAAAAAAA")).toThrow(/integrity check/);
    expect(() => decodeStepParam("1.abc")).toThrow(/format tag "1"/);
    expect(() => decodeStepParam(`2.${"A".repeat(MAX_STEP_PARAM_CHARS)}`)).toThrow(/at most 3000/);
  });
});
