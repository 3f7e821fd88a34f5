/**
 * For each of many points in time, the first span (in trace order) whose closed window
 * [start, end] holds it: what `spans.find((s) => t >= s.start && t <= s.end)` gives, for every
 * point at once in O((n + m) log(n + m)) instead of O(n·m).
 *
 * The measurement asks this of every NCCL kernel that carries no size (older PyTorch): the
 * `record_param_comms` op around its launch has it. A 200 MB trace of such kernels holds ~10⁵ of
 * each, and the search per kernel made it 10¹⁰ comparisons.
 *
 * The points are visited in increasing time. A span becomes a candidate once its start is reached,
 * and is dead for good once a point passes its end (later points are later still). Candidates sit
 * in a min-heap by their place in trace order; dead ones are dropped lazily when they surface, so
 * the top, once alive, is the first live span in trace order.
 */
export interface Window {
  start: number;
  end: number;
}

/** `out[k]` is the index in `spans` of the first span holding `points[k]`, or −1. */
export function firstEnclosing(spans: readonly Window[], points: readonly number[]): Int32Array {
  const out = new Int32Array(points.length).fill(-1);
  if (spans.length === 0 || points.length === 0) return out;
  const byStart = Array.from(spans.keys()).sort(
    (a, b) => (spans[a] as Window).start - (spans[b] as Window).start || a - b,
  );
  const byTime = Array.from(points.keys()).sort((a, b) => (points[a] as number) - (points[b] as number));
  const heap = new MinHeap(spans.length);
  let next = 0;
  for (const k of byTime) {
    const t = points[k] as number;
    while (next < byStart.length && (spans[byStart[next] as number] as Window).start <= t) {
      heap.push(byStart[next] as number);
      next++;
    }
    while (heap.size > 0 && (spans[heap.top()] as Window).end < t) heap.pop();
    if (heap.size > 0) out[k] = heap.top();
  }
  return out;
}

/** A binary min-heap of span indices. */
class MinHeap {
  private readonly items: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.items = new Int32Array(capacity);
  }

  top(): number {
    return this.items[0] as number;
  }

  push(v: number): void {
    const a = this.items;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((a[parent] as number) <= v) break;
      a[i] = a[parent] as number;
      i = parent;
    }
    a[i] = v;
  }

  pop(): void {
    const a = this.items;
    const last = a[--this.size] as number;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) break;
      const r = l + 1;
      const c = r < this.size && (a[r] as number) < (a[l] as number) ? r : l;
      if ((a[c] as number) >= last) break;
      a[i] = a[c] as number;
      i = c;
    }
    a[i] = last;
  }
}
