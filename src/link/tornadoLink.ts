/**
 * The tornado in the address: `tn=<amount %>,<precision in points>,<seed cap>[,run]~<crc32>`, a
 * readable value sealed against silent changes (sealedText.ts). `run` says the tornado was run,
 * so opening the link runs it again (same scenario, same seeds, same bars). The defaults, not
 * run, write nothing, so a link without a tornado is unchanged.
 */
import {
  DEFAULT_TORNADO_SETTINGS,
  TORNADO_AMOUNT,
  TORNADO_MAX_SEEDS,
  TORNADO_PRECISION,
  type TornadoSettings,
} from "../sim/sweep/tornado.ts";
import { LinkError } from "./linkError.ts";
import { openSealedText, sealText } from "./sealedText.ts";

export interface TornadoLinkSettings extends TornadoSettings {
  run: boolean;
}

const WHAT = "tornado settings (tn=)";
/** Longer than any value tornadoParam writes; a longer one is refused before it is read. */
const MAX_CHARS = 60;

/** A fraction as a percentage with at most 2 decimals, as typed (0.5 → "50", 0.015 → "1.5"). */
const pct = (v: number) => String(Number((v * 100).toFixed(2)));

export function tornadoParam(s: TornadoLinkSettings): string {
  const d = DEFAULT_TORNADO_SETTINGS;
  if (s.amount === d.amount && s.precision === d.precision && s.maxSeeds === d.maxSeeds && !s.run) return "";
  const parts = [pct(s.amount), pct(s.precision), String(s.maxSeeds)];
  if (s.run) parts.push("run");
  return sealText(parts.join(","));
}

function numberIn(
  text: string | undefined,
  name: string,
  min: number,
  max: number,
  integer: boolean,
): number {
  const ok = text !== undefined && (integer ? /^\d{1,6}$/ : /^\d{1,6}(\.\d{1,4})?$/).test(text);
  const n = ok ? Number(text) : Number.NaN;
  if (!(n >= min && n <= max))
    throw new LinkError(
      `The link's ${WHAT} are invalid: ${name} must be ${integer ? "an integer" : "a number"} in [${min}, ${max}].`,
    );
  return n;
}

/** The settings of a `tn=` value (absent: the defaults); throws LinkError naming the part. */
export function decodeTornadoParam(value: string | undefined): TornadoLinkSettings {
  if (value === undefined || value === "") return { ...DEFAULT_TORNADO_SETTINGS, run: false };
  if (value.length > MAX_CHARS)
    throw new LinkError(`The link's ${WHAT} are longer than ${MAX_CHARS} characters.`);
  const [amount, precision, seeds, ...rest] = openSealedText(value, WHAT).split(",");
  if (rest.length > 1 || (rest.length === 1 && rest[0] !== "run"))
    throw new LinkError(`The link's ${WHAT} are invalid: "${(rest[0] ?? "").slice(0, 20)}" is not run.`);
  return {
    amount: numberIn(amount, "amount (%)", TORNADO_AMOUNT.min * 100, TORNADO_AMOUNT.max * 100, false) / 100,
    precision:
      numberIn(
        precision,
        "precision (points)",
        TORNADO_PRECISION.min * 100,
        TORNADO_PRECISION.max * 100,
        false,
      ) / 100,
    maxSeeds: numberIn(seeds, "seed cap", TORNADO_MAX_SEEDS.min, TORNADO_MAX_SEEDS.max, true),
    run: rest[0] === "run",
  };
}
