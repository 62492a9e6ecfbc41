import { type ComponentType, useEffect, useState } from 'react';
import type { ToasterProps } from 'sonner';

const firstInteraction = ['pointerdown', 'keydown', 'focusin'] as const;
const fallbackDelayMs = 4000;

// The toast library is not needed to show a page, only to answer what a visitor does on it: every
// toast follows an action. So it loads at the visitor's first interaction (or after a few seconds),
// which keeps it out of the JavaScript a page needs to appear.
export function DeferredToaster(props: ToasterProps) {
  const [Toaster, setToaster] = useState<ComponentType<ToasterProps> | null>(null);

  useEffect(() => {
    let mounted = true;
    let timer: number | undefined;
    const stopWaiting = () => {
      for (const type of firstInteraction) window.removeEventListener(type, load, true);
      window.clearTimeout(timer);
    };
    function load() {
      stopWaiting();
      import('sonner').then((module) => {
        if (mounted) setToaster(() => module.Toaster);
      });
    }
    for (const type of firstInteraction)
      window.addEventListener(type, load, { capture: true, passive: true });
    timer = window.setTimeout(load, fallbackDelayMs);
    return () => {
      mounted = false;
      stopWaiting();
    };
  }, []);

  return Toaster ? <Toaster {...props} /> : null;
}
