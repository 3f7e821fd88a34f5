/** Compiled kernels for one GPUDevice, built on first use. */
import { SCALE_WGSL, type SumKernel, sourcesPerDispatch, sumKernelWgsl, workgroupCap } from "./kernels.ts";

export class Pipelines {
  private readonly sums = new Map<string, GPUComputePipeline>();
  private readonly scales = new Map<number, GPUComputePipeline>();
  /** How many inputs one dispatch sums (see sourcesPerDispatch). */
  readonly maxSources: number;
  /** Workgroups per dispatch at most (see workgroupCap). */
  readonly maxWorkgroups: number;

  constructor(
    readonly device: GPUDevice,
    software: boolean,
  ) {
    this.maxSources = sourcesPerDispatch(software, device.limits.maxStorageBuffersPerShaderStage);
    this.maxWorkgroups = workgroupCap(software);
  }

  sum(k: SumKernel): GPUComputePipeline {
    const key = `${k.sources}:${k.accumulate}`;
    let p = this.sums.get(key);
    if (!p) {
      const module = this.device.createShaderModule({ code: sumKernelWgsl(k), label: `sum ${key}` });
      p = this.device.createComputePipeline({ layout: "auto", compute: { module, entryPoint: "main" } });
      this.sums.set(key, p);
    }
    return p;
  }

  scale(factor: number): GPUComputePipeline {
    let p = this.scales.get(factor);
    if (!p) {
      const module = this.device.createShaderModule({ code: SCALE_WGSL, label: "scale" });
      p = this.device.createComputePipeline({
        layout: "auto",
        compute: { module, entryPoint: "main", constants: { factor } },
      });
      this.scales.set(factor, p);
    }
    return p;
  }
}
