import { type RefObject, useLayoutEffect, useState } from "react";
import { flushSync } from "react-dom";

/**
 * The element's content width, following resizes (charts draw to it in pixels). Read only when
 * the ResizeObserver reports (once when it starts observing, then on each change): the browser
 * has just laid the page out then, so reading the width costs nothing. Measuring in the effect
 * itself forced a synchronous layout of the whole page inside the task that rendered it (about
 * 100 ms when a large run arrived).
 *
 * Observing starts in the commit (a layout effect: observe() reads nothing), so the first report
 * comes in the same frame, after layout and before paint, and the chart is drawn again at once
 * (flushSync): no frame is painted at the `initial` guess. At 390 px a 720 px guess would
 * otherwise show for a frame or more, and scroll the page sideways meanwhile.
 */
export function useWidth(ref: RefObject<HTMLElement | null>, initial = 640): number {
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => flushSync(() => setWidth(Math.max(200, Math.floor(el.clientWidth)))));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}
