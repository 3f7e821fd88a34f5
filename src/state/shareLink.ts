/**
 * Share links: the scenario, only what differs from the defaults, in the URL hash.
 *
 *   #s=1.<base64url(deflate(JSON))>
 *
 * The "1." is the link format's version tag: a later format gets a new tag and this decoder
 * stays, so old links keep opening. Because the link stores only fields that differ from the
 * defaults, and parseScenario completes the rest, a link keeps working when the schema grows.
 * Pure (no DOM): the CLI decodes links with the same code as the browser.
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from "fflate";
import { diffFromDefaults, parseScenario, type Scenario, ScenarioError } from "../sim/scenario.ts";

export const LINK_VERSION = "1";
/** Longer hashes are refused before any decoding work: no link can make a tab allocate much. */
export const MAX_LINK_CHARS = 4096;
const MAX_JSON_BYTES = 16 * 1024;

/**
 * A preset DEFLATE dictionary of the scenario's own vocabulary: a typical link shrinks from ~80
 * to ~30 characters. It is part of link format 1 and must never change; a new dictionary means
 * a new format tag (and this one kept for decoding old links).
 */
const FORMAT_1_DICTIONARY = strToU8(
  '{"name":"","seed":,"cluster":{"gpus":,"gpusPerHost":,"replicas":},"training":{"days":,"stepSeconds":},' +
    '"failures":{"perHostDay":0.00,"arrivals":"poisson","fixed","hangFraction":0.},"detection":{"failStopSeconds":,' +
    '"hangSeconds":600},"sync":{"restartSeconds":,"checkpointMinutes":,"checkpointWriteSeconds":},"ft":{' +
    '"reconfigureSeconds":,"replicaRestartSeconds":,"catchUp":"blocking","nonBlocking","catchUpSeconds":,' +
    '"rejoinSeconds":,"minReplicas":}}',
);

function toBase64Url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("it contains characters that base64url does not use");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** Frame any JSON value as a link payload. Exported for tests that build broken links on purpose. */
export function encodeLinkPayload(value: unknown): string {
  const bytes = deflateSync(strToU8(JSON.stringify(value)), { level: 9, dictionary: FORMAT_1_DICTIONARY });
  return `${LINK_VERSION}.${toBase64Url(bytes)}`;
}

/** The value of the hash's `s=` parameter that reproduces this scenario. */
export function encodeScenarioParam(s: Scenario): string {
  return encodeLinkPayload(diffFromDefaults(s));
}

/** The hash fragment (with its leading '#') that reproduces this scenario. */
export function encodeScenarioHash(s: Scenario): string {
  return `#s=${encodeScenarioParam(s)}`;
}

export class LinkError extends Error {
  override name = "LinkError";
}

/** Pull the `s=` parameter out of anything a person may paste: a full URL, a hash, or the value. */
function scenarioParam(link: string): string | null {
  const hashAt = link.indexOf("#");
  const fragment = hashAt >= 0 ? link.slice(hashAt + 1) : link;
  for (const part of fragment.split("&")) {
    if (part.startsWith("s=")) return part.slice(2);
  }
  return null;
}

/**
 * Decode a share link (full URL, `#s=...`, or `s=...`). Returns null when the link carries no
 * scenario (open the defaults); throws LinkError, whose message a person can act on, when the
 * link is malformed, truncated, tampered with, oversized or describes an invalid scenario.
 */
export function decodeScenarioLink(link: string): Scenario | null {
  if (link.length > MAX_LINK_CHARS) {
    throw new LinkError(
      `The link is ${link.length} characters long; share links are at most ${MAX_LINK_CHARS}.`,
    );
  }
  const param = scenarioParam(link.trim());
  if (param === null || param === "") return null;
  const dot = param.indexOf(".");
  const version = dot >= 0 ? param.slice(0, dot) : "";
  if (version !== LINK_VERSION) {
    throw new LinkError(
      `The link's format tag is "${version || param.slice(0, 8)}"; this version of the explorer reads format ${LINK_VERSION}.`,
    );
  }
  let json: string;
  try {
    // A fixed output buffer bounds the work a hostile link can cause; filling it means "too big".
    const bytes = inflateSync(fromBase64Url(param.slice(dot + 1)), {
      out: new Uint8Array(MAX_JSON_BYTES + 1),
      dictionary: FORMAT_1_DICTIONARY,
    });
    if (bytes.length > MAX_JSON_BYTES) throw new Error(`it expands past ${MAX_JSON_BYTES} bytes`);
    json = strFromU8(bytes);
  } catch (e) {
    throw new LinkError(
      `The link's scenario could not be decoded (truncated or altered?): ${(e as Error).message}.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new LinkError("The link's scenario is not valid JSON (truncated or altered?).");
  }
  try {
    return parseScenario(value);
  } catch (e) {
    if (e instanceof ScenarioError) throw new LinkError(`The link's scenario is invalid: ${e.message}`);
    throw e;
  }
}
