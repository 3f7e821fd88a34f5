/**
 * What a lab run may ask for, decided before any buffer is made: devices a whole number in the
 * lab's range, a size per device above zero that fits the adapter's buffer and binding limits, and
 * an estimate of the memory the run allocates under a stated budget. The form, the store and the
 * worker all ask this one function, so a refusal names the field and the allowed range everywhere.
 */
import type { Mode } from "./mode.ts";
import type { Algorithm } from "./schedule.ts";

/** One lab run as the form asks for it (the link carries it: link/labLink.ts). */
export interface RunForm {
  mode: Mode;
  devices: number;
  bytesPerDevice: number;
  algorithm: Algorithm;
}

export const MIN_LAB_DEVICES = 2;
export const MAX_LAB_DEVICES = 16;
/** The most memory one lab run may allocate (device buffers plus host copies), bytes. */
export const LAB_MEMORY_BUDGET = 2 ** 30;

/**
 * Bytes a run allocates. Per device: input, output and one scratch/staging buffer of the full size
 * on the device (separate mode's receive buffer; shared mode's batches stay below it), plus host
 * copies of the fresh inputs and of the read-back outputs; plus the reference sum on the host.
 */
export function labRunBytes(devices: number, bytesPerDevice: number): number {
  return (5 * devices + 1) * bytesPerDevice;
}

const gib = (b: number) => `${(b / 2 ** 30).toLocaleString("en-US", { maximumFractionDigits: 2 })} GiB`;
const mib = (b: number) => `${(b / 2 ** 20).toLocaleString("en-US", { maximumFractionDigits: 3 })} MiB`;

/**
 * Why `form` cannot run, one message per problem (empty when it can). `maxBytesPerDevice` is the
 * adapter's min(maxBufferSize, maxStorageBufferBindingSize); 0 while the adapter is unknown.
 */
export function labRunProblems(
  form: Pick<RunForm, "devices" | "bytesPerDevice">,
  maxBytesPerDevice = 0,
): string[] {
  const out: string[] = [];
  const { devices, bytesPerDevice: size } = form;
  if (!Number.isInteger(devices) || devices < MIN_LAB_DEVICES || devices > MAX_LAB_DEVICES)
    out.push(`Devices: must be a whole number in [${MIN_LAB_DEVICES}, ${MAX_LAB_DEVICES}] (got ${devices}).`);
  const sizeCap = maxBytesPerDevice > 0 ? maxBytesPerDevice : Number.POSITIVE_INFINITY;
  if (!Number.isInteger(size) || size <= 0 || size % 4 !== 0)
    out.push(`Size / device: must be a positive whole number of 4-byte floats (got ${size} bytes).`);
  else if (size > sizeCap)
    out.push(
      `Size / device: ${mib(size)} is over this adapter's buffer limit of ${mib(sizeCap)} (maxBufferSize / maxStorageBufferBindingSize).`,
    );
  if (out.length === 0) {
    const need = labRunBytes(devices, size);
    if (need > LAB_MEMORY_BUDGET)
      out.push(
        `Devices × Size / device: ${devices} × ${mib(size)} would allocate about ${gib(need)} (inputs, outputs and scratch per device, host copies); the lab's budget is ${gib(LAB_MEMORY_BUDGET)}.`,
      );
  }
  return out;
}
