import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeEach, vi } from 'vitest';

// Pages load their code on first visit; on a busy two-core CI machine that can take more than the
// default second, so `findBy…` and `waitFor` wait up to five.
configure({ asyncUtilTimeout: 5_000 });

beforeEach(() => {
  // Each test builds its own auth client on the one jsdom page, which the client warns about; in the
  // browser the app builds exactly one. Every other warning still reaches the output.
  const warn = console.warn.bind(console);
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (String(args[0]).includes('Multiple GoTrueClient instances')) return;
    warn(...args);
  });
});

afterEach(() => {
  // Sonner keeps its toasts in a module-level store that would hand them to the next test's Toaster.
  toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});
