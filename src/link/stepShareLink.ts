/**
 * A One step share link as a person pastes it into `npm run step` (a URL, `#v=step&st=…` or
 * `st=…`): its step settings, or the defaults for a One step link that carries none. A link to
 * another view without step settings is refused by name rather than read as the defaults.
 */
import { readHash, repeatedHashKeys } from "./hashParams.ts";
import { LinkError } from "./linkError.ts";
import { MAX_REPLAY_LINK_CHARS } from "./replayLink.ts";
import { MAX_SHARE_LINK_CHARS } from "./scenarioLink.ts";
import { DEFAULT_STEP_SETTINGS, decodeStepParam, type StepSettings } from "./stepLink.ts";

/** The longest link read: a replay's scenario beside the step settings, as the sim CLI allows. */
export const MAX_STEP_LINK_CHARS = MAX_REPLAY_LINK_CHARS + MAX_SHARE_LINK_CHARS;

/** Whether a command-line argument is a share link rather than a file path. */
export function looksLikeStepLink(arg: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(arg) || arg.startsWith("#") || /^(st|v)=/.test(arg);
}

export function decodeStepLink(link: string): StepSettings {
  if (link.length > MAX_STEP_LINK_CHARS) {
    throw new LinkError(
      `The link is ${link.length} characters long; share links are at most ${MAX_STEP_LINK_CHARS}.`,
    );
  }
  const text = link.trim();
  const hashAt = text.indexOf("#");
  const fragment = hashAt >= 0 ? text.slice(hashAt + 1) : /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? "" : text;
  const twice = repeatedHashKeys(fragment);
  if (twice.length > 0) throw new LinkError(`The link gives ${twice.map((k) => `${k}=`).join(", ")} twice.`);
  const values = readHash(fragment);
  const st = values.get("st");
  if (st !== undefined && st !== "") return decodeStepParam(st);
  const view = values.get("v");
  if (view?.toLowerCase() === "step") return DEFAULT_STEP_SETTINGS;
  const which =
    view !== undefined
      ? `is a link to v=${view.slice(0, 20)}`
      : values.has("s")
        ? "is a Cluster view link (s=, no v=)"
        : "names no view";
  throw new LinkError(
    `the link has no One step settings (st=) and ${which}; a One step link has v=step (npm run sim reads Cluster links)`,
  );
}
