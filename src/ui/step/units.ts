/** How the step view writes times, sizes and rates. */
import { schemeTableau10 } from "d3-scale-chromatic";

/** Milliseconds, with more digits when small: "0.042 ms", "3.51 ms", "95.5 ms", "16,612 ms". */
export function ms(x: number): string {
  const a = Math.abs(x);
  if (a >= 10_000) return `${Math.round(x).toLocaleString("en-US")} ms`;
  if (a >= 100) return `${x.toFixed(1)} ms`;
  if (a >= 1) return `${x.toFixed(2)} ms`;
  return `${x.toFixed(3)} ms`;
}

/** Bytes in the unit that shows them (a small model's 4 MB is not "0 GB"), three significant digits. */
export function memoryText(b: number): string {
  const units: [number, string][] = [
    [1e9, "GB"],
    [1e6, "MB"],
    [1e3, "kB"],
  ];
  const [scale, unit] = units.find(([u]) => b >= u) ?? [1, "bytes"];
  return `${Number((b / scale).toPrecision(3)).toLocaleString("en-US")} ${unit}`;
}

/**
 * A part of a whole as a percentage, or "—" when there is no whole: a step of 0 ms (no compute,
 * one GPU, so no communication) saved 0 of 0, which is no percentage ("NaN %" before).
 */
export function shareText(part: number, whole: number): string {
  return whole > 0 && Number.isFinite(part / whole) ? `${((part / whole) * 100).toFixed(1)}%` : "—";
}

/** Bytes in binary units, as bucket_cap_mb counts them. */
export function bytes(b: number): string {
  if (b >= 1024 ** 3) return `${(b / 1024 ** 3).toFixed(2)} GiB`;
  if (b >= 1024 ** 2) return `${(b / 1024 ** 2).toFixed(2)} MiB`;
  if (b >= 1024) return `${(b / 1024).toFixed(1)} KiB`;
  return `${b} B`;
}

/** A cap in MiB with sensible precision: "0.50", "6.3", "25", "512". */
export function mib(x: number): string {
  if (x >= 100) return x.toFixed(0);
  if (x >= 10) return x.toFixed(1).replace(/\.0$/, "");
  if (x >= 1) return x.toFixed(2).replace(/0$/, "");
  return x.toFixed(2);
}

/** A bandwidth in bytes per second (what the step model computes), written in GB/s. */
export function formatBytesPerSecond(bytesPerSecond: number): string {
  return `${(bytesPerSecond / 1e9).toFixed(bytesPerSecond >= 1e11 ? 0 : 1)} GB/s`;
}

/** Bucket i's colour: one categorical palette, so a bucket looks the same on every row. */
export function bucketColor(i: number): string {
  return schemeTableau10[i % schemeTableau10.length] as string;
}
