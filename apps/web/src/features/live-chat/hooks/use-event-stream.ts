import { useEffect, useRef, useState } from 'react';
import { createServerSentEventParser } from '@/features/deal-room/hooks/parse-server-sent-events.js';

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'unavailable';

/** Pauses before reconnecting after a drop; the last one repeats. */
const reconnectDelaysMs = [1_000, 2_000, 5_000, 10_000];

/**
 * Follows a server-sent event stream with fetch (so headers go along, as the deal room does it):
 * `onEvent` gets each event's data; after a drop it reconnects with growing pauses and calls
 * `onEvent(null)` (anything may have changed meanwhile). A 4xx ends it: 'unavailable'.
 * Nothing is followed while `headers` is null.
 */
export function useEventStream(
  url: string,
  headers: Record<string, string> | null,
  onEvent: (data: unknown) => void,
): StreamState {
  const [state, setState] = useState<StreamState>('connecting');
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const key = headers ? JSON.stringify(headers) : null;

  useEffect(() => {
    if (key === null) return;
    const sent = JSON.parse(key) as Record<string, string>;
    const controller = new AbortController();
    let attempt = 0;
    const follow = async (): Promise<void> => {
      while (!controller.signal.aborted) {
        try {
          const response = await fetch(new URL(url, window.location.origin), {
            headers: sent,
            signal: controller.signal,
          });
          if (response.status >= 400 && response.status < 500) {
            setState('unavailable');
            return;
          }
          if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
          setState('live');
          if (attempt > 0) handler.current(null);
          attempt = 0;
          const parser = createServerSentEventParser();
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            for (const event of parser.push(value)) {
              try {
                handler.current(JSON.parse(event.data));
              } catch {
                handler.current(null);
              }
            }
          }
        } catch {
          if (controller.signal.aborted) return;
        }
        setState('reconnecting');
        const delay = reconnectDelaysMs[Math.min(attempt, reconnectDelaysMs.length - 1)];
        attempt += 1;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    };
    void follow();
    return () => controller.abort();
  }, [url, key]);

  return state;
}
