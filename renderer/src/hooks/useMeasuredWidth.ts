import { useCallback, useState } from 'react';

/**
 * The width an element is laid out at, kept as the window or its panel is resized: a plot drawn at
 * that width fills its card, with its text at its own size rather than scaled with a fixed view box.
 * Answers `fallback` until the element is laid out. Pass the returned ref to the element.
 */
export function useMeasuredWidth<E extends Element>(fallback: number): [(element: E | null) => void, number] {
  const [width, setWidth] = useState(fallback);
  const ref = useCallback((element: E | null) => {
    if (!element) return;
    const seen = () => {
      const w = Math.floor(element.getBoundingClientRect().width);
      if (w > 0) setWidth(w);
    };
    seen();
    const observer = new ResizeObserver(seen);
    observer.observe(element);
    // A callback ref's cleanup (React 19) ends the observer with the element.
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
