/** How the lab writes sizes, bandwidths and times. */
export function bytes(n: number): string {
  if (n >= 1024 ** 3) return `${+(n / 1024 ** 3).toFixed(1)} GiB`;
  if (n >= 1024 ** 2) return `${+(n / 1024 ** 2).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

/** A bandwidth already in GB/s (the lab measures in GB/s), written with sensible precision. */
export function formatGBps(x: number): string {
  return x >= 10
    ? `${x.toFixed(1)} GB/s`
    : x >= 0.1
      ? `${x.toFixed(2)} GB/s`
      : `${(x * 1000).toFixed(1)} MB/s`;
}
