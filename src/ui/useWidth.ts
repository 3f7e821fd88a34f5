import { type RefObject, useLayoutEffect, useState } from "react";
import { flushSync } from "react-dom";

/**
 * The element's content width, following resizes (charts draw to it in pixels).
 *
 * Read once when the element is first committed (a layout effect: the chart is drawn again at
 * that width before the frame is painted, so no frame shows the `initial` guess; at 390 px a
 * 720 px guess would scroll the page sideways), then whenever the ResizeObserver reports a
 * different width. That first read lays the page out inside the commit, a layout the frame would
 * do anyway. Re-rendering from the observer's first report instead (it comes after the frame's
 * layout) laid the page out twice and pulled the whole commit's passive effects into that frame
 * (flushSync runs them first): the longest task when a large run arrived (bench:cluster).
 */
export function useWidth(ref: RefObject<HTMLElement | null>, initial = 640): number {
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const read = () => Math.max(200, Math.floor(el.clientWidth));
    let last = read();
    setWidth(last);
    const ro = new ResizeObserver(() => {
      const w = read();
      if (w === last) return;
      last = w;
      flushSync(() => setWidth(w));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}
