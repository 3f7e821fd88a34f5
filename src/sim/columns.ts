/**
 * Growable typed columns for recorded traces: rows are appended while a run sweeps time, then
 * cut to their exact length so the worker can transfer the buffers.
 */
type TypedArray = Float64Array | Int32Array | Uint8Array;
type TypedArrayConstructor<T extends TypedArray> = new (length: number) => T;

export class Column<T extends TypedArray> {
  private data: T;
  length = 0;

  constructor(
    private readonly Ctor: TypedArrayConstructor<T>,
    capacity = 64,
  ) {
    this.data = new Ctor(capacity);
  }

  push(value: number): number {
    if (this.length === this.data.length) {
      const bigger = new this.Ctor(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length] = value;
    return this.length++;
  }

  /** The last row's value (only when length > 0). */
  last(): number {
    return this.data[this.length - 1]!;
  }

  get(row: number): number {
    return this.data[row]!;
  }

  set(row: number, value: number): void {
    this.data[row] = value;
  }

  /** A copy of exactly the pushed rows (its own buffer, transferable). */
  toArray(): T {
    return this.data.slice(0, this.length) as T;
  }
}

export const f64 = (capacity?: number) => new Column(Float64Array, capacity);
export const i32 = (capacity?: number) => new Column(Int32Array, capacity);
export const u8 = (capacity?: number) => new Column(Uint8Array, capacity);

/** A piecewise-linear curve (t, value), appended in time order. */
export class CurveBuilder {
  readonly t = f64();
  readonly value = f64();

  /** Append a point; one equal to the last is dropped (segments often meet at their ends). */
  point(t: number, value: number): void {
    const last = this.t.length - 1;
    if (last >= 0 && this.t.get(last) === t && this.value.get(last) === value) return;
    this.t.push(t);
    this.value.push(value);
  }

  build(): { t: Float64Array; useful: Float64Array } {
    return { t: this.t.toArray(), useful: this.value.toArray() };
  }
}
