import { type RefObject, useEffect, useRef, useState } from "react";

/** The rendered width of an element, following resizes (charts draw to it in pixels). */
export function useWidth<T extends HTMLElement>(initial = 900): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(200, Math.floor(entry.contentRect.width)));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
