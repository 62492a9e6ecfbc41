import { useEffect } from 'react';
import { useLocation } from 'react-router';

// A link such as /documentation?tab=wallet-setup#bitcoin lands on its section once the tab showing
// it has rendered; the browser alone cannot, because the section does not exist at navigation time.
export function useScrollToHash(renderedView: string) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash || !renderedView) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: 'start' });
  }, [hash, renderedView]);
}
