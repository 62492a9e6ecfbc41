import { useEffect } from 'react';

// The spec logs profile and trade read errors to the console; the page also shows them.
export function useConsoleError(label: string, error: Error | null) {
  useEffect(() => {
    if (error) console.error(label, error);
  }, [label, error]);
}
