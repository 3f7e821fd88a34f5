/**
 * Presenter mode and the steps inside a chapter. A chapter with steps of its own (a failure
 * replayed phase by phase) registers them here, so that in presenter mode →/space first walk its
 * steps and only then turn the page, and the step counter can show where the talk is.
 */
import { useEffect, useState } from "react";
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";

export interface ChapterSteps {
  index: number;
  count: number;
  /** Move to step `index` (already clamped to [0, count − 1]). */
  go(index: number): void;
}

interface PresenterState {
  presenting: boolean;
  /** True when the Fullscreen API was granted; otherwise the page fills the window by CSS. */
  fullscreen: boolean;
  steps: ChapterSteps | null;
}

export const presenterStore = createStore<PresenterState>()(() => ({
  presenting: false,
  fullscreen: false,
  steps: null,
}));

export function usePresenter<T>(select: (s: PresenterState) => T): T {
  return useStore(presenterStore, select);
}

export async function startPresenting(): Promise<void> {
  presenterStore.setState({ presenting: true });
  try {
    // Not every page may go full screen (an iframe without permission, some phones): then the
    // presenter layout simply fills the window.
    await document.documentElement.requestFullscreen?.();
    presenterStore.setState({ fullscreen: document.fullscreenElement !== null });
  } catch {
    presenterStore.setState({ fullscreen: false });
  }
}

export function stopPresenting(): void {
  presenterStore.setState({ presenting: false, fullscreen: false });
  if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
}

/** Leaving full screen by the browser's own means (Esc) ends presenter mode too. */
export function followFullscreen(): () => void {
  const onChange = () => {
    if (!document.fullscreenElement && presenterStore.getState().fullscreen) stopPresenting();
  };
  document.addEventListener("fullscreenchange", onChange);
  return () => document.removeEventListener("fullscreenchange", onChange);
}

/** A chapter's steps, registered while it is on screen. */
export function useChapterSteps(index: number, count: number, go: (i: number) => void): void {
  useEffect(() => {
    presenterStore.setState({ steps: { index, count, go } });
  }, [index, count, go]);
  useEffect(() => () => presenterStore.setState({ steps: null }), []);
}

/** Take one step inside the chapter; false when the chapter has no step left that way. */
export function stepInside(delta: number): boolean {
  const steps = presenterStore.getState().steps;
  if (!steps) return false;
  const next = steps.index + delta;
  if (next < 0 || next >= steps.count) return false;
  steps.go(next);
  return true;
}

/**
 * A chapter too long for one screen, shown a part at a time in presenter mode: → and space walk
 * its parts as steps. Returns the part on screen, or null outside presenter mode (every part shows).
 */
export function usePresenterParts(count: number): number | null {
  const presenting = usePresenter((s) => s.presenting);
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (!presenting) return;
    presenterStore.setState({ steps: { index, count, go: setIndex } });
    return () => presenterStore.setState({ steps: null });
  }, [presenting, index, count]);
  return presenting ? Math.min(index, count - 1) : null;
}
