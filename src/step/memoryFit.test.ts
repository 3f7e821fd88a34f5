import { describe, expect, it } from "vitest";
import { ADAM_FP32_BYTES_PER_ELEMENT, DEVICE_MEMORY, memoryFit } from "./memoryFit.ts";
import { presetParams } from "./presets.ts";

function model(id: string) {
  const params = presetParams(id);
  return {
    elements: params.reduce((s, p) => s + p.numel, 0),
    bytes: params.reduce((s, p) => s + p.bytes, 0),
  };
}

describe("memory fit per GPU", () => {
  it("Llama 3 405B cannot fit one 80 GB GPU under DDP: parameters, gradients and Adam state in full", () => {
    const m = model("llama3-405b");
    const fit = memoryFit(m, { mode: "ddp", gpusPerReplica: 8 });
    expect(fit.shards).toBe(1);
    expect(fit.gradBytes).toBe(m.bytes);
    expect(fit.paramBytes).toBe(m.bytes);
    expect(fit.optimizerBytes).toBe(m.elements * ADAM_FP32_BYTES_PER_ELEMENT);
    expect(fit.totalBytes).toBe(2 * m.bytes + 12 * m.elements);
    expect(fit.totalBytes).toBeGreaterThan(6e12);
    expect(fit.fits).toBe(false);
    expect(fit.deviceBytes).toBe(DEVICE_MEMORY.bytes);
  });

  it("HSDP divides the state by the GPUs per replica", () => {
    const m = model("llama3-8b");
    const ddp = memoryFit(m, { mode: "ddp", gpusPerReplica: 8 });
    const hsdp = memoryFit(m, { mode: "hsdp", gpusPerReplica: 8 });
    expect(hsdp.totalBytes).toBeCloseTo(ddp.totalBytes / 8, 0);
    expect(ddp.fits).toBe(false); // 8B × (2 + 2 + 12) bytes ≈ 128 GB
    expect(hsdp.fits).toBe(true);
  });
});
