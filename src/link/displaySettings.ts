/**
 * The display settings, as one table: settings that change what the page shows
 * or how long it runs, never an engine number, so they are not scenario fields. Each says its
 * range, unit, link key, default and (where the CLI has it) its flag; the check, the words of a
 * refusal, the link's reader and its writer all follow from its row, so the range lives in one
 * place and what the link writes is always what its reader accepts.
 *
 * A value is "shown" in the row's unit (the Monte Carlo's precision in ± points of ETTR); a store
 * may keep it in another unit (the Monte Carlo compares a fraction), and toStored/toShown are the
 * only crossing between the two.
 */
import { LinkError } from "./linkError.ts";

interface SettingBase {
  /** Its name at the start of a refusal, as the field that sets it is labelled. */
  readonly label: string;
  /** Its key in the address (src/state/address.ts's ADDRESS_KEYS). */
  readonly linkKey: string;
  /** Its value when the link leaves it out (so old links open as they did). */
  readonly default: number;
  /** Its flag on `npm run sim`, where the CLI can set it. */
  readonly cliFlag?: string;
}

/** A number in [min, max] with at most `decimals` decimals (0: a whole number). */
export interface RangeSetting extends SettingBase {
  readonly kind: "range";
  readonly min: number;
  readonly max: number;
  readonly decimals: number;
  /** The unit after the range in words ("runs"), or before the number ("$"). */
  readonly unit: string;
  readonly unitBefore?: boolean;
  /** How many shown units one stored unit is (precision: a fraction is 100 points); 1 when the same. */
  readonly shownPerStored: number;
}

/** One of a few values. */
export interface ChoiceSetting extends SettingBase {
  readonly kind: "choice";
  readonly choices: readonly number[];
  readonly unit: string;
}

export type DisplaySetting = RangeSetting | ChoiceSetting;

export const DISPLAY_SETTINGS = {
  /** Stop when every policy's 95 % half-width of the mean ETTR is within this (src/sim/monteCarlo/mcStream.ts). */
  mcPrecision: {
    kind: "range",
    label: "Precision",
    linkKey: "mcp",
    // Below 0.01 point the cap decides anyway; above 20 the band says nothing.
    min: 0.01,
    max: 20,
    decimals: 6,
    unit: "points of ETTR (±, 95 %)",
    default: 0.5,
    shownPerStored: 100,
    cliFlag: "--precision",
  },
  /** Never more Monte Carlo runs than this: at least one chunk's worth, at most what one task summarizes. */
  mcCap: {
    kind: "range",
    label: "Cap on runs",
    linkKey: "mcn",
    min: 10,
    max: 20_000,
    decimals: 0,
    unit: "runs",
    default: 2000,
    shownPerStored: 1,
    cliFlag: "--max-runs",
  },
  /**
   * US dollars per GPU-hour, for the lost GPU-hours' cost. The default is a placeholder:
   * no public source gives a price; the maximum keeps every cost finite.
   */
  gpuPrice: {
    kind: "range",
    label: "Price per GPU-hour",
    linkKey: "gph",
    min: 0,
    max: 1000,
    decimals: 2,
    unit: "$",
    unitBefore: true,
    default: 2,
    shownPerStored: 1,
  },
  /** The story's chapter 5 bucket_cap_mb (PyTorch's default 25 MiB, and two that show the trade). */
  storyBucket: {
    kind: "choice",
    label: "Bucket size",
    linkKey: "bk",
    choices: [1, 25, 512],
    unit: "MiB",
    default: 25,
  },
} as const satisfies Record<string, DisplaySetting>;

export type DisplaySettingName = keyof typeof DISPLAY_SETTINGS;

function rowOf(name: DisplaySettingName): DisplaySetting {
  return DISPLAY_SETTINGS[name];
}

const grouped = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 20 });

/** The allowed values in words: every refusal says them. */
export function settingAllowed(name: DisplaySettingName): string {
  const s = rowOf(name);
  if (s.kind === "choice") return `one of ${s.choices.join(", ")} ${s.unit}`;
  const at = (v: number) => (s.unitBefore ? `${s.unit}${grouped(v)}` : grouped(v));
  const after = s.unitBefore ? "" : ` ${s.unit}`;
  if (s.decimals === 0) return `a whole number from ${at(s.min)} to ${at(s.max)}${after}`;
  return `a number from ${at(s.min)} to ${at(s.max)}${after}, at most ${s.decimals} decimals`;
}

function refusal(name: DisplaySettingName, got: string): RangeError {
  return new RangeError(`${rowOf(name).label} ${got}: must be ${settingAllowed(name)}.`);
}

/** A shown value on its row's grid (at most `decimals` decimals), so the link can write it exactly. */
function onGrid(s: RangeSetting, v: number): number {
  return Number(v.toFixed(s.decimals));
}

/**
 * A shown value (a number a field holds) as the setting keeps it, or a RangeError naming the
 * setting and its range. A range's value is rounded to its decimals; a whole-number setting
 * refuses a fraction.
 */
export function checkSetting(name: DisplaySettingName, v: number): number {
  const s = rowOf(name);
  if (s.kind === "choice") {
    if (!s.choices.includes(v)) throw refusal(name, String(v));
    return v;
  }
  if (!Number.isFinite(v) || v < s.min || v > s.max || (s.decimals === 0 && !Number.isInteger(v)))
    throw refusal(name, String(v));
  return onGrid(s, v);
}

/**
 * Text (a link's value, a CLI argument, what a field holds) as a shown value, or a RangeError.
 * Plain decimals only: no exponents, signs, hex, spaces or "Infinity", and no more decimals than
 * the setting keeps, so what a link says is what the page shows.
 */
export function parseSetting(name: DisplaySettingName, raw: string): number {
  const s = rowOf(name);
  const quoted = `"${raw.slice(0, 20)}"`;
  if (s.kind === "choice") {
    const c = s.choices.find((x) => String(x) === raw);
    if (c === undefined) throw refusal(name, quoted);
    return c;
  }
  const whole = `\\d{1,${String(Math.trunc(s.max)).length}}`;
  const plain = s.decimals === 0 ? `${whole}` : `${whole}(\\.\\d{1,${s.decimals}})?|\\.\\d{1,${s.decimals}}`;
  if (!new RegExp(`^(${plain})$`).test(raw)) throw refusal(name, quoted);
  return checkSetting(name, Number(raw));
}

/** The shown value as the link writes it: "" at the default (left out), else what parseSetting reads back. */
export function settingParam(name: DisplaySettingName, shown: number): string {
  const s = rowOf(name);
  if (shown === s.default) return "";
  return String(s.kind === "range" ? onGrid(s, shown) : shown);
}

/** A link's value (absent: the default) as a shown value, or a LinkError naming the key. */
export function readSettingParam(name: DisplaySettingName, raw: string | undefined): number {
  if (raw === undefined) return rowOf(name).default;
  try {
    return parseSetting(name, raw);
  } catch (e) {
    throw new LinkError(`The link's ${rowOf(name).linkKey}=: ${(e as Error).message}`);
  }
}

/** A shown value in the unit its store keeps. */
export function toStored(name: DisplaySettingName, shown: number): number {
  const s = rowOf(name);
  return s.kind === "range" ? shown / s.shownPerStored : shown;
}

/** A stored value in the unit the setting is shown in, on the setting's grid. */
export function toShown(name: DisplaySettingName, stored: number): number {
  const s = rowOf(name);
  return s.kind === "range" ? onGrid(s, stored * s.shownPerStored) : stored;
}

/** The default in the unit its store keeps. */
export function storedDefault(name: DisplaySettingName): number {
  return toStored(name, rowOf(name).default);
}
