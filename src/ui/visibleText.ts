/**
 * Text that came with a link, shown as text: its control characters, line and paragraph
 * separators and bidirectional overrides (U+202E reverses what follows; BEL, ESC) are written
 * as visible escapes (`\u202e`), so a crafted adapter name cannot reorder or hide the table.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function visibleText(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
