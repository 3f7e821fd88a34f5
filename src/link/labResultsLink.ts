/**
 * The lab's results table in a link: `lres=2.<checked payload>` (checkedPayload.ts) of the rows
 * as measured, each with the adapter that measured it. Whoever opens the link sees the same
 * table, marked as measured elsewhere (a timing is a fact about the machine that made it), and
 * Run adds rows of their own. At most MAX_LINKED_ROWS rows (a sweep is 30): their JSON stays under
 * the 16 KiB a link may inflate to, and the address under its length limit.
 */
import { strToU8 } from "fflate";
import * as z from "zod/mini";
import "../sim/scenario/zodSetup.ts";
import { busBwFactor } from "../gpu/collectives.ts";
import type { Mode } from "../gpu/mode.ts";
import type { Algorithm } from "../gpu/schedule.ts";
import { encodeChecked } from "./checkedPayload.ts";
import { LinkError } from "./linkError.ts";
import { decodeSettingsParam } from "./settingsParam.ts";

export const MAX_LINKED_ROWS = 32;

/** A measured row (the lab's CaseResult, which labStore checks it stays assignable to) and the adapter that measured it. */
export interface LinkedRow {
  mode: Mode;
  algorithm: Algorithm;
  devices: number;
  bytesPerDevice: number;
  seconds: number;
  algbw: number;
  busbw: number;
  efficiency: number;
  verified: boolean;
  maxAbsError: number;
  toleranceAtWorst: number;
  timer: "gpu-timestamp" | "wall-clock";
  reps: number;
  submits: number;
  trafficBytes: number;
  on: string;
}

/** Part of format 2 for `lres=`: it must never change. */
const RESULTS_DICTIONARY = strToU8(
  '[{"mode":"shared","separate","cpu","algorithm":"ring","halving-doubling","one-shot","reduce-scatter",' +
    '"all-gather","devices":,"bytesPerDevice":,"seconds":0.000,"algbw":,"busbw":,"efficiency":0.,' +
    '"verified":true,false,"maxAbsError":,"toleranceAtWorst":,"timer":"gpu-timestamp","wall-clock",' +
    '"reps":,"submits":,"trafficBytes":,"on":"CPU fallback","Software adapter","swiftshader"}]',
);

/** The `lres=` value for these rows (the last MAX_LINKED_ROWS); "" for none. */
export function encodeLabResults(rows: readonly LinkedRow[]): string {
  if (rows.length === 0) return "";
  const keep = rows.slice(-MAX_LINKED_ROWS).map((r) => ({
    mode: r.mode,
    algorithm: r.algorithm,
    devices: r.devices,
    bytesPerDevice: r.bytesPerDevice,
    seconds: r.seconds,
    algbw: r.algbw,
    busbw: r.busbw,
    efficiency: r.efficiency,
    verified: r.verified,
    // JSON has no NaN or ∞ (a wrong result's error may be either): null stands for them.
    maxAbsError: Number.isFinite(r.maxAbsError) ? r.maxAbsError : null,
    toleranceAtWorst: r.toleranceAtWorst,
    timer: r.timer,
    reps: r.reps,
    submits: r.submits,
    trafficBytes: r.trafficBytes,
    on: r.on,
  }));
  return encodeChecked(keep, RESULTS_DICTIONARY);
}

const count = (max: number) => z.number().check(z.int(), z.gte(0), z.lte(max));
const measure = z.number().check(z.gte(0), z.lte(1e12));
const rowSchema = z.strictObject({
  mode: z.enum(["shared", "separate", "cpu"]),
  algorithm: z.enum(["ring", "halving-doubling", "one-shot", "reduce-scatter", "all-gather"]),
  devices: count(16),
  bytesPerDevice: count(2 ** 30),
  seconds: measure,
  algbw: measure,
  busbw: measure,
  efficiency: measure,
  verified: z.boolean(),
  maxAbsError: z.nullable(z.number()),
  toleranceAtWorst: z.number(),
  timer: z.enum(["gpu-timestamp", "wall-clock"]),
  reps: count(1e6),
  submits: count(1e9),
  trafficBytes: count(2 ** 53),
  on: z.string().check(z.maxLength(200)),
});
const resultsSchema = z.array(rowSchema).check(z.maxLength(MAX_LINKED_ROWS));

/**
 * The most a row's efficiency may claim: its traffic over its time against the better streaming
 * kernel of the same session (src/gpu/ceilings.ts) cannot pass that ceiling by more than timing
 * noise; 1.5 leaves room for noise and caches, and refuses the 10¹⁴ % a crafted link showed.
 */
export const MAX_LINKED_EFFICIENCY = 1.5;
/** How far a row's algbw and busbw may sit from what its size and time give (rounding in JSON). */
const RELATIVE_SLACK = 1e-6;

const near = (a: number, b: number) => Math.abs(a - b) <= RELATIVE_SLACK * Math.max(Math.abs(a), Math.abs(b));

/**
 * Why a linked row cannot be what the lab measured, or null: it is checked against the lab's own
 * invariants, not only as numbers. The lab runs 2–16 devices; algbw = S / t and
 * busbw = algbw · (nccl-tests' factor) (src/gpu/collectives.ts, in GB/s); a ✓ means the worst
 * error is within the tolerance at that element.
 */
export function linkedRowProblem(r: LinkedRow): string | null {
  if (r.devices < 2) return `devices is ${r.devices}; the lab runs 2–16 devices`;
  if (r.bytesPerDevice < 1) return "bytesPerDevice is 0; a run moves at least one byte";
  if (!(r.seconds > 0)) return "seconds is 0; a measured time is above 0";
  if (r.efficiency > MAX_LINKED_EFFICIENCY)
    return `efficiency is ${(r.efficiency * 100).toPrecision(3)} % of the streaming ceiling; at most ${MAX_LINKED_EFFICIENCY * 100} % is measurable`;
  const collective =
    r.algorithm === "reduce-scatter" || r.algorithm === "all-gather" ? r.algorithm : "all-reduce";
  if (!near(r.algbw * 1e9, r.bytesPerDevice / r.seconds))
    return `algbw ${r.algbw} GB/s is not bytesPerDevice / seconds (${r.bytesPerDevice / r.seconds / 1e9} GB/s)`;
  if (!near(r.busbw, r.algbw * busBwFactor(collective, r.devices)))
    return `busbw ${r.busbw} GB/s is not algbw × the ${collective} factor for ${r.devices} devices`;
  if (!Number.isFinite(r.toleranceAtWorst) || r.toleranceAtWorst < 0)
    return "toleranceAtWorst is not a number ≥ 0";
  if (r.verified && !(Number.isFinite(r.maxAbsError) && r.maxAbsError <= r.toleranceAtWorst))
    return `it is marked verified, but its error ${r.maxAbsError} is past its tolerance ${r.toleranceAtWorst}`;
  return null;
}

/** The rows of a `lres=` value; throws LinkError naming what is wrong (the row and the invariant). */
export function decodeLabResults(param: string): LinkedRow[] {
  const rows = decodeSettingsParam(param, resultsSchema, RESULTS_DICTIONARY, "lab results (lres=)").map(
    (r) => ({
      ...r,
      maxAbsError: r.maxAbsError ?? Number.NaN,
    }),
  );
  for (const [i, r] of rows.entries()) {
    const problem = linkedRowProblem(r);
    if (problem)
      throw new LinkError(
        `The link's lab results (lres=) were not used: row ${i + 1} cannot be a measurement: ${problem}.`,
      );
  }
  return rows;
}
