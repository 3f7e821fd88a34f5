/**
 * A model as DDP sees it: its parameters in registration order, exactly what
 * `[{"name": n, "shape": list(p.shape), "dtype": str(p.dtype)} for n, p in model.named_parameters()]`
 * prints. Pasted text is checked entry by entry so a mistake is reported where it is.
 */
import { canonicalDtype, elementBytes, KNOWN_DTYPES } from "./dtypes.ts";

export interface Param {
  name: string;
  shape: readonly number[];
  /** Canonical dtype ("float32", never "torch.float32"). */
  dtype: string;
  numel: number;
  /** Gradient bytes: numel × element size, what DDP adds to a bucket. */
  bytes: number;
}

export interface ParamSpec {
  name: string;
  shape: readonly number[];
  dtype: string;
}

export class ModelListError extends Error {
  /** Zero-based index of the offending entry, or null when the problem is the list as a whole. */
  readonly entry: number | null;
  constructor(message: string, entry: number | null) {
    super(message);
    this.name = "ModelListError";
    this.entry = entry;
  }
}

export function makeParam(spec: ParamSpec): Param {
  const dtype = canonicalDtype(spec.dtype);
  if (dtype === null) throw new Error(`unknown dtype ${spec.dtype}`);
  const numel = spec.shape.reduce((a, b) => a * b, 1);
  return { name: spec.name, shape: spec.shape, dtype, numel, bytes: numel * elementBytes(dtype) };
}

function entryLabel(index: number, name: string | null): string {
  return name === null ? `entry ${index}` : `entry ${index} ("${name}")`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Checks a parsed value: the plain list, or the `{"parameters": [...]}` wrapper of the shared files. */
export function validateModelList(value: unknown): Param[] {
  const list = isRecord(value) && "parameters" in value ? value.parameters : value;
  if (!Array.isArray(list)) {
    throw new ModelListError(
      'Expected a JSON list of {"name", "shape", "dtype"} entries (or {"parameters": [...]}).',
      null,
    );
  }
  if (list.length === 0)
    throw new ModelListError("The parameter list is empty: a model needs at least one.", null);
  return list.map((entry: unknown, i) => {
    if (!isRecord(entry)) throw new ModelListError(`${entryLabel(i, null)} is not an object.`, i);
    const name = typeof entry.name === "string" ? entry.name : null;
    const where = entryLabel(i, name);
    if (name === null || name === "")
      throw new ModelListError(`${where}: "name" is missing or not a string.`, i);
    if (!("shape" in entry)) throw new ModelListError(`${where}: "shape" is missing.`, i);
    const shape = entry.shape;
    if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) {
      throw new ModelListError(`${where}: "shape" must be a list of non-negative integers.`, i);
    }
    if (typeof entry.dtype !== "string") throw new ModelListError(`${where}: "dtype" is missing.`, i);
    if (canonicalDtype(entry.dtype) === null) {
      throw new ModelListError(
        `${where}: unknown dtype "${entry.dtype}" (expected e.g. ${KNOWN_DTYPES.slice(0, 6).join(", ")}).`,
        i,
      );
    }
    return makeParam({ name, shape: shape as number[], dtype: entry.dtype });
  });
}

/**
 * Which list entry a character offset falls in, and that entry's name if it is already written:
 * a JSON syntax error is reported against the entry a person has to fix.
 */
function entryAt(text: string, offset: number): { index: number; name: string | null } | null {
  const stack: string[] = [];
  let index = -1;
  let start = -1;
  let inString = false;
  for (let i = 0; i < Math.min(offset, text.length); i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      if (c === "{" && stack.at(-1) === "[" && !stack.slice(0, -1).includes("[")) {
        index++;
        start = i;
      }
      stack.push(c);
    } else if (c === "]" || c === "}") stack.pop();
  }
  if (index < 0) return null;
  const name = /"name"\s*:\s*"([^"]*)"/.exec(text.slice(start, offset))?.[1] ?? null;
  return { index, name };
}

/**
 * Parses pasted text. Python's own `print()` of the list uses single quotes; such text (with no
 * double quotes in it) is read as JSON after swapping the quotes, so a paste from a REPL works.
 */
export function parseModelList(text: string): Param[] {
  if (text.trim() === "") throw new ModelListError("Nothing pasted: paste the model's parameter list.", null);
  const json = text.includes('"') ? text : text.replaceAll("'", '"');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const pos = /position (\d+)/.exec(message);
    const at = pos ? entryAt(json, Number(pos[1])) : null;
    const where = at ? `${entryLabel(at.index, at.name)}: ` : "";
    throw new ModelListError(`Malformed JSON, ${where}${message}`, at?.index ?? null);
  }
  return validateModelList(value);
}
