/**
 * Which glossary term is open, apart from the terms' words: the app's shell watches it to load
 * the definition panel on the first open (glossary.ts stays out of the first page load; every
 * view that shows a term has loaded it by then).
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import type { TermId } from "./glossary.ts";

interface OpenTerm {
  id: TermId | null;
  /** Where focus goes back when the definition closes. */
  opener: HTMLElement | null;
}

export const openTermStore = createStore<OpenTerm>()(() => ({ id: null, opener: null }));

export function useOpenTerm(): OpenTerm {
  return useStore(openTermStore);
}
