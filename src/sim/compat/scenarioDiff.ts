/**
 * What a scenario changes from another, as sorted [path, value] pairs: the part of a sweep's point
 * that the sweep decided. The sweep-axes fixture digests this difference from the defaults, not
 * the whole completed scenario, so a new field with a default (the same in both) changes no
 * digest, while an axis that moves another field, or moves its own differently, does.
 */
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Leaves that differ, by dotted path; a list (causes, policies) is one leaf, compared whole. */
export function differenceFrom(base: unknown, s: unknown, path = ""): [string, Json][] {
  if (isRecord(base) && isRecord(s)) {
    const keys = [...new Set([...Object.keys(base), ...Object.keys(s)])].sort();
    return keys.flatMap((k) => differenceFrom(base[k], s[k], path ? `${path}.${k}` : k));
  }
  const same = JSON.stringify(base) === JSON.stringify(s);
  return same ? [] : [[path, (s === undefined ? null : s) as Json]];
}
