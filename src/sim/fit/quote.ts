/**
 * How an error message quotes a value from the log: as a JSON string (so C0 controls are
 * visible escapes), cut to a bounded length. The CLI escapes the rest (src/cli/echo.ts) and the
 * page shows messages as text, never markup.
 */
import { LogError, MAX_HOST_ID_CHARS } from "./types.ts";

const SHOWN_CHARS = 60;

/** Control characters, DEL, C1 controls, line/paragraph separators, bidirectional overrides. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, "g");

const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** `value` in quotes, cut, with every control character a visible escape. */
export function quote(value: string): string {
  const cut = value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value;
  return `"${cut.replace(CONTROLS, escaped)}"`;
}

/**
 * A host id or label, checked: a string without control characters (they would reach a
 * terminal or a screen reader as commands), at most `max` characters. `where` names the line
 * or event, `what` the field.
 */
export function checkedText(value: string, where: string, what: string, max = MAX_HOST_ID_CHARS): string {
  if (value.length > max) {
    throw new LogError(
      `${where}: ${what} is ${value.length.toLocaleString("en-US")} characters; at most ${max} are read`,
    );
  }
  const c = CONTROL.exec(value);
  if (c) {
    throw new LogError(
      `${where}: ${what} ${quote(value)} holds a control character (${escaped(c[0])}); remove it`,
    );
  }
  return value;
}
