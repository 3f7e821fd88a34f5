/**
 * How the lab runs its devices: one GPUDevice for all, one each, or the CPU. Its own module, free
 * of WebGPU types, so the pure link codec (src/link, checked without DOM or WebGPU) can name it.
 */
export type Mode = "shared" | "separate" | "cpu";
