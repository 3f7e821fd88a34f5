/**
 * Classroom links: `hide=<id>,<id>` names controls to leave out (as TensorFlow Playground's hide
 * flags do), so a teacher can hand out a link with only the knob under discussion. A control id
 * is what a view puts in its controls' `data-control` attribute. Ids are restricted to a safe
 * alphabet because they end up in a CSS selector.
 */
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MAX_IDS = 64;

export function parseHideParam(v: string | undefined): readonly string[] {
  if (!v) return [];
  const ids = decodeURIComponent(v)
    .split(",")
    .filter((id) => ID.test(id));
  return [...new Set(ids)].slice(0, MAX_IDS);
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
