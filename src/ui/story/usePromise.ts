import { useEffect, useState } from "react";

export type Loaded<T> =
  | { status: "loading" }
  | { status: "done"; value: T }
  | { status: "error"; error: string };

/**
 * The value of a promise made from `key`, as state. A new key starts a new request; an answer
 * to an old key is dropped. The story's requests are cached in src/state, so a key seen before
 * resolves at once.
 */
export function usePromise<T>(key: string, make: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ key: string; loaded: Loaded<T> }>({
    key,
    loaded: { status: "loading" },
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names the request; `make` is rebuilt every render
  useEffect(() => {
    let live = true;
    make().then(
      (value) => live && setState({ key, loaded: { status: "done", value } }),
      (e: unknown) =>
        live &&
        setState({ key, loaded: { status: "error", error: e instanceof Error ? e.message : String(e) } }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return state.key === key ? state.loaded : { status: "loading" };
}
