/**
 * Which of the step's links was last set from a trace's fit, and from which files: the link
 * knobs name it ("fitted to rank0.json, rank1.json") while its α and B are still the fitted ones,
 * and say "edited" once they are changed by hand. Not in the share link: a reopened link has no
 * trace, so it shows the figures as an edit.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";

export interface FittedLink {
  which: "intraLink" | "interLink";
  alpha: number;
  bandwidth: number;
  /** The trace files the fit was made from. */
  files: string[];
}

export const traceFitStore = createStore<{ fitted: FittedLink | null }>()(() => ({ fitted: null }));

export function setFittedLink(f: FittedLink): void {
  traceFitStore.setState({ fitted: f });
}

/** The files a link's α and B were fitted to, while they still are the fitted ones, or null. */
export function useFittedFrom(
  which: "intraLink" | "interLink",
  link: { alpha: number; bandwidth: number },
): string[] | null {
  const f = useStore(traceFitStore, (s) => s.fitted);
  return f !== null && f.which === which && f.alpha === link.alpha && f.bandwidth === link.bandwidth
    ? f.files
    : null;
}
