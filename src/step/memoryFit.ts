/**
 * Does the model's training state fit one GPU? Parameters and gradients in the model's own dtypes
 * (the gradient bytes the step moves), plus Adam's state under the usual mixed-precision
 * assumption: an fp32 master copy and two fp32 moments, 12 bytes per element. DDP keeps a full
 * replica on every GPU; HSDP shards all three inside a replica, so each GPU holds 1/gpusPerReplica.
 * Activations and framework overhead are left out, so "fits" is an upper bound on what fits.
 */
import type { ParallelismConfig } from "./collectiveCost.ts";

/** The device the check compares against: an H100 SXM, 80 GB (10⁹ bytes). */
export const DEVICE_MEMORY = { label: "H100", bytes: 80e9 } as const;
/** Adam in fp32: master weights + first and second moments, 4 bytes each, per element. */
export const ADAM_FP32_BYTES_PER_ELEMENT = 12;

export interface MemoryFit {
  /** How many GPUs share one copy of the state (1 for DDP). */
  shards: number;
  paramBytes: number;
  gradBytes: number;
  optimizerBytes: number;
  totalBytes: number;
  deviceBytes: number;
  fits: boolean;
}

/** Per-GPU training state for a model of `elements` elements whose gradients take `gradBytes`. */
export function memoryFit(
  model: { elements: number; bytes: number },
  parallel: Pick<ParallelismConfig, "mode" | "gpusPerReplica">,
): MemoryFit {
  const shards = parallel.mode === "hsdp" ? Math.max(1, parallel.gpusPerReplica) : 1;
  // Parameters are held in the same dtypes as their gradients.
  const paramBytes = model.bytes / shards;
  const gradBytes = model.bytes / shards;
  const optimizerBytes = (model.elements * ADAM_FP32_BYTES_PER_ELEMENT) / shards;
  const totalBytes = paramBytes + gradBytes + optimizerBytes;
  return {
    shards,
    paramBytes,
    gradBytes,
    optimizerBytes,
    totalBytes,
    deviceBytes: DEVICE_MEMORY.bytes,
    fits: totalBytes <= DEVICE_MEMORY.bytes,
  };
}
