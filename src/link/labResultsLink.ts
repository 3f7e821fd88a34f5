/**
 * The lab's results table in a link: `lres=2.<checked payload>` (checkedPayload.ts) of the rows
 * as measured, each with the adapter that measured it. Whoever opens the link sees the same
 * table, marked as measured elsewhere (a timing is a fact about the machine that made it), and
 * Run adds rows of their own. At most MAX_LINKED_ROWS rows (a sweep is 30): their JSON stays under
 * the 16 KiB a link may inflate to, and the address under its length limit.
 */
import { strToU8 } from "fflate";
import * as z from "zod/mini";
import "../sim/zodSetup.ts";
import type { Mode } from "../gpu/mode.ts";
import type { Algorithm } from "../gpu/schedule.ts";
import { encodeChecked } from "./checkedPayload.ts";
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

/** The rows of a `lres=` value; throws LinkError naming what is wrong. */
export function decodeLabResults(param: string): LinkedRow[] {
  return decodeSettingsParam(param, resultsSchema, RESULTS_DICTIONARY, "lab results (lres=)").map((r) => ({
    ...r,
    maxAbsError: r.maxAbsError ?? Number.NaN,
  }));
}
