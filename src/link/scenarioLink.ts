/**
 * The scenario's key in a link: `s=<tag>.<payload>`, only the fields that differ from the
 * defaults (parseScenario completes the rest, so a link keeps working when the schema grows).
 *
 *   s=2.<checked payload>   format 2 (written today): DEFLATE with the dictionary below and a
 *                           CRC-32, see checkedPayload.ts; any corruption is refused.
 *   s=1.<base64url(deflate(JSON))>  format 1 (read only, exactly as it always was: no check).
 *
 * Pure (no DOM): the CLI reads and writes links with the same code as the browser.
 */
import { inflateSync, strFromU8, strToU8 } from "fflate";
import { diffFromDefaults, parseScenario, type Scenario, ScenarioError } from "../sim/scenario/index.ts";
import { fromBase64Url } from "./base64url.ts";
import {
  CHECKED_FORMAT,
  decodeChecked,
  encodeChecked,
  inflateBounded,
  refuseDuplicateKeys,
} from "./checkedPayload.ts";
import { piecesWithoutKey, readHash, repeatedHashKeys } from "./hashParams.ts";
import { LinkError } from "./linkError.ts";
import { ADDRESS_KEYS } from "./linkKeys.ts";
import {
  compactEvents,
  encodeReplayPayload,
  expandEvents,
  MAX_REPLAY_JSON_BYTES,
  MAX_REPLAY_LINK_CHARS,
  REPLAY_FORMAT,
  replayPayloadBytes,
  tooLargeForLink,
} from "./replayLink.ts";

/**
 * Longer scenario values are refused before any decoding work: no link can make a tab allocate
 * much. Long enough for every scenario the validator accepts: the costliest is a mix of 32 causes
 * whose 40-character names are random BMP text (3 UTF-8 bytes each, which DEFLATE cannot shrink),
 * about 4,700 characters (scenarioLink.test.ts builds it). It was 4,096 before cause names
 * existed; raising it refuses nothing that opened before.
 */
export const MAX_LINK_CHARS = 6144;
/** A whole share link: the scenario, the page's address and the other views' keys (address.ts allows 8,192 for the hash). */
export const MAX_SHARE_LINK_CHARS = 10_240;

/**
 * Format 1's preset DEFLATE dictionary of the version-1 vocabulary: a typical link shrinks from
 * ~80 to ~30 characters. Part of format 1: it must never change.
 */
const FORMAT_1_DICTIONARY = strToU8(
  '{"name":"","seed":,"cluster":{"gpus":,"gpusPerHost":,"replicas":},"training":{"days":,"stepSeconds":},' +
    '"failures":{"perHostDay":0.00,"arrivals":"poisson","fixed","hangFraction":0.},"detection":{"failStopSeconds":,' +
    '"hangSeconds":600},"sync":{"restartSeconds":,"checkpointMinutes":,"checkpointWriteSeconds":},"ft":{' +
    '"reconfigureSeconds":,"replicaRestartSeconds":,"catchUp":"blocking","nonBlocking","catchUpSeconds":,' +
    '"rejoinSeconds":,"minReplicas":}}',
);

/**
 * Format 2's dictionary: the version-1 vocabulary plus version 2's (docs/model.md §3: racks,
 * placement, Weibull arrivals, the cause list, FTAR's timeout, FT-HSDP checkpoints, spares).
 * Part of format 2: it must never change (a new one means a new tag).
 */
const FORMAT_2_DICTIONARY = strToU8(
  '{"version":2,"name":"","seed":,"cluster":{"gpus":,"gpusPerHost":,"replicas":,"hostsPerRack":,' +
    '"placement":"striped","packed"},"training":{"days":,"stepSeconds":},"failures":{"perHostDay":0.00,' +
    '"arrivals":"poisson","fixed","weibull","weibullShape":0.,"hangFraction":0.,"causes":[{"name":"",' +
    '"share":0.,"scope":"host","rack","job","hang":false,"newHost":true}]},"detection":{"failStopSeconds":,' +
    '"hangSeconds":600},"sync":{"restartSeconds":,"checkpointMinutes":,"checkpointWriteSeconds":},"ft":{' +
    '"reconfigureSeconds":,"replicaRestartSeconds":,"catchUp":"blocking","nonBlocking","catchUpSeconds":,' +
    '"rejoinSeconds":,"minReplicas":,"hangTimeoutSeconds":,"checkpointMinutes":,"checkpointWriteSeconds":},' +
    '"spares":{"pool":"unlimited","limited","hosts":,"repairHours":24}}',
);

const WHAT = "scenario";

/** A link around any JSON value, in today's format. Exported for tests that build bad links. */
export function encodeLinkPayload(value: unknown): string {
  return encodeChecked(value, FORMAT_2_DICTIONARY);
}

/**
 * The value of the hash's `s=` key that reproduces this scenario: format 2, or format 3 when it
 * carries a log (replayLink.ts). A log too big for a link still encodes (the page's address keeps
 * the scenario on screen); opening it, and sharing it (scenarioLinkProblem), refuse it by name.
 */
export function encodeScenarioParam(s: Scenario): string {
  const diff = diffFromDefaults(s) as { failures?: { log?: { events: number[][] } } };
  const log = diff.failures?.log;
  if (!log) return encodeLinkPayload(diff);
  const compact = {
    ...diff,
    failures: { ...diff.failures, log: { ...log, events: compactText(log.events) } },
  };
  // The page writes its address after every edit: a replay's other knobs change, its log does not.
  const json = JSON.stringify(compact);
  if (lastReplay?.json !== json)
    lastReplay = { json, param: encodeReplayPayload(compact, FORMAT_2_DICTIONARY) };
  return lastReplay.param;
}

/** A log's compact text, by the identity of its events (edits of other fields keep the list). */
const compactTexts = new WeakMap<readonly (readonly number[])[], string>();
function compactText(events: readonly (readonly number[])[]): string {
  let text = compactTexts.get(events);
  if (text === undefined) {
    text = compactEvents(events);
    compactTexts.set(events, text);
  }
  return text;
}
let lastReplay: { json: string; param: string } | null = null;

/** Why this scenario cannot be shared as a link (its log is too big), or null. */
export function scenarioLinkProblem(s: Scenario): string | null {
  const chars = encodeScenarioParam(s).length;
  return chars > MAX_REPLAY_LINK_CHARS ? tooLargeForLink(chars).message : null;
}

/** Format 3: the diff with its log's events expanded from their compact text. */
function decodeFormat3(body: string): unknown {
  let json: string;
  try {
    const packed = replayPayloadBytes(body);
    const bytes = inflateSync(packed, {
      out: new Uint8Array(MAX_REPLAY_JSON_BYTES + 1),
      dictionary: FORMAT_2_DICTIONARY,
    });
    if (bytes.length > MAX_REPLAY_JSON_BYTES)
      throw new Error(`it expands past ${MAX_REPLAY_JSON_BYTES} bytes`);
    json = strFromU8(bytes);
  } catch (e) {
    if (e instanceof LinkError) throw e;
    throw new LinkError(`The link's scenario could not be decoded: ${(e as Error).message}.`);
  }
  let value: { failures?: { log?: { events?: unknown } } };
  try {
    value = JSON.parse(json);
  } catch {
    throw new LinkError("The link's scenario is not valid JSON.");
  }
  refuseDuplicateKeys(json, WHAT);
  const log = value.failures?.log;
  if (log && typeof log.events === "string") log.events = expandEvents(log.events);
  return value;
}

/** The hash fragment (with its leading '#') that reproduces this scenario. */
export function encodeScenarioHash(s: Scenario): string {
  return `#s=${encodeScenarioParam(s)}`;
}

/** Format 1 exactly as it always decoded (no integrity check). */
function decodeFormat1(body: string): unknown {
  let json: string;
  try {
    json = inflateBounded(fromBase64Url(body), FORMAT_1_DICTIONARY);
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
  refuseDuplicateKeys(json, WHAT);
  return value;
}

/**
 * The scenario of an `s=` value (format 1 or 2). Throws LinkError, whose message a person can
 * act on, when it is malformed, truncated, tampered with or describes an invalid scenario.
 */
export function decodeScenarioParam(param: string): Scenario {
  if (param.startsWith(`${REPLAY_FORMAT}.`)) {
    if (param.length > MAX_REPLAY_LINK_CHARS) throw tooLargeForLink(param.length);
  } else if (param.length > MAX_LINK_CHARS) {
    throw new LinkError(`The link's scenario is ${param.length} characters long; at most ${MAX_LINK_CHARS}.`);
  }
  const dot = param.indexOf(".");
  const version = dot >= 0 ? param.slice(0, dot) : "";
  const body = param.slice(dot + 1);
  let value: unknown;
  if (version === "1") value = decodeFormat1(body);
  else if (version === CHECKED_FORMAT) value = decodeChecked(body, FORMAT_2_DICTIONARY, WHAT);
  else if (version === REPLAY_FORMAT) value = decodeFormat3(body);
  else if (dot < 0 && (param === "1" || param === CHECKED_FORMAT))
    // `s=2`: a link cut right after its tag. Its format is readable; what is missing is the payload.
    throw new LinkError(
      `The link's scenario (s=${param}) is cut: it holds only its format tag "${param}" and none of the scenario after "${param}.".`,
    );
  else
    throw new LinkError(
      `The link's format tag is "${version || param.slice(0, 8)}"; this version of the explorer reads formats 1, 2 and 3.`,
    );
  try {
    return parseScenario(value);
  } catch (e) {
    if (e instanceof ScenarioError) throw new LinkError(`The link's scenario is invalid: ${e.message}`);
    throw e;
  }
}

/**
 * Pull the `s=` key out of anything a person may paste: a full URL, a hash, or the value. A link
 * whose scenario sits where the page does not read it (`?s=` in the query), or under a key the
 * page does not know (`#S=`, `#%73=`, `#sx=`), or with a piece that is not key=value, is refused
 * naming it: running the defaults instead would print numbers of another scenario.
 */
function scenarioParam(link: string): string | null {
  const hashAt = link.indexOf("#");
  const fragment = hashAt >= 0 ? link.slice(hashAt + 1) : link;
  const queryAt = link.indexOf("?");
  if (queryAt >= 0 && (hashAt < 0 || queryAt < hashAt)) {
    const query = link.slice(queryAt + 1, hashAt >= 0 ? hashAt : undefined);
    const key = [...readHash(query).keys()].find((k) => k.toLowerCase() === "s" || k === "%73");
    if (key !== undefined)
      throw new LinkError(
        `The link gives "${key.slice(0, 20)}=" in its query (after ?); the page reads a scenario only after #, as "#s=".`,
      );
  }
  // The page refuses a link that gives s= twice (address.ts); so does the CLI, rather than open the first.
  if (repeatedHashKeys(fragment).includes("s"))
    throw new LinkError('The link gives "s=" more than once; each key may be given once.');
  const keyless = piecesWithoutKey(fragment).filter((p) => p !== "");
  if (keyless.length > 0 && (hashAt >= 0 || fragment.includes("=")))
    throw new LinkError(`The link has "${keyless[0]?.slice(0, 40)}", which is not key=value.`);
  const params = readHash(fragment);
  const unknown = [...params.keys()].filter((k) => !Object.hasOwn(ADDRESS_KEYS, k));
  if (unknown.length > 0 && (hashAt >= 0 || params.size > 0))
    throw new LinkError(
      `The link has ${unknown.map((k) => `"${k.slice(0, 40)}="`).join(", ")}, which the explorer does not use (keys are lower case: ${Object.keys(ADDRESS_KEYS).join(", ")}).`,
    );
  return params.get("s") ?? null;
}

/**
 * Decode a share link (full URL, `#s=...`, or `s=...`). Returns null when the link carries no
 * scenario (open the defaults); throws LinkError when the link cannot be used.
 */
export function decodeScenarioLink(link: string): Scenario | null {
  // A replay's link (format 3) may carry up to 64 KB of log.
  const limit = /(^|[#&])s=3\./.test(link)
    ? MAX_REPLAY_LINK_CHARS + MAX_SHARE_LINK_CHARS
    : MAX_SHARE_LINK_CHARS;
  if (link.length > limit) {
    throw new LinkError(`The link is ${link.length} characters long; share links are at most ${limit}.`);
  }
  const param = scenarioParam(link.trim());
  if (param === null || param === "") return null;
  return decodeScenarioParam(param);
}
