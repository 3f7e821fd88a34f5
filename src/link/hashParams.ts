/**
 * The URL hash holds everything a link must reproduce: `#s=<scenario>&v=<view>&w=<window>`.
 * Each part is independent, so a view can add its own key without touching the others.
 */
export type HashParams = Map<string, string>;

export function readHash(hash: string): HashParams {
  const out: HashParams = new Map();
  const body = hash.startsWith("#") ? hash.slice(1) : hash;
  for (const part of body.split("&")) {
    const eq = part.indexOf("=");
    if (eq > 0) out.set(part.slice(0, eq), part.slice(eq + 1));
  }
  return out;
}

/**
 * The keys a hash gives more than once (`#s=A&s=B`). readHash keeps the last, but another reader
 * may keep the first: such a link is refused by name rather than opened as either.
 */
export function repeatedHashKeys(hash: string): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  const body = hash.startsWith("#") ? hash.slice(1) : hash;
  for (const part of body.split("&")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const key = part.slice(0, eq);
    if (seen.has(key)) repeated.add(key);
    seen.add(key);
  }
  return [...repeated];
}

export function writeHash(params: HashParams): string {
  const parts = [...params].filter(([, v]) => v !== "").map(([k, v]) => `${k}=${v}`);
  return parts.length > 0 ? `#${parts.join("&")}` : "";
}

/**
 * The pieces of a hash that are not `key=value` (`#s=…&cluster`, `#=x`): readHash skips them, so
 * they are named rather than passed over in silence.
 */
export function piecesWithoutKey(hash: string): string[] {
  const body = hash.startsWith("#") ? hash.slice(1) : hash;
  if (body === "") return [];
  return body.split("&").filter((part) => part.indexOf("=") <= 0);
}
