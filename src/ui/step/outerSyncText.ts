/** How the outer-sync panel writes rates, times and the bandwidth a target needs. */

/** Bytes per second in the unit that shows them, three significant digits: "1.25 GB/s", "840 MB/s". */
export function rateText(bytesPerSecond: number): string {
  const units: [number, string][] = [
    [1e12, "TB/s"],
    [1e9, "GB/s"],
    [1e6, "MB/s"],
    [1e3, "kB/s"],
  ];
  const [scale, unit] = units.find(([u]) => bytesPerSecond >= u) ?? [1, "B/s"];
  return `${Number((bytesPerSecond / scale).toPrecision(3)).toLocaleString("en-US")} ${unit}`;
}

/** The same rate in bits, as links are sold: "10 Gb/s". */
export function bitRateText(bytesPerSecond: number): string {
  return rateText(bytesPerSecond * 8).replace("B/s", "b/s");
}

/** A sync time: "132 ms" below a second, "2.45 s", "1,234 s". */
export function syncTimeText(seconds: number): string {
  if (seconds === 0) return "0 s";
  if (seconds < 1) return `${Number((seconds * 1e3).toPrecision(3))} ms`;
  return `${Number(seconds.toPrecision(seconds >= 1000 ? 6 : 3)).toLocaleString("en-US")} s`;
}

/** What a target needs: a bandwidth, "any" (one replica, nothing to send), or "—" (no bandwidth is enough). */
export function neededText(bandwidth: number | null): string {
  if (bandwidth === null) return "—";
  if (bandwidth === 0) return "any";
  return rateText(bandwidth);
}
