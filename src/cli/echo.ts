/**
 * Everything the command line prints that came from its input (a scenario's name, an unknown
 * key, a parameter's name, a file path, an argument) goes through here before it reaches a
 * terminal. A terminal obeys control characters: ESC starts a sequence that can clear the screen,
 * move the cursor or recolour text, so a share link could otherwise print a fake "ETTR 99.9 %"
 * over the real one. C1 controls (U+0080–U+009F) are escapes too on some terminals (U+009B is a
 * one-character ESC [), and the bidirectional overrides reorder what is shown. Each becomes a
 * visible `\u001b`-style escape. Input is also cut to a bounded length, saying so, so that a
 * 900,000-character key cannot make a 900 KB error line.
 */

/** Control characters, DEL, C1 controls, line and paragraph separators, bidirectional overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this module's job
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** True when `text` holds a control character a terminal would obey (a printed line break aside). */
export function hasRawControl(text: string): boolean {
  for (const [c] of text.matchAll(CONTROL)) if (c !== "\n" && c !== "\t") return true;
  return false;
}

/** The most characters of one echoed value, and of one printed message. */
export const MAX_ECHO_CHARS = 200;
export const MAX_MESSAGE_CHARS = 4000;

/** `text` with every control character written as a visible escape (`\u001b`); newlines too. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * At most `max` UTF-16 units of an escaped text, never ending inside a surrogate pair or inside
 * an escape (`\u001b` is six units, kept whole or left out), and how many units were cut.
 */
function cut(text: string, max: number): { head: string; rest: number } {
  if (text.length <= max) return { head: text, rest: 0 };
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // a high surrogate whose pair would be cut off
  const escapeAt = text.lastIndexOf("\\u", end - 1);
  if (escapeAt >= 0 && escapeAt > end - 6 && /^\\u[0-9a-f]{4}/.test(text.slice(escapeAt, escapeAt + 6)))
    end = escapeAt;
  return { head: text.slice(0, end), rest: text.length - end };
}

/**
 * Escapes first, then cuts: the bound is on what is printed, so a value of escapes (each control
 * character grows six times) makes no longer a line than plain text (4,000 ESCs once made a
 * 24 KB line). An escape is never split.
 */
function bounded(text: string, max: number): string {
  const { head, rest } = cut(escapeControls(text), max);
  return rest > 0 ? `${head}… (cut here: ${rest.toLocaleString("en-US")} more characters)` : head;
}

/** An input value as a message quotes it: escaped, cut to MAX_ECHO_CHARS. */
export function echo(text: string, max = MAX_ECHO_CHARS): string {
  return bounded(text, max);
}

/**
 * A whole message for stderr, as one line: line breaks become spaces, every other control
 * character is escaped, and it is cut to MAX_MESSAGE_CHARS (a message quoting a long input).
 */
export function terminalLine(message: string): string {
  return bounded(message.replace(/\s*[\r\n]+\s*/g, " "), MAX_MESSAGE_CHARS);
}

/**
 * Printed output (a table, JSON): line breaks and tabs the command wrote are kept, every other
 * control character is escaped. In JSON, `\u0085` is as valid as the raw character, and
 * JSON.stringify already escapes C0 controls, so the JSON stays the same value.
 */
export function terminalText(text: string): string {
  return text.replace(CONTROL, (c) =>
    c === "\n" || c === "\t" ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
