/**
 * The one owner of the address bar. Every key of the hash (`v=` view, `s=` scenario, `w=` time
 * window, `st=` step settings, `lab=` lab settings, and whatever a view adds) belongs to one
 * registered part; this module alone reads `location.hash` (once per change) and alone writes it.
 * The codecs are pure and live in src/link; the parts bind them to the stores.
 *
 * How a view adds its keys (the story's chapter, say): name them in ADDRESS_KEYS below (so a
 * link holding them is understood before the view's code has loaded), then, next to its store:
 *
 *   registerAddressPart({
 *     keys: ["ch"],
 *     // Set the store from the hash's values (a missing key means the default). Throw a
 *     // LinkError (src/link/linkError.ts) naming what is wrong, before changing anything: the
 *     // store keeps what it showed (the last good state) and every view shows the message.
 *     read: (values) => storyStore.setState({ chapter: parseChapter(values.get("ch")) }),
 *     // The part's keys as they should read now; "" leaves a key out.
 *     write: () => ({ ch: chapterParam(storyStore.getState().chapter) }),
 *   });
 *   storyStore.subscribe((s, prev) => {
 *     if (s.chapter !== prev.chapter) requestAddressWrite("push"); // a chapter is a history entry
 *   });
 *
 * History (DESIGN: Back and Forward restore the view and its numbers):
 * - "push": a new entry now (a view switch, a preset, a story chapter);
 * - "edit": a knob edit. The first edit after a commit opens a new entry and later ones replace
 *   it, until the edit is committed: the DOM `change` event (a blurred field, a released slider,
 *   a picked option) seals the entry. So one committed edit is one entry, not one per keystroke
 *   or drag frame;
 * - "replace": update the current entry, debounced (the timeline's pan and zoom).
 */

import { createStore } from "zustand/vanilla";
import {
  type HashParams,
  piecesWithoutKey,
  readHash,
  repeatedHashKeys,
  writeHash,
} from "../link/hashParams.ts";
import { LinkError } from "../link/linkError.ts";
import { ADDRESS_KEYS } from "../link/linkKeys.ts";
import { MAX_REPLAY_LINK_CHARS } from "../link/replayLink.ts";
import { addressPartRow } from "./addressParts.ts";

export { ADDRESS_KEYS };

export type AddressKey = keyof typeof ADDRESS_KEYS;
const KEY_ORDER = Object.keys(ADDRESS_KEYS) as AddressKey[];
const isAddressKey = (k: string): k is AddressKey => Object.hasOwn(ADDRESS_KEYS, k);

/**
 * A view's keys bound to its store. Views load on demand, so a part may register after the
 * address was read: it is then handed the keys as last read, and until then those keys ride
 * along unchanged.
 */
export interface AddressPart {
  /** The hash keys this part owns; no two parts share one. */
  readonly keys: readonly AddressKey[];
  /**
   * Set the store from the hash (absent keys: the defaults). Throw LinkError when a value is bad,
   * having changed nothing: a refusal keeps the last good state. Return a sentence
   * when a value was used with a correction the person should know of (a widened window, say).
   */
  read(values: ReadonlyMap<string, string>): string | undefined;
  /** The part's keys as they should be in the address now; "" leaves a key out. */
  write(): Partial<Record<AddressKey, string>>;
}

export type HistoryIntent = "push" | "edit" | "replace";

/** An address longer than this is refused before any key is decoded. */
export const MAX_ADDRESS_CHARS = 8192;
/** Replace writes wait this long for the next one (Chrome throttles rapid history updates). */
const REPLACE_DEBOUNCE_MS = 200;

export interface AddressState {
  /** Why part of the address could not be used (each refused part keeps what it showed). */
  linkError: string | null;
  /** What of the address was used with a correction (a widened window, an empty s=). */
  linkNote: string | null;
  /** The hash in the address bar, as this module last read or wrote it: a link shown on screen follows it. */
  hash: string;
  dismissLinkError(): void;
}

export const addressStore = createStore<AddressState>()((set) => ({
  linkError: null,
  linkNote: null,
  hash: "",
  dismissLinkError: () => set({ linkError: null, linkNote: null }),
}));

/**
 * A key's check that needs no store: run when the address is read while the key's view has not
 * loaded yet, so a bad key is named on open, not when its view is first shown.
 */
export type AddressCheck = (value: string, params: ReadonlyMap<string, string>) => void;
const checks = new Map<AddressKey, AddressCheck>();

/**
 * Register the store-free checks of keys whose parts load later (addressChecks.ts, itself loaded
 * after the first frame): the address already read is checked at once.
 */
export function registerAddressChecks(add: Partial<Record<AddressKey, AddressCheck>>): void {
  for (const [k, check] of Object.entries(add)) if (isAddressKey(k) && check) checks.set(k, check);
  for (const problem of checkUnloaded(lastRead)) appendTo("linkError", problem);
}

/**
 * Whether the address read holds a key whose view has not loaded and whose check is not here yet:
 * the shell then loads addressChecks.ts (App.tsx), so a link without such keys never fetches it.
 */
export function addressNeedsChecks(): boolean {
  return [...lastRead.keys()].some(
    (k) => isAddressKey(k) && !checks.has(k) && !parts.some((p) => p.keys.includes(k)),
  );
}

/**
 * Check the keys of lastRead whose parts have not registered; a refused one takes the value
 * `before` held (what its view will show when it loads). Returns the problems.
 */
function checkUnloaded(before: HashParams): string[] {
  const problems: string[] = [];
  for (const [k, check] of checks) {
    const v = lastRead.get(k);
    if (v === undefined || parts.some((p) => p.keys.includes(k))) continue;
    try {
      check(v, lastRead);
    } catch (e) {
      refused.add(k);
      const kept = before === lastRead ? undefined : before.get(k);
      if (kept === undefined) lastRead.delete(k);
      else lastRead.set(k, kept);
      problems.push(e instanceof LinkError ? e.message : `The link's ${k}= could not be read: ${String(e)}.`);
    }
  }
  return problems;
}

const parts: AddressPart[] = [];
/** The hash as last read, for parts that register after it was read. */
let lastRead: HashParams = new Map();
let applying = false;
let started = false;
/** The hash this module last read or wrote: a hashchange to it is our own echo. */
let current = "";
let sealed = true;
let pushPending = false;
let forcePush = 0;
let pendingReplace: string | null = null;
let replaceTimer: ReturnType<typeof setTimeout> | undefined;
/** Writes to the address bar so far (pushes and replaces): see showActivity. */
let writes = 0;

/**
 * Says on the page's root element what the address is doing: `data-address-writes` (how many
 * writes so far) and `data-address-pending` ("1" while a write is queued: a push waiting for the
 * stores to settle, a debounced replace). Whoever watches the page (the e2e tests) waits on these
 * rather than on time: "nothing was written" is a count that did not move once nothing is queued.
 */
function showActivity(): void {
  if (typeof document === "undefined") return;
  const root = document.documentElement.dataset;
  root.addressWrites = String(writes);
  root.addressPending = pushPending || pendingReplace !== null ? "1" : "0";
}

/** The keys the address last read refused (their parts kept what they showed). */
let refused = new Set<AddressKey>();

/** Whether the address last read refused `key`: work a link starts on it must not run on another state. */
export function addressRefused(key: AddressKey): boolean {
  return refused.has(key);
}

interface PartOutcome {
  problem: string | null;
  note: string | null;
}

function readPart(part: AddressPart, params: HashParams): PartOutcome {
  const values = new Map(
    part.keys.flatMap((k) => (params.has(k) ? [[k, params.get(k) ?? ""] as const] : [])),
  );
  try {
    const note = part.read(values);
    return { problem: null, note: typeof note === "string" ? note : null };
  } catch (e) {
    // Nothing is reset: the part threw before changing its store, so the last good state stays.
    for (const k of part.keys) if (values.has(k)) refused.add(k);
    if (e instanceof LinkError) return { problem: e.message, note: null };
    const named = part.keys.map((k) => `${k}=`).join(", ");
    return {
      problem: `The link's ${named} could not be read: ${e instanceof Error ? e.message : String(e)}.`,
      note: null,
    };
  }
}

function appendTo(field: "linkError" | "linkNote", text: string | null): void {
  if (!text) return;
  const before = addressStore.getState()[field];
  // A key checked on open and read again when its view loads is named once.
  if (before?.includes(text)) return;
  addressStore.setState({ [field]: before ? `${before} ${text}` : text });
}

/** Register a part (see the module comment). Returns a function that unregisters it. */
export function registerAddressPart(part: AddressPart): () => void {
  for (const k of part.keys) {
    if (!isAddressKey(k)) throw new Error(`address key "${k}" is not in ADDRESS_KEYS`);
    if (parts.some((p) => p.keys.includes(k))) throw new Error(`address key "${k}" is registered twice`);
  }
  const row = addressPartRow(part.keys);
  if (row < 0) throw new Error(`address keys ${part.keys.join(", ")} are no part of ADDRESS_PARTS`);
  // Read in the table's order whenever each part registers (addressParts.ts says why it matters).
  const at = parts.findIndex((p) => addressPartRow(p.keys) > row);
  parts.splice(at < 0 ? parts.length : at, 0, part);
  if (part.keys.some((k) => lastRead.has(k))) {
    const { problem, note } = withApplying(() => readPart(part, lastRead));
    appendTo("linkError", problem);
    appendTo("linkNote", note);
  }
  return () => {
    const i = parts.indexOf(part);
    if (i >= 0) parts.splice(i, 1);
  };
}

function withApplying<T>(f: () => T): T {
  const was = applying;
  applying = true;
  try {
    return f();
  } finally {
    applying = was;
  }
}

/** Every key some part owns now. */
export function registeredAddressKeys(): AddressKey[] {
  return parts.flatMap((p) => [...p.keys]);
}

/** True while a hash is being applied to the stores: what they do then is not a new edit. */
export function isApplyingAddress(): boolean {
  return applying;
}

/**
 * Apply a hash to every part; the message for the banner when something was wrong. Pure of the
 * DOM (tests call it with any hash).
 */
export function readAddress(hash: string): string | null {
  const problems: string[] = [];
  const notes: string[] = [];
  refused = new Set();
  const params: HashParams = readHash(hash);
  // §5: a replay's scenario (s=3.…) may carry up to 64 KB of log (scenarioLink.ts refuses more, by name).
  const limit = /(^|[#&])s=3\./.test(hash) ? MAX_ADDRESS_CHARS + MAX_REPLAY_LINK_CHARS : MAX_ADDRESS_CHARS;
  if (hash.length > limit) {
    // Refused whole, before any key is decoded: nothing on screen changes.
    const linkError = `The link is ${hash.length} characters long; links are at most ${limit}.`;
    addressStore.setState({ linkError, linkNote: null });
    return linkError;
  }
  const repeated = repeatedHashKeys(hash).filter((k) => params.has(k));
  if (repeated.length > 0) {
    // Which of the two was meant cannot be known: neither is used (their parts show the defaults).
    for (const k of repeated) params.delete(k);
    problems.push(
      `The link gives ${repeated.map((k) => `"${k}="`).join(", ")} more than once; each key may be given once, so ${repeated.length === 1 ? "it was" : "they were"} not used.`,
    );
  }
  const keyless = piecesWithoutKey(hash);
  if (keyless.length > 0) {
    const shown = keyless.slice(0, 3).map((p) => `"${p.slice(0, 40)}"`);
    problems.push(
      `The link has ${shown.join(", ")}${keyless.length > 3 ? ` and ${keyless.length - 3} more` : ""}, which ${keyless.length === 1 ? "is" : "are"} not key=value; ${keyless.length === 1 ? "it was" : "they were"} not used.`,
    );
  }
  const unknown = [...params.keys()].filter((k) => !isAddressKey(k));
  if (unknown.length > 0) {
    problems.push(
      `The link has ${unknown.map((k) => `"${k.slice(0, 40)}="`).join(", ")}, which this explorer does not use.`,
    );
  }
  const before = lastRead;
  lastRead = params;
  withApplying(() => {
    for (const part of parts) {
      const { problem, note } = readPart(part, params);
      if (problem) problems.push(problem);
      if (note) notes.push(note);
    }
  });
  problems.push(...checkUnloaded(before));
  const linkError = problems.length > 0 ? problems.join(" ") : null;
  addressStore.setState({ linkError, linkNote: notes.length > 0 ? notes.join(" ") : null });
  return linkError;
}

/** The hash (with '#', or "" when empty) that reproduces every part's state now. */
export function composeAddress(): string {
  const written = new Map<string, string>();
  for (const part of parts) {
    for (const [k, v] of Object.entries(part.write())) written.set(k, v);
  }
  const params: HashParams = new Map();
  for (const k of KEY_ORDER) {
    const owned = parts.some((p) => p.keys.includes(k));
    const v = owned ? written.get(k) : lastRead.get(k);
    if (v) params.set(k, v);
  }
  return writeHash(params);
}

/** Ask for the address to follow the stores; `intent` says what it means for the history. */
export function requestAddressWrite(intent: HistoryIntent): void {
  if (applying || !started) return;
  if (forcePush > 0 || intent === "push" || (intent === "edit" && sealed)) {
    if (!pushPending) {
      // What was pending describes the entry being left: write it there first.
      flushReplace();
      pushPending = true;
      const seal = forcePush > 0 || intent === "push";
      queueMicrotask(() => {
        // After every store reacted to the change (a new scenario resets the time window).
        pushPending = false;
        if (write(composeAddress(), "push")) sealed = seal;
        showActivity();
      });
      showActivity();
    }
    return;
  }
  if (pushPending) return; // the push composes after this change anyway
  pendingReplace = composeAddress();
  clearTimeout(replaceTimer);
  replaceTimer = setTimeout(flushReplace, REPLACE_DEBOUNCE_MS);
  showActivity();
}

/** Run `f` (a preset being applied, say) so that its changes make one new history entry. */
export function asHistoryEntry(f: () => void): void {
  forcePush++;
  try {
    f();
  } finally {
    forcePush--;
  }
}

function flushReplace(): void {
  clearTimeout(replaceTimer);
  if (pendingReplace !== null) write(pendingReplace, "replace");
  pendingReplace = null;
  showActivity();
}

/** Put `hash` in the address bar; false when it is there already. */
function write(hash: string, how: "push" | "replace"): boolean {
  if (hash === location.hash) return false;
  const url = hash || location.pathname + location.search;
  if (how === "push") history.pushState(null, "", url);
  else history.replaceState(null, "", url);
  current = location.hash;
  writes++;
  addressStore.setState({ hash: current });
  return true;
}

/**
 * An edit was committed: the next edit opens a new history entry. Sealed after the event's own
 * handlers ran (a picked option's change is itself the edit, and must not be merged into the next).
 */
function seal(): void {
  setTimeout(() => {
    flushReplace();
    sealed = true;
  }, 0);
}

/**
 * Read the address now and follow it from here on: Back, Forward and a link pasted into the
 * address bar of an open tab are read once each. Returns a function that stops it.
 */
export function startAddress(): () => void {
  started = true;
  current = location.hash;
  addressStore.setState({ hash: current });
  readAddress(current);
  showActivity();
  const onNavigate = () => {
    if (location.hash === current) return;
    clearTimeout(replaceTimer);
    pendingReplace = null;
    pushPending = false;
    sealed = true;
    current = location.hash;
    addressStore.setState({ hash: current });
    readAddress(current);
    showActivity();
  };
  window.addEventListener("popstate", onNavigate);
  window.addEventListener("hashchange", onNavigate);
  document.addEventListener("change", seal, true);
  return () => {
    started = false;
    flushReplace();
    window.removeEventListener("popstate", onNavigate);
    window.removeEventListener("hashchange", onNavigate);
    document.removeEventListener("change", seal, true);
  };
}
