/**
 * Element sizes of the dtypes `str(p.dtype)` prints, so a pasted `named_parameters()` list can be
 * turned into gradient bytes. Gradients have their parameter's dtype, which is what DDP buckets by.
 */
// Maps, not object literals: the keys are looked up with pasted text, and a plain object would
// answer "toString" or "__proto__" from its prototype.
const ELEMENT_BYTES: ReadonlyMap<string, number> = new Map(
  Object.entries({
    float64: 8,
    double: 8,
    float32: 4,
    float: 4,
    float16: 2,
    half: 2,
    bfloat16: 2,
    float8_e4m3fn: 1,
    float8_e4m3fnuz: 1,
    float8_e5m2: 1,
    float8_e5m2fnuz: 1,
    complex128: 16,
    cdouble: 16,
    complex64: 8,
    cfloat: 8,
    complex32: 4,
    int64: 8,
    long: 8,
    int32: 4,
    int: 4,
    int16: 2,
    short: 2,
    int8: 1,
    uint8: 1,
    bool: 1,
  }),
);

/** Aliases PyTorch prints differently from its canonical name (torch.float == torch.float32). */
const CANONICAL: ReadonlyMap<string, string> = new Map(
  Object.entries({
    double: "float64",
    float: "float32",
    half: "float16",
    cdouble: "complex128",
    cfloat: "complex64",
    long: "int64",
    int: "int32",
    short: "int16",
  }),
);

export const KNOWN_DTYPES: readonly string[] = [...ELEMENT_BYTES.keys()].filter((d) => !CANONICAL.has(d));

/** "torch.float32" or "float32" → "float32"; null when the dtype is not one PyTorch has. */
export function canonicalDtype(raw: string): string | null {
  const bare = raw.trim().replace(/^torch\./, "");
  if (!ELEMENT_BYTES.has(bare)) return null;
  return CANONICAL.get(bare) ?? bare;
}

/** Bytes per element of a canonical dtype (see canonicalDtype). */
export function elementBytes(dtype: string): number {
  const b = ELEMENT_BYTES.get(dtype);
  if (b === undefined) throw new Error(`unknown dtype ${dtype}`);
  return b;
}
