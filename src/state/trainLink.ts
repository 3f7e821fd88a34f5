/**
 * Live training's address keys read without its store (the store loads with its view; the
 * address checks run on open): `t=` settings and `tm=` mode.
 */
import type { Mode } from "../gpu/executor.ts";
import { LinkError } from "../link/linkError.ts";
import { openSealedText } from "../link/sealedText.ts";
import { DEFAULT_TRAIN, decodeTrainParam, type TrainConfig } from "../train/config.ts";

export const TRAIN_MODES: readonly Mode[] = ["shared", "separate", "cpu"];

/** `tm=`: absent, shared. */
export function parseTrainMode(v: string | undefined): Mode {
  if (v === undefined) return "shared";
  const m = TRAIN_MODES.find((x) => x === v);
  if (!m)
    throw new LinkError(
      `The link's training mode (tm=) "${v.slice(0, 20)}" must be one of ${TRAIN_MODES.join(", ")}.`,
    );
  return m;
}

/** `t=`: absent, the defaults; a changed or cut value is refused as such before it is read. */
export function parseTrainLink(t: string | undefined): TrainConfig {
  const text = t ? openSealedText(t, "training settings (t=)") : null;
  try {
    return text ? decodeTrainParam(text) : DEFAULT_TRAIN;
  } catch (e) {
    throw new LinkError(
      `The link's training settings (t=) were not used: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

/** `tr=`: 1 or absent. */
export function parseTrainAgain(tr: string | undefined): boolean {
  if (tr !== undefined && tr !== "1")
    throw new LinkError(`The link's tr= (train on open) must be 1 or absent; got "${tr.slice(0, 20)}".`);
  return tr === "1";
}
