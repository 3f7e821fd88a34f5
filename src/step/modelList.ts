/**
 * A model as DDP sees it: its parameters in registration order, exactly what
 * `[{"name": n, "shape": list(p.shape), "dtype": str(p.dtype)} for n, p in model.named_parameters()]`
 * prints. Pasted text is checked entry by entry so a mistake is reported where it is.
 */
import { canonicalDtype, elementBytes, KNOWN_DTYPES } from "./dtypes.ts";
import { describeDuplicateKey, firstDuplicateKey, firstSyntaxError } from "./jsonSyntax.ts";
import { isShapePrintout, parseShapePrintout } from "./shapePrintout.ts";

/**
 * The largest gradient one parameter may have: 1 PiB, about 250,000 times Llama 3 405B's largest
 * tensor. Past it a shape like [1e308, 1e308] would make Infinity bytes and NaN times.
 */
export const MAX_PARAM_BYTES = 2 ** 50;
/** The largest model: 8 PiB of gradients, where byte counts stop being exact integers. */
export const MAX_MODEL_BYTES = 2 ** 53;
/**
 * The most parameters a list may have: far past real models (Llama 3 405B has 1,138; a 256-expert
 * MoE tens of thousands), and the size the page is measured at (`npm run bench:paste`: no
 * main-thread task over 200 ms). Past it the page's own costs would grow unmeasured.
 */
export const MAX_PARAMS = 200_000;
/**
 * The longest paste: 32 Mi characters, 168 per entry at MAX_PARAMS, room for long names printed
 * in full. The page copies and counts a paste on its main thread, so its length is bounded too
 * (bench:paste measures a paste of exactly this length).
 */
export const MAX_PASTE_CHARS = 32 * 1024 * 1024;

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
  if (list.length > MAX_PARAMS) {
    throw new ModelListError(
      `The list has ${list.length.toLocaleString("en-US")} parameters; the explorer takes at most ${MAX_PARAMS.toLocaleString("en-US")}.`,
      null,
    );
  }
  let total = 0;
  const params = list.map((entry: unknown, i) => {
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
        `${where}: unknown dtype ${JSON.stringify(entry.dtype.slice(0, 40))} (expected e.g. ${KNOWN_DTYPES.slice(0, 6).join(", ")}).`,
        i,
      );
    }
    const param = makeParam({ name, shape: shape as number[], dtype: entry.dtype });
    if (!(param.bytes <= MAX_PARAM_BYTES)) {
      throw new ModelListError(
        `${where}: "shape" [${shape.join(", ")}] makes ${formatBytes(param.bytes)} of gradients; one parameter may have at most ${formatBytes(MAX_PARAM_BYTES)}.`,
        i,
      );
    }
    total += param.bytes;
    if (total > MAX_MODEL_BYTES) {
      throw new ModelListError(
        `${where}: the model passes ${formatBytes(MAX_MODEL_BYTES)} of gradients here, the most a model may have.`,
        i,
      );
    }
    return param;
  });
  // Every shape holds a 0: no element to bucket, and every share of the step would be 0 / 0.
  if (total === 0)
    throw new ModelListError(
      `Every parameter of the list is empty (a shape with a 0, such as [0]): the model has no elements; a model needs at least one.`,
      null,
    );
  return params;
}

function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return "more bytes than a number can hold";
  const pib = bytes / 2 ** 50;
  return pib >= 1 ? `${pib.toLocaleString("en-US", { maximumFractionDigits: 1 })} PiB` : `${bytes} bytes`;
}

/**
 * Which entry of the parameter list (the outermost list, bare or inside the {"parameters": ...}
 * wrapper) a character offset falls in, and that entry's name where the text states one: a JSON
 * syntax error is reported against the entry a person has to fix. Entries are counted by the
 * list's own commas, so a broken entry that is not even an object still gets its number.
 */
function entryAt(text: string, offset: number): { index: number; name: string | null } | null {
  const stack: string[] = [];
  let listDepth = -1;
  let closed = false;
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
      stack.push(c);
      if (c === "[" && listDepth < 0 && !closed && stack.indexOf("[") === stack.length - 1) {
        listDepth = stack.length;
        index = 0;
        start = i + 1;
      }
    } else if (c === "]" || c === "}") {
      if (stack.length === listDepth) {
        listDepth = -1;
        closed = true;
      }
      stack.pop();
    } else if (c === "," && stack.length === listDepth) {
      index++;
      start = i + 1;
    }
  }
  if (index < 0 || closed) return null;
  const entry = text.slice(start, start + 4096).split("}")[0] ?? "";
  const name = /"name"\s*:\s*"((?:[^"\\\n]|\\.){0,200})"/.exec(entry)?.[1] ?? null;
  return { index, name };
}

/**
 * Parses pasted text. Python's own `print()` of the list uses single quotes; such text (with no
 * double quotes in it) is read as JSON after swapping the quotes, so a paste from a REPL works.
 */
export function parseModelList(pasted: string): Param[] {
  // A file saved by some Windows editors starts with a byte-order mark, which JSON does not allow.
  const text = pasted.startsWith("\uFEFF") ? pasted.slice(1) : pasted;
  if (text.length > MAX_PASTE_CHARS) {
    throw new ModelListError(
      `The paste is ${text.length.toLocaleString("en-US")} characters; a parameter list may have at most ${MAX_PASTE_CHARS.toLocaleString("en-US")} (32 MiB).`,
      null,
    );
  }
  if (text.trim() === "") throw new ModelListError("Nothing pasted: paste the model's parameter list.", null);
  // `for n, p in model.named_parameters(): print(n, p.shape)`: one "name torch.Size([…])" a line.
  if (isShapePrintout(text)) {
    let entries: ReturnType<typeof parseShapePrintout>["entries"];
    try {
      entries = parseShapePrintout(text).entries;
    } catch (e) {
      throw new ModelListError(`In the printout, ${(e as Error).message}.`, null);
    }
    return validateModelList(entries);
  }
  const json = text.includes('"') ? text : text.replaceAll("'", '"');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    const syntax = firstSyntaxError(json);
    if (syntax === null) throw new ModelListError(`Malformed JSON: ${(e as Error).message}`, null);
    const at = entryAt(json, syntax.offset);
    const where = at ? `, ${entryLabel(at.index, at.name)}` : "";
    throw new ModelListError(
      `Malformed JSON at line ${syntax.line}, column ${syntax.column}${where}: ${syntax.message}.`,
      at?.index ?? null,
    );
  }
  // JSON.parse keeps the last of a key given twice: the paste would mean something it does not say.
  const twice = firstDuplicateKey(json);
  if (twice) {
    const index = /\[(\d+)\]$/.exec(twice.path);
    const at = index ? Number(index[1]) : null;
    throw new ModelListError(
      `${at === null ? "" : `${entryLabel(at, null)}: `}${describeDuplicateKey(twice)}.`,
      at,
    );
  }
  return validateModelList(value);
}
