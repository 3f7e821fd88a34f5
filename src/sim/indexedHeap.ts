/**
 * A binary min-heap of items 0..n−1 keyed by an external Float64Array, with each item's position
 * tracked, so an item's key can change or the item can leave from anywhere in O(log size).
 * FT-HSDP keeps one entry per recovering replica (its next phase end) instead of a queue of
 * stale events. Ties are broken by item index, so the order never depends on insertion history.
 */
export class IndexedMinHeap {
  private readonly items: Int32Array;
  /** Position of each item in `items`, −1 when absent. */
  private readonly pos: Int32Array;
  size = 0;

  constructor(
    capacity: number,
    private readonly key: Float64Array,
  ) {
    this.items = new Int32Array(capacity);
    this.pos = new Int32Array(capacity).fill(-1);
  }

  has(item: number): boolean {
    return this.pos[item]! >= 0;
  }

  /** The item with the least key; only valid when size > 0. */
  top(): number {
    return this.items[0]!;
  }

  /** Insert the item, or restore heap order after its key changed. */
  upsert(item: number): void {
    const at = this.pos[item]!;
    if (at < 0) {
      this.place(item, this.size++);
      this.up(this.size - 1);
    } else {
      this.down(this.up(at));
    }
  }

  remove(item: number): void {
    const at = this.pos[item]!;
    if (at < 0) return;
    this.pos[item] = -1;
    const last = this.items[--this.size]!;
    if (at === this.size) return;
    this.place(last, at);
    this.down(this.up(at));
  }

  /** The item at position i (0 ≤ i < size), for a walk over every item in heap order. */
  at(i: number): number {
    return this.items[i]!;
  }

  /** Empty the heap in O(size). */
  clear(): void {
    for (let i = 0; i < this.size; i++) this.pos[this.items[i]!] = -1;
    this.size = 0;
  }

  private less(a: number, b: number): boolean {
    const ka = this.key[a]!;
    const kb = this.key[b]!;
    return ka < kb || (ka === kb && a < b);
  }

  private place(item: number, at: number): void {
    this.items[at] = item;
    this.pos[item] = at;
  }

  private up(at: number): number {
    const item = this.items[at]!;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const p = this.items[parent]!;
      if (!this.less(item, p)) break;
      this.place(p, at);
      at = parent;
    }
    this.place(item, at);
    return at;
  }

  private down(at: number): void {
    const item = this.items[at]!;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.size) break;
      const right = child + 1;
      if (right < this.size && this.less(this.items[right]!, this.items[child]!)) child = right;
      const c = this.items[child]!;
      if (!this.less(c, item)) break;
      this.place(c, at);
      at = child;
    }
    this.place(item, at);
  }
}
