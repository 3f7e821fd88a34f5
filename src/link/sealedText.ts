/**
 * A readable link value with an integrity check: `<text>~<CRC-32 of its UTF-8, 8 hex digits>`.
 * Keys whose value a person can read (the training run's `t=`) keep their plain form but cannot be
 * changed silently: a one-character slip in `s7` (the seed) would otherwise open another run.
 * `~` is one of the characters a URL never escapes.
 */
import { strToU8 } from "fflate";
import { crc32 } from "./crc32.ts";
import { LinkError } from "./linkError.ts";

const SEAL = /^(.*)~([0-9a-f]{8})$/s;

function checkOf(text: string): string {
  return crc32(strToU8(text)).toString(16).padStart(8, "0");
}

export function sealText(text: string): string {
  return `${text}~${checkOf(text)}`;
}

/** The text a sealed value carries; throws LinkError, naming `what`, when the check fails. */
export function openSealedText(value: string, what: string): string {
  const m = SEAL.exec(value);
  if (!m)
    throw new LinkError(`The link's ${what} lack their integrity check (~ and 8 hex digits at the end).`);
  const [, text = "", check] = m;
  if (checkOf(text) !== check)
    throw new LinkError(
      `The link's ${what} fail their integrity check: they were changed or cut after the link was made.`,
    );
  return text;
}
