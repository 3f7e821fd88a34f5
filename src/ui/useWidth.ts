import { type RefObject, useEffect, useState } from "react";

/**
 * The element's content width, following resizes (charts draw to it in pixels). Read only when
 * the ResizeObserver reports (once when it starts observing, then on each change): the browser
 * has just laid the page out then, so reading the width costs nothing. Measuring in the effect
 * itself forced a synchronous layout of the whole page inside the task that rendered it (about
 * 100 ms when a large run arrived).
 */
export function useWidth(ref: RefObject<HTMLElement | null>, initial = 640): number {
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(Math.max(200, Math.floor(el.clientWidth))));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}
