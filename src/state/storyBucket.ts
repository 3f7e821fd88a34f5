/**
 * Chapter 5's bucket_cap_mb choice (the story's "Try the three sizes"), in the link as `bk=`: a
 * class that opens the teacher's link sees the figure at the size the teacher picked.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { LinkError } from "../link/linkError.ts";
import { registerAddressPart, requestAddressWrite } from "./address.ts";

export const STORY_CAPS = [1, 25, 512] as const;
export type StoryCap = (typeof STORY_CAPS)[number];
/** PyTorch's default, and what the chapter shows when the link names no size. */
export const DEFAULT_STORY_CAP: StoryCap = 25;

export const storyBucketStore = createStore<{ cap: StoryCap }>()(() => ({ cap: DEFAULT_STORY_CAP }));

export function parseStoryCap(v: string | undefined): StoryCap {
  if (v === undefined) return DEFAULT_STORY_CAP;
  const cap = STORY_CAPS.find((c) => String(c) === v);
  if (cap === undefined)
    throw new LinkError(
      `The link's bucket size (bk=) "${v.slice(0, 20)}" must be one of ${STORY_CAPS.join(", ")} MiB.`,
    );
  return cap;
}

registerAddressPart({
  keys: ["bk"],
  read: (values) => storyBucketStore.setState({ cap: parseStoryCap(values.get("bk")) }),
  write: () => {
    const { cap } = storyBucketStore.getState();
    return { bk: cap !== DEFAULT_STORY_CAP ? String(cap) : "" };
  },
});
storyBucketStore.subscribe((s, prev) => {
  if (s.cap !== prev.cap) requestAddressWrite("edit");
});

export function useStoryCap(): StoryCap {
  return useStore(storyBucketStore, (s) => s.cap);
}
