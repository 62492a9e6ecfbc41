import { type ComponentType, useEffect, useState } from 'react';
import type { ToasterProps } from 'sonner';

// The toast library is not needed to show a page, only to answer what a visitor does on it, so it
// loads once the page has finished loading and stays out of the initial JavaScript.
export function DeferredToaster(props: ToasterProps) {
  const [Toaster, setToaster] = useState<ComponentType<ToasterProps> | null>(null);

  useEffect(() => {
    let mounted = true;
    const load = () =>
      import('sonner').then((module) => {
        if (mounted) setToaster(() => module.Toaster);
      });
    if (document.readyState === 'complete') load();
    else window.addEventListener('load', load, { once: true });
    return () => {
      mounted = false;
      window.removeEventListener('load', load);
    };
  }, []);

  return Toaster ? <Toaster {...props} /> : null;
}
