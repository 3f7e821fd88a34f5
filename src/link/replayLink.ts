/**
 * A replay scenario's link (docs/model.md §5): `s=3.<checked payload>`, format 2's framing and
 * dictionary around the scenario's diff, with `failures.log.events` written compactly as one
 * string: events split by ";", each "dt,cause,hosts" where dt is the time since the event
 * before (or "=t", the time itself, where the delta would not add back to it exactly, so a link
 * always gives the log's times bit for bit) and hosts are indexes, a run a~b for a, a+1, …, b.
 * Only a scenario with a log writes format 3: every other link is format 2, as it was.
 */
import { deflateSync, strToU8 } from "fflate";
import { fromBase64Url, toBase64Url } from "./base64url.ts";
import { crc32 } from "./crc32.ts";
import { LinkError } from "./linkError.ts";

export const REPLAY_FORMAT = "3";
/** §5: a replay's link is at most this many characters of the s= value; a bigger log is saved as a file. */
export const MAX_REPLAY_LINK_CHARS = 65_536;
/** A format-3 value inflates to at most this: 20,000 events of up to 64 hosts, compact. */
export const MAX_REPLAY_JSON_BYTES = 4 * 1024 * 1024;

/** The events as compact text (file comment). */
export function compactEvents(events: readonly (readonly number[])[]): string {
  let previous = 0;
  return events
    .map((e) => {
      const t = e[0]!;
      const d = t - previous;
      const time = previous + d === t ? String(d) : `=${t}`;
      previous = t;
      const hosts: string[] = [];
      for (let j = 2; j < e.length; ) {
        let k = j;
        while (k + 1 < e.length && e[k + 1] === e[k]! + 1) k++;
        hosts.push(k > j ? `${e[j]}~${e[k]}` : String(e[j]));
        j = k + 1;
      }
      return [time, String(e[1]), ...hosts].join(",");
    })
    .join(";");
}

/** The events of compact text; a malformed one is refused with its event number. */
export function expandEvents(text: string): number[][] {
  if (text === "") return [];
  let previous = 0;
  return text.split(";").map((part, i) => {
    const cells = part.split(",");
    const time = cells[0] ?? "";
    const t = time.startsWith("=") ? Number(time.slice(1)) : previous + Number(time);
    if (time === "" || !Number.isFinite(t))
      throw new LinkError(`The link's log: event ${i + 1} has no valid time.`);
    previous = t;
    const e = [t, Number(cells[1])];
    for (const h of cells.slice(2)) {
      const [a, b] = h.split("~").map(Number) as [number, number | undefined];
      const last = b ?? a;
      // A run longer than an event may strike is refused before it is spelled out.
      if (!Number.isInteger(a) || !Number.isInteger(last) || last < a || last - a > 64)
        throw new LinkError(`The link's log: event ${i + 1} has a host that is not an index or a run a~b.`);
      for (let x = a; x <= last; x++) e.push(x);
    }
    return e;
  });
}

/**
 * Format 3's check is format 2's CRC-32 with this mask: the tag is covered too, so a link whose
 * "2." became "3." (or back) fails its check instead of opening as the other format.
 */
const TAG_MASK = 0x3333_3333;

/** Format 3's framing: format 2's (checkedPayload.ts) with the tag 3 and a masked check. */
export function encodeReplayPayload(value: unknown, dictionary: Uint8Array): string {
  const packed = deflateSync(strToU8(JSON.stringify(value)), { level: 9, dictionary });
  const framed = new Uint8Array(packed.length + 4);
  framed.set(packed);
  new DataView(framed.buffer).setUint32(packed.length, (crc32(packed) ^ TAG_MASK) >>> 0);
  return `${REPLAY_FORMAT}.${toBase64Url(framed)}`;
}

/** The checked, still deflated bytes of a format-3 body. */
export function replayPayloadBytes(body: string): Uint8Array {
  try {
    const framed = fromBase64Url(body, true);
    if (framed.length < 5) throw new Error("it is too short to hold anything");
    const packed = framed.subarray(0, framed.length - 4);
    const check = new DataView(framed.buffer, framed.byteOffset).getUint32(packed.length);
    if ((crc32(packed) ^ TAG_MASK) >>> 0 !== check)
      throw new Error("it fails its integrity check: it was changed or cut after it was made");
    return packed;
  } catch (e) {
    throw new LinkError(`The link's scenario could not be decoded: ${(e as Error).message}.`);
  }
}

/** The refusal of a replay too large for a link: by name, with what to do instead. */
export function tooLargeForLink(chars: number): LinkError {
  return new LinkError(
    `The replayed log (failures.log) makes a link of ${chars.toLocaleString("en-US")} characters; links carry at most ${MAX_REPLAY_LINK_CHARS.toLocaleString("en-US")}: save the scenario file instead.`,
  );
}
