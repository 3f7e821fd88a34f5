/**
 * The caps the bucket_cap_mb slider stops at: round figures about a fifth apart on a log scale
 * (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 a decade), PyTorch's default 25 among them, from the
 * range's first cap to its last exactly (the slider once ended at 510 MiB under a 512 MiB
 * label, and stepped 0.01 MiB near its bottom, where two-significant-digit snapping of a fine log
 * scale left 50 stops between 0.5 and 1 MiB).
 */
import { STEP_RANGES } from "../../step/stepRanges.ts";

const MANTISSAS = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8];
/** A round cap closer than this ratio to the range's end gives way to the end. */
const MIN_RATIO = 1.1;

function ladder(min: number, max: number): readonly number[] {
  const caps = [min];
  for (let exp = Math.floor(Math.log10(min)); exp <= Math.ceil(Math.log10(max)); exp++)
    for (const m of MANTISSAS) {
      // Rounded to a few digits, so 0.6 is 0.6 and not 0.6000000000000001.
      const cap = Number((m * 10 ** exp).toPrecision(3));
      if (cap > (caps[caps.length - 1] as number) * (MIN_RATIO - 1e-9) && cap * MIN_RATIO <= max)
        caps.push(cap);
    }
  caps.push(max);
  return caps;
}

export const CAP_LADDER: readonly number[] = ladder(STEP_RANGES.capMb.min, STEP_RANGES.capMb.max);

/** The slider's last position. */
export const CAP_STOPS = CAP_LADDER.length - 1;

/** Slider position → cap in MiB. */
export function sliderToCap(position: number): number {
  return CAP_LADDER[Math.max(0, Math.min(CAP_STOPS, Math.round(position)))] as number;
}

/** Cap → the slider position nearest it on a log scale (a link or the sweep may set any cap). */
export function capToSlider(cap: number): number {
  let best = 0;
  for (let i = 1; i <= CAP_STOPS; i++)
    if (
      Math.abs(Math.log((CAP_LADDER[i] as number) / cap)) <
      Math.abs(Math.log((CAP_LADDER[best] as number) / cap))
    )
      best = i;
  return best;
}

/** The nearest cap of the ladder above (dir 1) or below (dir −1) this one; itself at an end. */
export function nextCap(cap: number, dir: 1 | -1): number {
  const next = dir > 0 ? CAP_LADDER.find((c) => c > cap) : [...CAP_LADDER].reverse().find((c) => c < cap);
  return next ?? cap;
}
