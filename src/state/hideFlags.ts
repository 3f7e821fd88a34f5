/**
 * Classroom links: `hide=<id>,<id>` names controls to leave out (as TensorFlow Playground's hide
 * flags do), so a teacher can hand out a link with only the knob under discussion. A control id
 * is what a view puts in its controls' `data-control` attribute. Ids are restricted to a safe
 * alphabet because they end up in a CSS selector.
 */
import { LinkError } from "../link/linkError.ts";

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MAX_IDS = 64;

/**
 * The ids of a `hide=` value. An id that is not a control id (outside the alphabet, too long) or
 * a list past MAX_IDS is refused by name (LinkError: the link hides nothing and says why); it was
 * dropped without a word, so a tampered link showed controls its teacher had hidden.
 */
export function parseHideParam(v: string | undefined): readonly string[] {
  if (!v) return [];
  let text: string;
  try {
    text = decodeURIComponent(v);
  } catch {
    throw new LinkError(`The link's hide= is not a list of control ids (a broken %-escape in ${quoted(v)}).`);
  }
  const ids = text.split(",");
  const bad = ids.filter((id) => !ID.test(id));
  if (bad.length > 0) {
    throw new LinkError(
      `The link's hide= names ${bad.slice(0, 3).map(quoted).join(", ")}${bad.length > 3 ? ` and ${bad.length - 3} more` : ""}, not control ids (letters, digits, ".", "_" and "-", at most 64); no control was hidden.`,
    );
  }
  const unique = [...new Set(ids)];
  if (unique.length > MAX_IDS)
    throw new LinkError(
      `The link's hide= names ${unique.length} controls; at most ${MAX_IDS}. No control was hidden.`,
    );
  return unique;
}

/** An id as a message quotes it: short, and as JSON (escapes shown). */
function quoted(id: string): string {
  return JSON.stringify(id.length > 40 ? `${id.slice(0, 40)}…` : id);
}

/** The ids of `hidden` that no element of the page carries as its `data-control` (a typo, a tampered link). */
export function unknownControls(hidden: readonly string[], root: ParentNode): string[] {
  return hidden.filter((id) => ID.test(id) && root.querySelector(`[data-control="${id}"]`) === null);
}

export function hideParam(ids: readonly string[]): string {
  return ids.filter((id) => ID.test(id)).join(",");
}

/** The style rule that hides these controls (empty when none). */
export function hideStyle(ids: readonly string[]): string {
  const safe = ids.filter((id) => ID.test(id));
  if (safe.length === 0) return "";
  return `${safe.map((id) => `[data-control="${id}"]`).join(",\n")} { display: none !important; }`;
}

/** A control's id from its view and label: `controlId("lab", "Size / device")` → "lab.size-device". */
export function controlId(view: string, label: string): string {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `${view}.${slug}`.slice(0, 64);
}
