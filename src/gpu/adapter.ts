/** Getting GPUDevices, and saying honestly what kind of adapter is behind them. */

export type AdapterKind = "hardware" | "software" | "cpu";

export interface AdapterReport {
  kind: AdapterKind;
  /** Vendor / architecture / description as the browser reports them, or why there is no GPU. */
  label: string;
  timestamps: boolean;
  maxBufferBytes: number;
  maxBindingBytes: number;
}

export interface AcquiredDevice {
  device: GPUDevice;
  report: AdapterReport;
}

function adapterText(info: GPUAdapterInfo): string {
  return (
    [info.vendor, info.architecture, info.device, info.description].filter((s) => s).join(" · ") || "unknown"
  );
}

export function classify(adapter: GPUAdapter): AdapterKind {
  const info = adapter.info;
  // SwiftShader (Chromium's CPU Vulkan) reports itself as a fallback adapter.
  const soft = info.isFallbackAdapter || /swiftshader|llvmpipe|warp|software/i.test(adapterText(info));
  return soft ? "software" : "hardware";
}

/** Why WebGPU is unusable here, or null when it may be. */
export function webGpuMissing(gpu: GPU | undefined): string | null {
  return gpu ? null : "navigator.gpu is missing (no WebGPU in this browser or context)";
}

/**
 * One adapter gives one device, so every simulated device of the separate mode calls this anew.
 * It asks for the adapter's full buffer limits (the defaults stop at 128 MiB) and timestamps.
 */
export async function acquireDevice(gpu: GPU, label: string): Promise<AcquiredDevice> {
  const adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
  if (!adapter) throw new Error("no WebGPU adapter");
  const timestamps = adapter.features.has("timestamp-query");
  const device = await adapter.requestDevice({
    label,
    requiredFeatures: timestamps ? ["timestamp-query"] : [],
    requiredLimits: {
      maxBufferSize: adapter.limits.maxBufferSize,
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
      maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage,
    },
  });
  return {
    device,
    report: {
      kind: classify(adapter),
      label: adapterText(adapter.info),
      timestamps,
      maxBufferBytes: device.limits.maxBufferSize,
      maxBindingBytes: device.limits.maxStorageBufferBindingSize,
    },
  };
}
