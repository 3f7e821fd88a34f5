/**
 * Chapter 5's bucket_cap_mb choice (the story's "Try the three sizes"), in the link as `bk=`: a
 * class that opens the teacher's link sees the figure at the size the teacher picked.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { DISPLAY_SETTINGS, readSettingParam, settingParam } from "../link/displaySettings.ts";
import { registerAddressPart, requestAddressWrite } from "./address.ts";

/** The sizes the chapter offers and its default (PyTorch's): displaySettings.ts's storyBucket. */
export const STORY_CAPS = DISPLAY_SETTINGS.storyBucket.choices;
export type StoryCap = (typeof STORY_CAPS)[number];
export const DEFAULT_STORY_CAP: StoryCap = DISPLAY_SETTINGS.storyBucket.default;

export const storyBucketStore = createStore<{ cap: StoryCap }>()(() => ({ cap: DEFAULT_STORY_CAP }));

export function parseStoryCap(v: string | undefined): StoryCap {
  return readSettingParam("storyBucket", v) as StoryCap;
}

registerAddressPart({
  keys: ["bk"],
  read: (values) => {
    storyBucketStore.setState({ cap: parseStoryCap(values.get("bk")) });
  },
  write: () => {
    const { cap } = storyBucketStore.getState();
    return { bk: settingParam("storyBucket", cap) };
  },
});
storyBucketStore.subscribe((s, prev) => {
  if (s.cap !== prev.cap) requestAddressWrite("edit");
});

export function useStoryCap(): StoryCap {
  return useStore(storyBucketStore, (s) => s.cap);
}
