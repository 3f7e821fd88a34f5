/**
 * Where a JSON text first breaks, and why. JSON.parse says so in a form that depends on the
 * engine and the error ("Unexpected token 'x', ... is not valid JSON" carries no position at
 * all in V8; Firefox gives a line and column), so a paste's error could not always be pinned
 * to the entry a person has to fix. This scanner follows the JSON grammar (RFC 8259) and stops
 * at the first character that cannot continue it: one pass, no recursion (a deeply nested paste
 * cannot overflow the stack), run only after JSON.parse has refused the text.
 */

export interface JsonSyntaxError {
  /** UTF-16 offset of the first character that breaks the grammar (the text's length at its end). */
  offset: number;
  /** 1-based line and column of the offset, as an editor counts them. */
  line: number;
  column: number;
  /** What was expected there, in words. */
  message: string;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

type State = "value" | "valueOrClose" | "key" | "keyOrClose" | "afterValue";

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

function describeChar(c: string | undefined): string {
  return c === undefined ? "the end of the text" : `${JSON.stringify(c)}`;
}

/** The first syntax error of `text`, or null when it is valid JSON. */
export function firstSyntaxError(text: string): JsonSyntaxError | null {
  const n = text.length;
  /** Open containers: true for an object, false for an array. */
  const stack: boolean[] = [];
  let i = 0;
  let state: State = "value";

  const fail = (message: string): JsonSyntaxError => ({
    offset: i,
    ...position(text, i),
    message: `${message}, found ${describeChar(text[i])}`,
  });
  const skipSpace = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      i++;
    }
  };
  /** Scans the string that starts at i; null when it is well formed. */
  const scanString = (): JsonSyntaxError | null => {
    i++;
    for (;;) {
      if (i >= n) return fail("a string is not closed");
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return null;
      }
      if (c === 0x5c) {
        ESCAPE.lastIndex = i;
        if (!ESCAPE.test(text)) return fail("a backslash must start an escape like \\n or \\u0041");
        i = ESCAPE.lastIndex;
      } else if (c < 0x20) {
        return fail("a control character must be escaped inside a string");
      } else i++;
    }
  };
  const scanToken = (re: RegExp): boolean => {
    re.lastIndex = i;
    if (!re.test(text)) return false;
    i = re.lastIndex;
    return true;
  };

  for (;;) {
    skipSpace();
    const c = text[i];
    if (state === "value" || state === "valueOrClose") {
      if (state === "valueOrClose" && c === "]") {
        i++;
        stack.pop();
        state = "afterValue";
      } else if (c === "[" || c === "{") {
        stack.push(c === "{");
        i++;
        state = c === "{" ? "keyOrClose" : "valueOrClose";
      } else if (c === '"') {
        const e = scanString();
        if (e) return e;
        state = "afterValue";
      } else if (scanToken(NUMBER) || scanToken(LITERAL)) {
        state = "afterValue";
      } else return fail("expected a value (a number, a string in double quotes, a list or an object)");
    } else if (state === "key" || state === "keyOrClose") {
      if (state === "keyOrClose" && c === "}") {
        i++;
        stack.pop();
        state = "afterValue";
        continue;
      }
      if (c !== '"') return fail("expected a field name in double quotes");
      const e = scanString();
      if (e) return e;
      skipSpace();
      if (text[i] !== ":") return fail("expected ':' after the field name");
      i++;
      state = "value";
    } else {
      if (stack.length === 0) return i < n ? fail("expected nothing after the end of the value") : null;
      const inObject = stack.at(-1)!;
      const close = inObject ? "}" : "]";
      if (c === ",") {
        i++;
        state = inObject ? "key" : "value";
      } else if (c === close) {
        i++;
        stack.pop();
      } else return fail(`expected ',' or '${close}'`);
    }
  }
}

/** A key given twice in one JSON object: JSON.parse keeps the last, silently. */
export interface DuplicateKey {
  /** The object's path as the schema names fields (`cluster`, `failures.causes[2]`; "" at the top). */
  path: string;
  key: string;
  /** 1-based line and column of the second occurrence. */
  line: number;
  column: number;
}

interface Open {
  /** The keys seen so far (an object), or null (a list). */
  keys: Set<string> | null;
  path: string;
  /** Objects: whether the next string is a key. Lists: the index of the current element. */
  expectKey: boolean;
  index: number;
  lastKey: string;
}

/**
 * The first key given twice in one object of `text`, which must be valid JSON (JSON.parse
 * accepted it), or null. One pass, no recursion; a key is decoded only when it holds an escape,
 * so `"a"` and `"\u0061"` are the same key, as they are to JSON.parse.
 */
export function firstDuplicateKey(text: string): DuplicateKey | null {
  const stack: Open[] = [];
  const n = text.length;
  const childPath = (): string => {
    const top = stack.at(-1);
    if (!top) return "";
    if (top.keys === null) return `${top.path}[${top.index}]`;
    return top.path === "" ? top.lastKey : `${top.path}.${top.lastKey}`;
  };
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const path = childPath();
      stack.push({ keys: c === 0x7b ? new Set() : null, path, expectKey: c === 0x7b, index: 0, lastKey: "" });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack.at(-1);
      if (top?.keys) top.expectKey = true;
      else if (top) top.index++;
    } else if (c === 0x22 /* " */) {
      const start = i;
      let escaped = false;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) {
          escaped = true;
          i++;
        } else if (d === 0x22) break;
      }
      const top = stack.at(-1);
      if (top?.keys && top.expectKey) {
        top.expectKey = false;
        const raw = text.slice(start, i + 1);
        const key = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (top.keys.has(key)) return { path: top.path, key, ...position(text, start) };
        top.keys.add(key);
        top.lastKey = key;
      }
    }
  }
  return null;
}

/** A duplicate key in words: `"replicas" is given twice in cluster (line 1, column 30)`. */
export function describeDuplicateKey(d: DuplicateKey): string {
  return `${JSON.stringify(d.key)} is given twice${d.path ? ` in ${d.path}` : ""} (line ${d.line}, column ${d.column}); a field may be given once`;
}
