/**
 * DDP's gradient buckets as PyTorch builds them after the first iteration ("rebuilt buckets").
 *
 * Verified against PyTorch's source (pytorch/pytorch, torch/csrc/distributed/c10d/reducer.cpp,
 * `compute_bucket_assignment_by_size` and `Reducer::rebuild_buckets`):
 * - rebuild_buckets passes the parameters in the order their gradients became ready, with
 *   `bucket_size_limits = {first_bucket_bytes_cap_, bucket_bytes_cap_}`; the first is
 *   `kDefaultFirstBucketBytes` = 1 MiB (exposed to Python as `dist._DEFAULT_FIRST_BUCKET_BYTES`).
 * - One open bucket per (dtype, device) key; the parameter is appended and its
 *   `numel * element_size` added BEFORE the limit check, so a bucket overshoots its limit by at
 *   most its last parameter and a parameter larger than the limit closes a bucket of its own.
 * - A bucket closes when `size >= limit` (not `>`).
 * - The limit iterator is kept per key and advances only when that key's bucket closes, stopping
 *   at the last limit: each dtype gets its own small first bucket.
 * - Buckets still open at the end are appended in `unordered_map` order; since `tensor_indices` is
 *   non-empty for a rebuild, the result is NOT sorted by minimum tensor index (that sort applies
 *   only to the constructor's initial assignment). Bucket index order is the all-reduce order:
 *   the reducer launches bucket i only after buckets 0..i−1 (`next_bucket_`).
 * - torch/nn/parallel/distributed.py: `bucket_bytes_cap = int(bucket_cap_mb * 1024 * 1024)`.
 *   Newer torch versions (torch/nn/parallel/distributed.py, `bucket_bytes_cap_default`) pass
 *   `bucket_bytes_cap` as the first-bucket cap too when the user sets `bucket_cap_mb` explicitly;
 *   docs/model.md §2 keeps 1 MiB, and `firstBucketBytes` is a knob for that case.
 * Leftover buckets here follow the order in which their dtype first appeared (deterministic;
 * docs/model.md accepts any order of them).
 */
import type { Param } from "./modelList.ts";

export const MIB = 1024 * 1024;

export interface Bucket {
  /** Registration indices of its parameters, in gradient-ready order. */
  params: number[];
  bytes: number;
  dtype: string;
  /** The limit that was in force for it (first-bucket cap or bucket_cap). */
  limit: number;
}

export interface BucketLimits {
  capBytes: number;
  firstBucketBytes: number;
}

/** PyTorch's truncation of a fractional MiB figure to bytes. */
export function mibToBytes(mib: number): number {
  return Math.trunc(mib * MIB);
}

/**
 * Assigns parameters (registration order) to buckets, walking them in `readyOrder` (registration
 * indices; default: reverse registration order, as backward produces them).
 */
export function assignBuckets(
  params: readonly Param[],
  limits: BucketLimits,
  readyOrder?: readonly number[],
): Bucket[] {
  const order = readyOrder ?? params.map((_, i) => params.length - 1 - i);
  const sequence = [limits.firstBucketBytes, limits.capBytes];
  const open = new Map<string, { params: number[]; bytes: number; level: number }>();
  const result: Bucket[] = [];
  for (const i of order) {
    const p = params[i];
    if (p === undefined) throw new RangeError(`ready order names parameter ${i}, which does not exist`);
    let b = open.get(p.dtype);
    if (b === undefined) {
      b = { params: [], bytes: 0, level: 0 };
      open.set(p.dtype, b);
    }
    b.params.push(i);
    b.bytes += p.bytes;
    const limit = sequence[b.level] as number;
    if (b.bytes >= limit) {
      result.push({ params: b.params, bytes: b.bytes, dtype: p.dtype, limit });
      b.params = [];
      b.bytes = 0;
      b.level = Math.min(b.level + 1, sequence.length - 1);
    }
  }
  for (const [dtype, b] of open) {
    if (b.params.length > 0) {
      result.push({ params: b.params, bytes: b.bytes, dtype, limit: sequence[b.level] as number });
    }
  }
  return result;
}
