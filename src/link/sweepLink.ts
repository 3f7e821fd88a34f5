/**
 * The what-if sweep in the address: `sw=<axis>,<points>,<seeds>[,<from>:<to>][,run]~<crc32>`, a
 * readable value sealed against silent changes (sealedText.ts). `run` says the sweep was run, so
 * the link shows its curve, not only its settings; `zoom` that its chart's ETTR axis is zoomed to the
 * curves. The defaults (no range, not run) write nothing,
 * so a link without a sweep is unchanged.
 */
import {
  causeAxisOf,
  MAX_POINTS,
  MAX_SWEEP_SEEDS,
  MIN_POINTS,
  MIN_SWEEP_SEEDS,
  SWEEP_AXES,
  type SweepAxisId,
  type SweepRange,
  sweepRangeProblem,
} from "../sim/sweep/index.ts";
import { LinkError } from "./linkError.ts";
import { openSealedText, sealText } from "./sealedText.ts";

export interface SweepSettings {
  axis: SweepAxisId;
  points: number;
  seeds: number;
  /** The person's from..to in the axis's unit; null for the axis's own range. */
  range: SweepRange | null;
  /** Whether the sweep was run (opening the link runs it again: same scenario, same seeds, same curve). */
  run: boolean;
  /** The chart's ETTR axis zoomed to the curves (absent: 0–100 %, as links before it showed). */
  zoom?: boolean;
}

export const DEFAULT_SWEEP_SETTINGS: SweepSettings = {
  axis: "gpus",
  points: 20,
  seeds: 200,
  range: null,
  run: false,
};

const WHAT = "sweep settings (sw=)";
/** Longer than any value sweepParam writes; a longer one is refused before it is read. */
const MAX_CHARS = 120;

export function sweepParam(s: SweepSettings): string {
  const d = DEFAULT_SWEEP_SETTINGS;
  if (s.axis === d.axis && s.points === d.points && s.seeds === d.seeds && !s.range && !s.run && !s.zoom)
    return "";
  const parts = [s.axis, String(s.points), String(s.seeds)];
  if (s.range) parts.push(`${s.range.from}:${s.range.to}`);
  if (s.zoom) parts.push("zoom");
  if (s.run) parts.push("run");
  return sealText(parts.join(","));
}

function integerIn(text: string | undefined, name: string, min: number, max: number): number {
  const n = text !== undefined && /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= min && n <= max))
    throw new LinkError(`The link's ${WHAT} are invalid: ${name} must be an integer in [${min}, ${max}].`);
  return n;
}

/** The settings of an `sw=` value (absent: the defaults); throws LinkError naming the part. */
export function decodeSweepParam(value: string | undefined): SweepSettings {
  if (value === undefined || value === "") return DEFAULT_SWEEP_SETTINGS;
  if (value.length > MAX_CHARS)
    throw new LinkError(`The link's ${WHAT} are longer than ${MAX_CHARS} characters.`);
  const [axis, points, seeds, ...rest] = openSealedText(value, WHAT).split(",");
  // A cause's axis (cause.<i>.share, cause.<i>.scope) is checked against the link's scenario by
  // whoever applies it (sweepAxisProblem): this codec knows no scenario.
  const id =
    SWEEP_AXES.find((a) => a.id === axis)?.id ?? (axis && causeAxisOf(axis) ? (axis as SweepAxisId) : null);
  if (!id)
    throw new LinkError(
      `The link's ${WHAT} are invalid: axis must be one of ${SWEEP_AXES.map((a) => a.id).join(", ")}, or cause.<i>.share / cause.<i>.scope for the scenario's i-th cause.`,
    );
  const settings: SweepSettings = {
    axis: id,
    points: integerIn(points, "points", MIN_POINTS, MAX_POINTS),
    seeds: integerIn(seeds, "seeds", MIN_SWEEP_SEEDS, MAX_SWEEP_SEEDS),
    range: null,
    run: false,
  };
  for (const [i, part] of rest.entries()) {
    if (part === "run" && i === rest.length - 1) settings.run = true;
    else if (part === "zoom" && !settings.zoom && (i === rest.length - 1 || rest[i + 1] === "run"))
      settings.zoom = true;
    else if (i === 0 && /^[^:]+:[^:]+$/.test(part)) {
      const [from = Number.NaN, to = Number.NaN] = part.split(":").map(Number);
      const range = { from, to };
      const problem = sweepRangeProblem(range);
      if (problem) throw new LinkError(`The link's ${WHAT} are invalid: ${problem}`);
      settings.range = range;
    } else
      throw new LinkError(
        `The link's ${WHAT} are invalid: "${part.slice(0, 20)}" is neither a range from:to, zoom nor run.`,
      );
  }
  return settings;
}
