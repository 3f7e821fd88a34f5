import { type RefObject, useEffect, useState } from "react";

/** The element's content width, following resizes (charts redraw to fit their panel). */
export function useWidth(ref: RefObject<HTMLElement | null>, initial = 640): number {
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(Math.max(240, Math.floor(el.clientWidth))));
    ro.observe(el);
    setWidth(Math.max(240, Math.floor(el.clientWidth)));
    return () => ro.disconnect();
  }, [ref]);
  return width;
}
