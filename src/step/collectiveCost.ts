/**
 * α–β cost of the collectives a gradient bucket goes through (docs/model.md §2).
 * α: latency per algorithm step (s); B: bandwidth per rank (bytes/s), the rate that makes the
 * α–β ring formula reproduce measured bus bandwidth.
 */

export interface Link {
  id: string;
  label: string;
  /** Seconds per algorithm step. */
  alpha: number;
  /** Bytes per second per rank. */
  bandwidth: number;
  source: string;
}

const GB = 1e9;
const US = 1e-6;

/**
 * Presets. Bandwidths are the bus bandwidths nccl-tests reports (nccl-tests' busbw is exactly the
 * B of the ring formula); α values follow the usual "a few µs per ring step (tens of µs for a
 * small all-reduce across nodes)"; the Ethernet figures are line rate less framing, an assumption.
 */
export const LINK_PRESETS: readonly Link[] = [
  {
    id: "nvlink-h100",
    label: "H100 NVLink",
    alpha: 3 * US,
    bandwidth: 370 * GB,
    source: "NVIDIA H100 NVLink: 450 GB/s each way; nccl-tests ring all-reduce busbw ≈ 370 GB/s on 8 GPUs",
  },
  {
    id: "roce-400",
    label: "400 Gb/s RoCE/IB",
    alpha: 8 * US,
    bandwidth: 47 * GB,
    source: "Llama 3 (arXiv 2407.21783, §3.3.1): 400 Gb/s RoCE per GPU ≈ 46–48 GB/s nccl-tests busbw",
  },
  {
    id: "eth-100",
    label: "100 Gb/s Ethernet",
    alpha: 25 * US,
    bandwidth: 11.5 * GB,
    source: "assumed: 12.5 GB/s line rate less ~8 % protocol overhead; α typical of TCP/RoCE",
  },
];

export function linkPreset(id: string): Link {
  const link = LINK_PRESETS.find((l) => l.id === id);
  if (link === undefined) throw new Error(`unknown link preset ${id}`);
  return link;
}

export type Algorithm = "ring" | "halvingDoubling";

export const ALGORITHM_LABELS: Readonly<Record<Algorithm, string>> = {
  ring: "Ring",
  halvingDoubling: "Tree / halving-doubling",
};

/** Steps of latency: a ring does n−1 per phase, halving-doubling ⌈log2 n⌉. */
function latencySteps(algorithm: Algorithm, n: number): number {
  return algorithm === "ring" ? n - 1 : Math.ceil(Math.log2(n));
}

/**
 * All-reduce of `bytes` over n ranks: ring `2(n−1)·α + 2(n−1)/n · S/B` (docs/model.md §2); halving-doubling
 * (Rabenseifner: reduce-scatter by recursive halving, all-gather by recursive doubling) moves the
 * same bytes in `2⌈log2 n⌉` steps.
 */
export function allReduceSeconds(bytes: number, n: number, link: Link, algorithm: Algorithm): number {
  if (n <= 1 || bytes <= 0) return 0;
  return 2 * latencySteps(algorithm, n) * link.alpha + ((2 * (n - 1)) / n) * (bytes / link.bandwidth);
}

/** Reduce-scatter of `bytes` over n ranks: half an all-reduce. */
export function reduceScatterSeconds(bytes: number, n: number, link: Link, algorithm: Algorithm): number {
  if (n <= 1 || bytes <= 0) return 0;
  return latencySteps(algorithm, n) * link.alpha + ((n - 1) / n) * (bytes / link.bandwidth);
}

export interface Phase {
  kind: "reduceScatter" | "allReduce";
  ranks: number;
  bytes: number;
  seconds: number;
  link: string;
}

export interface ParallelismConfig {
  mode: "ddp" | "hsdp";
  /** GPUs in one replica (one HSDP shard group; for DDP, the GPUs of one node). */
  gpusPerReplica: number;
  replicas: number;
  /** HSDP only: one replica is away (recovering), so the cross-replica all-reduce has R−1 members. */
  missingReplica: boolean;
  algorithm: Algorithm;
  intraLink: Link;
  interLink: Link;
}

/** Replicas taking part in the step. */
export function participatingReplicas(p: ParallelismConfig): number {
  return p.mode === "hsdp" && p.missingReplica ? Math.max(1, p.replicas - 1) : p.replicas;
}

/** Ranks whose gradients a bucket's reduction combines (for busbw). */
export function participatingRanks(p: ParallelismConfig): number {
  return p.gpusPerReplica * participatingReplicas(p);
}

/**
 * The phases of one bucket's gradient reduction.
 * DDP: one flat all-reduce over every rank; once it leaves a node its ring runs at the slowest
 * (inter-node) link. HSDP: reduce-scatter inside the replica over the intra-replica link, then
 * the all-reduce of this rank's 1/G shard across the participating replicas (FTAR) over the
 * inter-replica link.
 */
export function bucketPhases(bytes: number, p: ParallelismConfig): Phase[] {
  const replicas = participatingReplicas(p);
  const g = p.gpusPerReplica;
  if (p.mode === "ddp") {
    const n = g * replicas;
    const link = replicas > 1 ? p.interLink : p.intraLink;
    return [
      {
        kind: "allReduce",
        ranks: n,
        bytes,
        seconds: allReduceSeconds(bytes, n, link, p.algorithm),
        link: link.id,
      },
    ];
  }
  const shard = bytes / g;
  return [
    {
      kind: "reduceScatter",
      ranks: g,
      bytes,
      seconds: reduceScatterSeconds(bytes, g, p.intraLink, p.algorithm),
      link: p.intraLink.id,
    },
    {
      kind: "allReduce",
      ranks: replicas,
      bytes: shard,
      seconds: allReduceSeconds(shard, replicas, p.interLink, p.algorithm),
      link: p.interLink.id,
    },
  ];
}

/** nccl-tests' definitions (its PERFORMANCE.md): algbw = S/t; all-reduce busbw = algbw · 2(n−1)/n. */
export function allReduceBandwidths(
  bytes: number,
  seconds: number,
  n: number,
): { algbw: number; busbw: number } {
  if (seconds <= 0) return { algbw: 0, busbw: 0 };
  const algbw = bytes / seconds;
  return { algbw, busbw: n > 1 ? (algbw * 2 * (n - 1)) / n : 0 };
}
