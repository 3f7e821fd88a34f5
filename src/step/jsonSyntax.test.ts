import { describe, expect, it } from "vitest";
import { describeDuplicateKey, firstDuplicateKey } from "./jsonSyntax.ts";

describe("firstDuplicateKey", () => {
  it("finds a key given twice in one object, with its path and position", () => {
    const text = '{"cluster":{"replicas":-5,"replicas":16}}';
    expect(firstDuplicateKey(text)).toEqual({ path: "cluster", key: "replicas", line: 1, column: 27 });
    expect(describeDuplicateKey(firstDuplicateKey(text)!)).toBe(
      '"replicas" is given twice in cluster (line 1, column 27); a field may be given once',
    );
    expect(firstDuplicateKey('{"seed":1,\n "seed":2}')).toMatchObject({ path: "", key: "seed", line: 2 });
    expect(
      firstDuplicateKey('{"failures":{"causes":[{"name":"a"},{"name":"b","scope":"host","scope":"job"}]}}'),
    ).toMatchObject({ path: "failures.causes[1]", key: "scope" });
  });

  it("reads keys as JSON.parse does: an escaped key is the same key", () => {
    expect(firstDuplicateKey('{"name":"a","n\\u0061me":"b"}')).toMatchObject({ key: "name" });
    expect(firstDuplicateKey('{"a\\"":1,"a\\\\":2}')).toBeNull();
  });

  it("lets the same key appear in different objects and strings that look like keys", () => {
    expect(firstDuplicateKey('[{"name":"w"},{"name":"w"}]')).toBeNull();
    expect(firstDuplicateKey('{"a":{"b":1},"b":{"a":"a"},"c":["a","a"]}')).toBeNull();
    expect(firstDuplicateKey('{"a":"{\\"b\\":1,\\"b\\":2}"}')).toBeNull();
  });
});
