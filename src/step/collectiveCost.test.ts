import { describe, expect, it } from "vitest";
import {
  allReduceBandwidths,
  allReduceSeconds,
  bucketPhases,
  type Link,
  linkPreset,
  type ParallelismConfig,
  reduceScatterSeconds,
} from "./collectiveCost.ts";

const link: Link = { id: "t", label: "test", alpha: 1e-5, bandwidth: 1e9, source: "test" };

describe("collective cost", () => {
  it("ring all-reduce is 2(n−1)·α + 2(n−1)/n · S/B", () => {
    // n = 4, S = 1 GB: 6·10 µs + 1.5 · 1 s.
    expect(allReduceSeconds(1e9, 4, link, "ring")).toBeCloseTo(6e-5 + 1.5, 12);
  });

  it("halving-doubling pays 2·⌈log2 n⌉ latency steps for the same bytes", () => {
    expect(allReduceSeconds(1e9, 16, link, "halvingDoubling")).toBeCloseTo(8e-5 + (2 * 15) / 16, 12);
    expect(allReduceSeconds(0, 16, link, "ring")).toBe(0);
    expect(allReduceSeconds(1e9, 1, link, "ring")).toBe(0);
  });

  it("reduce-scatter is half an all-reduce", () => {
    expect(reduceScatterSeconds(1e9, 8, link, "ring") * 2).toBeCloseTo(
      allReduceSeconds(1e9, 8, link, "ring"),
      12,
    );
  });

  it("busbw of a ring all-reduce recovers the link bandwidth when latency is negligible", () => {
    const t = allReduceSeconds(4e9, 8, { ...link, alpha: 0 }, "ring");
    expect(allReduceBandwidths(4e9, t, 8).busbw).toBeCloseTo(1e9, 3);
    expect(allReduceBandwidths(4e9, t, 8).algbw).toBeCloseTo(4e9 / t, 3);
  });

  it("HSDP reduces inside the replica, then all-reduces the 1/G shard across the replicas left", () => {
    const p: ParallelismConfig = {
      mode: "hsdp",
      gpusPerReplica: 8,
      replicas: 4,
      missingReplica: false,
      algorithm: "ring",
      intraLink: linkPreset("nvlink-h100"),
      interLink: linkPreset("roce-400"),
    };
    const [rs, ar] = bucketPhases(8e8, p);
    expect(rs?.kind).toBe("reduceScatter");
    expect(rs?.ranks).toBe(8);
    expect(ar?.bytes).toBe(1e8);
    expect(ar?.ranks).toBe(4);
    const missing = bucketPhases(8e8, { ...p, missingReplica: true });
    expect(missing[1]?.ranks).toBe(3);
    // Fewer ring steps and a smaller 2(n−1)/n factor: the cross-replica phase gets shorter.
    expect(missing[1]?.seconds).toBeLessThan(ar?.seconds ?? 0);
    const ddp = bucketPhases(8e8, { ...p, mode: "ddp" });
    expect(ddp).toHaveLength(1);
    expect(ddp[0]?.ranks).toBe(32);
    expect(ddp[0]?.link).toBe("roce-400");
  });
});
