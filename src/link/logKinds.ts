/**
 * The Cluster view's failure-log filter: which kinds of row it lists, and `fl=`, its
 * link key. Absent, every kind (so a link from before lists what it listed); otherwise the kinds
 * shown, comma-separated in this order, or `none`.
 */
import { LinkError } from "./linkError.ts";

/** A failure, a slow episode (§6), and the eviction of a slow host (a failure found at once). */
export const LOG_KINDS = ["failure", "slow", "eviction"] as const;
export type LogKind = (typeof LOG_KINDS)[number];

const isKind = (k: string): k is LogKind => (LOG_KINDS as readonly string[]).includes(k);

/** The kinds in LOG_KINDS' order, each once. */
export function orderedKinds(kinds: Iterable<LogKind>): LogKind[] {
  const set = new Set(kinds);
  return LOG_KINDS.filter((k) => set.has(k));
}

/** `fl=`'s value ("" when every kind is shown: the key is left out). */
export function logKindsParam(kinds: readonly LogKind[]): string {
  const shown = orderedKinds(kinds);
  if (shown.length === LOG_KINDS.length) return "";
  return shown.length === 0 ? "none" : shown.join(",");
}

/** `fl=` read back: the kinds shown, or a LinkError naming the key and what it may hold. */
export function decodeLogKindsParam(v: string | undefined): LogKind[] {
  if (v === undefined || v === "") return [...LOG_KINDS];
  if (v === "none") return [];
  const parts = v.split(",");
  const bad = parts.find((p) => !isKind(p));
  if (bad !== undefined || new Set(parts).size !== parts.length)
    throw new LinkError(
      `The link's failure-log filter fl=${JSON.stringify(v.slice(0, 40))} was not used: it lists each of ${LOG_KINDS.join(", ")} at most once, comma-separated, or is "none".`,
    );
  return orderedKinds(parts as LogKind[]);
}
