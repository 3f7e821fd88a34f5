/**
 * The WebGPU lab's settings in a link: `lab=2.<checked payload>` (checkedPayload.ts) of what
 * differs from the defaults in the run form (mode, algorithm, devices, size) and the fault plan
 * (mode, devices, size, victim, kill step, slow motion). Results are not carried: they are
 * measurements of the opener's own GPU, so a link reruns them.
 */
import { strToU8 } from "fflate";
import * as z from "zod/mini";
import "../sim/scenario/zodSetup.ts";
import type { RunForm } from "../gpu/labBudget.ts";
import type { Mode } from "../gpu/mode.ts";
import type { Algorithm } from "../gpu/schedule.ts";
import { encodeChecked } from "./checkedPayload.ts";
import { LinkError } from "./linkError.ts";
import { decodeSettingsParam } from "./settingsParam.ts";

// The run form is the lab's request (gpu/labBudget.ts owns it, so gpu/ needs nothing from link/); re-exported for the link's users.
export type { RunForm };

export interface FaultForm {
  mode: Mode;
  devices: number;
  bytesPerDevice: number;
  victim: number;
  /** Step of the first attempt at which the victim dies; null: only the button kills. */
  killStep: number | null;
  slow: boolean;
}

export interface LabSettings {
  form: RunForm;
  fault: FaultForm;
}

/** Sizes per device the lab offers (the run form up to the adapter's limit, the fault demo to 16 MiB). */
export const SIZES = [4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144].map((k) => k * 1024);
export const FAULT_MAX_BYTES = 16 * 1024 * 1024;

export const DEFAULT_LAB_SETTINGS: LabSettings = {
  form: { mode: "shared", devices: 4, bytesPerDevice: 1024 * 1024, algorithm: "ring" },
  fault: { mode: "shared", devices: 6, bytesPerDevice: 256 * 1024, victim: 3, killStep: 3, slow: true },
};

const MODES = ["shared", "separate", "cpu"] as const satisfies readonly Mode[];
const ALGORITHMS = [
  "ring",
  "halving-doubling",
  "one-shot",
  "reduce-scatter",
  "all-gather",
] as const satisfies readonly Algorithm[];

/** Part of format 2 for `lab=`: it must never change. */
const LAB_DICTIONARY = strToU8(
  '{"form":{"mode":"separate","cpu","shared","devices":,"bytesPerDevice":,"algorithm":"halving-doubling",' +
    '"one-shot","reduce-scatter","all-gather","ring"},"fault":{"victim":,"killStep":null,"slow":false}}',
);

function changed<T extends object>(value: T, base: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([k, v]) => v !== (base as Record<string, unknown>)[k]),
  ) as Partial<T>;
}

/** The `lab=` value for these settings; "" when they are the defaults. */
export function encodeLabParam(s: LabSettings): string {
  const out: Record<string, unknown> = {};
  const form = changed(s.form, DEFAULT_LAB_SETTINGS.form);
  const fault = changed(s.fault, DEFAULT_LAB_SETTINGS.fault);
  if (Object.keys(form).length > 0) out.form = form;
  if (Object.keys(fault).length > 0) out.fault = fault;
  return encodeLabPayload(out);
}

/** Any JSON value framed as `lab=` (exported for tests that build bad links); "" for {}. */
export function encodeLabPayload(value: object): string {
  return Object.keys(value).length > 0 ? encodeChecked(value, LAB_DICTIONARY) : "";
}

const size = (max: number) =>
  z.number().check(
    z.refine((b) => SIZES.includes(b) && b <= max, {
      message: `must be one of the lab's sizes, ${SIZES[0]} to ${max} bytes`,
    }),
  );
/** An integer in [min, max]. */
const integer = (min: number, max: number) => z.number().check(z.int(), z.gte(min), z.lte(max));
const labSchema = z.strictObject({
  form: z.optional(
    z.partial(
      z.strictObject({
        mode: z.enum(MODES),
        devices: integer(2, 16),
        bytesPerDevice: size(SIZES[SIZES.length - 1]!),
        algorithm: z.enum(ALGORITHMS),
      }),
    ),
  ),
  fault: z.optional(
    z.partial(
      z.strictObject({
        mode: z.enum(MODES),
        devices: integer(3, 16),
        bytesPerDevice: size(FAULT_MAX_BYTES),
        victim: integer(0, 15),
        killStep: z.nullable(integer(0, 29)),
        slow: z.boolean(),
      }),
    ),
  ),
});

/** The settings of a `lab=` value; throws LinkError naming what is wrong. */
export function decodeLabParam(param: string): LabSettings {
  const data = decodeSettingsParam(param, labSchema, LAB_DICTIONARY, "lab settings");
  const form = { ...DEFAULT_LAB_SETTINGS.form, ...data.form };
  const fault = { ...DEFAULT_LAB_SETTINGS.fault, ...data.fault };
  // The victim must be in the ring (the form keeps it there; a kill step past the ring never fires).
  if (fault.victim >= fault.devices) {
    throw new LinkError(
      `The link's lab settings are invalid: fault.victim ${fault.victim} is not one of ${fault.devices} devices.`,
    );
  }
  return { form, fault };
}
