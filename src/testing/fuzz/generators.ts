/**
 * Seeded, deterministic generators of hostile input for the fuzz suite: share links (mutations of
 * real links), scenario files (random JSON around the schema) and parameter-list pastes. Every
 * generator draws from one Rng, so a seed always gives the same cases; sizes are bounded so that
 * every case has a bounded cost (lists of at most 40 entries, texts of at most a few KB).
 */
import { Rng } from "../../sim/rng.ts";
import { FIELD_SPECS, type FieldSpec, GROUPS } from "../../sim/scenario/index.ts";

export class Draw {
  private side: Draw | undefined;
  constructor(readonly rng: Rng) {}
  /**
   * A second stream, for what the generators draw for groups added later (version 6's): the
   * cases drawn before them stay exactly what they were.
   */
  get later(): Draw {
    this.side ??= new Draw(new Rng(0x6d1c));
    return this.side;
  }
  int(lo: number, hi: number): number {
    return lo + this.rng.below(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.rng.uniform() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.rng.below(xs.length)]!;
  }
}

const ODD_KEYS = ["__proto__", "toString", "constructor", "hasOwnProperty", "valueOf", "", "é", "gpus "];
const ODD_STRINGS = ["", " ", "poisson ", "POISSON", "\u202e", "<script>", "\uFEFF", "x".repeat(300), "NaN"];
const ODD_NUMBERS = [
  0,
  -0,
  -1,
  Number.MIN_VALUE,
  1e-320,
  1e-9,
  0.5,
  1,
  2.5,
  1e15,
  1e308,
  Number.MAX_SAFE_INTEGER,
  2 ** 32,
  4_294_967_295,
];

/** A random JSON value, shallow (bounded size). */
function junk(d: Draw, depth = 0): unknown {
  switch (d.int(0, depth > 1 ? 3 : 5)) {
    case 0:
      return d.pick(ODD_NUMBERS) * (d.chance(0.2) ? -1 : 1);
    case 1:
      return d.pick(ODD_STRINGS);
    case 2:
      return d.pick([null, true, false]);
    case 3:
      return d.rng.uniform() * 10 ** d.int(-5, 8);
    case 4:
      return Array.from({ length: d.int(0, 3) }, () => junk(d, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: d.int(0, 3) }, () => [d.pick(ODD_KEYS), junk(d, depth + 1)]),
      );
  }
}

/** A value for a field: mostly in or at the edge of its range, sometimes just outside, sometimes junk. */
function fieldValue(d: Draw, spec: FieldSpec): unknown {
  if (d.chance(0.1)) return junk(d);
  if (spec.kind === "enum") {
    // A value that needs another field (log arrivals need a log) only now and then: most cases
    // should get past the schema to the engine.
    const plain = spec.values.filter((v) => !spec.valuesNotSwept?.includes(v));
    return d.chance(0.9) ? d.pick(d.chance(0.95) ? plain : spec.values) : d.pick(ODD_STRINGS);
  }
  if (spec.kind === "record")
    return Object.fromEntries(
      Object.entries(spec.fields).map(([k, f]) => [
        k,
        fieldValue(d, { ...f, knob: { section: "failures" } }),
      ]),
    );
  if (spec.kind === "log") {
    // Mostly the empty log (any other is refused unless it fits the cluster), then a small one, or junk.
    if (d.chance(0.8)) return { hosts: 0, days: 0, events: [] };
    return d.chance(0.5)
      ? { hosts: d.int(0, 64), days: d.int(0, 400), events: [[d.int(0, 9), 0, d.int(0, 63)]] }
      : junk(d);
  }
  if (spec.kind !== "int" && spec.kind !== "number") return junk(d);
  const low = spec.smallest ?? spec.min;
  const edges = [spec.min, low, spec.max, spec.max + 1, spec.min - 1, low / 2, Number.MIN_VALUE];
  if (d.chance(0.3)) return d.pick(edges);
  const v = low + d.rng.uniform() ** 3 * (spec.max - low);
  return spec.kind === "int" ? Math.round(v) : v;
}

/** A cause list (scenario v2) around its schema. */
function causes(d: Draw): unknown {
  return Array.from({ length: d.chance(0.05) ? 33 : d.int(0, 4) }, () => ({
    name: d.chance(0.9) ? `cause ${d.int(0, 9)}` : d.pick(ODD_STRINGS),
    share: d.chance(0.9) ? d.rng.uniform() * 2 : d.pick(ODD_NUMBERS),
    scope: d.pick(["host", "rack", "job", "job", "switch"]),
    hang: d.chance(0.5),
    newHost: d.chance(0.7),
    ...(d.chance(0.05) ? { colour: "red" } : {}),
  }));
}

/**
 * A scenario object around the schema: a random subset of the real groups and fields, the
 * cluster usually consistent (hosts divisible by replicas) so that many cases are accepted, and
 * sometimes unknown fields, prototype-named keys, junk values and wrong types.
 */
export function scenarioObject(d: Draw): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (d.chance(0.3)) out.seed = d.chance(0.8) ? d.int(0, 2 ** 31) : junk(d);
  if (d.chance(0.1)) out.version = d.pick([1, 2, 3, "1", null]);
  if (d.chance(0.2)) out.name = d.chance(0.8) ? `fuzz ${d.int(0, 999)}` : d.pick(ODD_STRINGS);
  for (const g of GROUPS) {
    // A group that came whole with version 6 draws from the later stream.
    const newest = Object.values(FIELD_SPECS[g] as Record<string, FieldSpec>).every((s) => s.since === 6);
    if (newest) continue;
    if (!d.chance(0.5)) continue;
    const group: Record<string, unknown> = {};
    for (const [k, spec] of Object.entries(FIELD_SPECS[g] as Record<string, FieldSpec>)) {
      // Version 4's, 5's and 6's fields less often: each is one more way to be refused, and most
      // cases should still reach the engine.
      if (d.chance((spec.since ?? 1) >= 4 ? 0.05 : 0.4))
        group[k] = k === "causes" ? causes(d) : fieldValue(d, spec);
    }
    if (d.chance(0.05)) group[d.pick(ODD_KEYS)] = junk(d);
    out[g] = d.chance(0.97) ? group : junk(d);
  }
  if (d.chance(0.7)) {
    // A consistent cluster (hosts = replicas × hosts per replica) with a small failure count.
    const gpusPerHost = d.pick([1, 8]);
    const replicas = d.int(1, 64);
    out.cluster = { gpus: gpusPerHost * replicas * d.int(1, 64), gpusPerHost, replicas };
    if (typeof out.ft === "object" && out.ft !== null) delete (out.ft as Record<string, unknown>).minReplicas;
  }
  if (d.chance(0.05)) out[d.pick(ODD_KEYS)] = junk(d);
  capFailures(out);
  for (const g of GROUPS) {
    const specs = Object.entries(FIELD_SPECS[g] as Record<string, FieldSpec>);
    if (!specs.every(([, s]) => s.since === 6) || !d.later.chance(0.05)) continue;
    const group: Record<string, unknown> = {};
    for (const [k, spec] of specs) if (d.later.chance(0.4)) group[k] = fieldValue(d.later, spec);
    out[g] = d.later.chance(0.97) ? group : junk(d.later);
  }
  overlapBelowRound(out);
  return out;
}

/** Most failures one generated run may simulate: the fuzz suite's cost bound per case. */
export const FUZZ_MAX_FAILURES = 5000;

/** Lowers a numeric failure rate so a run expects at most FUZZ_MAX_FAILURES (the default cluster has 12,288 hosts). */
function capFailures(out: Record<string, unknown>): void {
  const num = (group: unknown, key: string, fallback: number) => {
    const v =
      typeof group === "object" && group !== null ? (group as Record<string, unknown>)[key] : undefined;
    return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : fallback;
  };
  const hosts = num(out.cluster, "gpus", 98_304) / num(out.cluster, "gpusPerHost", 8);
  const days = num(out.training, "days", 30);
  if (out.failures === undefined) out.failures = {};
  const failures = out.failures;
  if (typeof failures !== "object" || failures === null || Array.isArray(failures)) return; // refused anyway
  const f = failures as Record<string, unknown>;
  const rate = typeof f.perHostDay === "number" ? f.perHostDay : 0.00651; // the default rate
  if (hosts * rate * days > FUZZ_MAX_FAILURES) f.perHostDay = FUZZ_MAX_FAILURES / (hosts * days);
  // §6: slow episodes cost like failures: the same bound.
  const slow = out.slow;
  if (typeof slow !== "object" || slow === null || Array.isArray(slow)) return;
  const sl = slow as Record<string, unknown>;
  if (typeof sl.perHostDay === "number" && hosts * sl.perHostDay * days > FUZZ_MAX_FAILURES)
    sl.perHostDay = FUZZ_MAX_FAILURES / (hosts * days);
}

/** §7: a numeric overlap kept below its round most of the time (the refusal has its own tests). */
function overlapBelowRound(out: Record<string, unknown>): void {
  const g = out.diloco;
  if (typeof g !== "object" || g === null || Array.isArray(g)) return;
  const dl = g as Record<string, unknown>;
  const every = typeof dl.syncEvery === "number" ? dl.syncEvery : 100;
  if (typeof dl.overlapSteps === "number" && dl.overlapSteps >= every && every >= 1)
    dl.overlapSteps = Math.floor(every) - 1;
}

/** Breaks a text the way a hand edit, a bad copy or a truncation does. */
export function mutateText(d: Draw, text: string, alphabet: string): string {
  let t = text;
  for (let n = d.int(1, 3); n > 0; n--) {
    const at = d.int(0, Math.max(0, t.length - 1));
    switch (d.int(0, 5)) {
      case 0:
        t = t.slice(0, at) + t.slice(at + 1);
        break;
      case 1:
        t = t.slice(0, at) + d.pick([...alphabet]) + t.slice(at);
        break;
      case 2:
        t = t.slice(0, at) + d.pick([...alphabet]) + t.slice(at + 1);
        break;
      case 3:
        t = t.slice(0, at);
        break;
      case 4:
        t = t.slice(0, at) + t.slice(at, at + d.int(1, 20)).repeat(2) + t.slice(at + 20);
        break;
      default:
        t = t.slice(0, at) + t.slice(at + d.int(1, 20));
    }
  }
  return t;
}

export const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
export const JSON_CHARS = "{}[],:\"0123456789.-eE truefalsn\\'x\n";

/** A scenario file's text: JSON of scenarioObject, sometimes with a byte-order mark, sometimes broken. */
export function scenarioText(d: Draw): string {
  const value = d.chance(0.03) ? junk(d) : scenarioObject(d);
  let text = JSON.stringify(value, null, d.chance(0.5) ? 2 : undefined) ?? "null";
  if (d.chance(0.05)) text = `{"__proto__": ${text}}`;
  if (d.chance(0.2)) text = mutateText(d, text, JSON_CHARS);
  return d.chance(0.1) ? `\uFEFF${text}` : text;
}

/** A share link derived from a real one: the whole URL, the hash or the value, mutated or not. */
export function linkFrom(d: Draw, real: string): string {
  const param = real.slice(real.indexOf("s=") + 2);
  let p = param;
  switch (d.int(0, 6)) {
    case 0:
      break; // the real link, as is
    case 1:
      p = mutateText(d, p, BASE64URL);
      break;
    case 2:
      p = `${d.pick(["1", "2", "3", "", "01", "2.2"])}${p.slice(p.indexOf("."))}`;
      break;
    case 3:
      p = `${p.slice(0, 2)}${p.slice(2).split("").reverse().join("")}`;
      break;
    case 4:
      p = p.slice(0, d.int(0, p.length));
      break;
    case 5:
      p = `${p.slice(0, 2)}${Array.from({ length: d.int(0, 200) }, () => d.pick([...BASE64URL])).join("")}`;
      break;
    default:
      p = mutateText(d, p, `${BASE64URL}.=&#%+/ `);
  }
  const wrap = d.int(0, 4);
  const extra = d.chance(0.2) ? `&${d.pick(["v=cluster", "w=1.2", "s=", "x", "=&="])}` : "";
  if (wrap === 0) return `https://example.org/app/#s=${p}${extra}`;
  if (wrap === 1) return `#${extra.slice(1)}${extra ? "&" : ""}s=${p}`;
  if (wrap === 2) return `s=${p}`;
  if (wrap === 3) return `  #s=${p}${extra}  `;
  return `http://localhost:4173/#s=${p}${"A".repeat(d.chance(0.02) ? 5000 : 0)}`;
}

const DTYPES = [
  "float32",
  "torch.float32",
  "bfloat16",
  "torch.float16",
  "int8",
  "bool",
  "float8_e4m3fn",
  "complex64",
];
const ODD_DTYPES = ["toString", "__proto__", "constructor", "torch.", "float33", "", "FLOAT32", " float32"];

/** A parameter list paste: a few entries in one of the layouts PyTorch users paste, sometimes broken. */
export function pasteText(d: Draw): string {
  const entries: Record<string, unknown>[] = Array.from({ length: d.int(1, 40) }, (_, i) => ({
    name: `layer${i}.${d.pick(["weight", "bias"])}`,
    shape: Array.from({ length: d.int(0, 4) }, () => d.int(0, 4096)),
    dtype: d.pick(DTYPES),
  }));
  // Half the pastes carry one odd entry: a junk name or shape, an odd number, an odd dtype, a missing field.
  if (d.chance(0.5)) {
    const e = d.pick(entries);
    switch (d.int(0, 4)) {
      case 0:
        e.name = junk(d);
        break;
      case 1:
        e.shape = junk(d);
        break;
      case 2:
        e.shape = [d.pick(ODD_NUMBERS), d.pick(ODD_NUMBERS)];
        break;
      case 3:
        e.dtype = d.pick(ODD_DTYPES);
        break;
      default:
        delete e[d.pick(["name", "shape", "dtype"])];
    }
  }
  const value = d.chance(0.03) ? junk(d) : d.chance(0.2) ? { model: "fuzz", parameters: entries } : entries;
  let text: string;
  switch (d.int(0, 2)) {
    case 0:
      text = JSON.stringify(value) ?? "";
      break;
    case 1:
      text = JSON.stringify(value, null, 2) ?? "";
      break;
    default:
      // Python's print(): single quotes.
      text = (JSON.stringify(value) ?? "").replaceAll('"', "'");
  }
  if (d.chance(0.3)) text = mutateText(d, text, JSON_CHARS);
  return d.chance(0.1) ? `\uFEFF${text}` : text;
}
