import { useCallback, useState } from "react";

/**
 * Hands an error from outside React's render (an animation frame, a task, a worker's reply) to
 * the nearest ErrorBoundary: React only catches what is thrown while it renders, so the error is
 * re-thrown from a state update. Without it such an error left a blank canvas and a console line.
 */
export function useThrowToBoundary(): (error: unknown) => void {
  const [, set] = useState<null>(null);
  return useCallback((error: unknown) => {
    set(() => {
      throw error;
    });
  }, []);
}
