import { useSyncExternalStore } from 'react';

const unchanging = () => () => {};

/**
 * The site's origin (`https://covenant.example`), or '' where there is none: in a page pre-rendered at
 * build time, and in the render that hydrates it (which must draw the same markup). The render right
 * after hydration has it.
 */
export function useOrigin(): string {
  return useSyncExternalStore(
    unchanging,
    () => window.location.origin,
    () => '',
  );
}
