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

export function writeHash(params: HashParams): string {
  const parts = [...params].filter(([, v]) => v !== "").map(([k, v]) => `${k}=${v}`);
  return parts.length > 0 ? `#${parts.join("&")}` : "";
}
