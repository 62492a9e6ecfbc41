import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from '@/lib/auth.js';
import { createServerSentEventParser } from './parse-server-sent-events.js';

/** 'unavailable': the server will not stream this deal to this user (not theirs, or not found). */
export type LiveUpdatesState = 'connecting' | 'live' | 'reconnecting' | 'unavailable';

/** Pauses before reconnecting after a drop; the last one repeats. */
const reconnectDelaysMs = [1_000, 2_000, 5_000, 10_000];

/**
 * Keeps the deal page current while the other side acts: follows `GET /deals/{id}/events` (fetch
 * streaming, so the Bearer header goes along) and refreshes everything under the deal's query key on
 * each event. After a drop it reconnects with growing pauses, with the session's current token, and
 * refreshes once more, since events may have passed meanwhile. Stops when the page unmounts.
 */
export function useDealLiveUpdates(dealId: string): LiveUpdatesState {
  const { user, session } = useAuth();
  const userId = user?.id;
  const queryClient = useQueryClient();
  const token = useRef(session?.access_token);
  token.current = session?.access_token;
  const [state, setState] = useState<LiveUpdatesState>('connecting');

  useEffect(() => {
    if (!userId) return;
    const controller = new AbortController();
    const { signal } = controller;
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: ['deals', userId, dealId] });
      void queryClient.invalidateQueries({ queryKey: ['notifications', userId] });
    };

    const follow = async () => {
      let attempt = 0;
      let dropped = false;
      while (!signal.aborted) {
        try {
          const headers = new Headers({ Accept: 'text/event-stream' });
          if (token.current) headers.set('Authorization', `Bearer ${token.current}`);
          const url = new URL(`/api/v1/deals/${encodeURIComponent(dealId)}/events`, window.location.origin);
          const response = await fetch(url, { headers, signal, cache: 'no-store' });
          if (response.status === 403 || response.status === 404) {
            setState('unavailable');
            return;
          }
          if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
          setState('live');
          attempt = 0;
          if (dropped) refresh();
          const reader = response.body.getReader();
          const decoder = new TextDecoder();
          const parser = createServerSentEventParser();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            const events = parser.push(decoder.decode(value, { stream: true }));
            if (events.some((event) => event.event === 'deal')) refresh();
          }
        } catch {
          // A network error or the server going away: reconnect below (unless unmounted).
        }
        if (signal.aborted) return;
        dropped = true;
        setState('reconnecting');
        const delay = reconnectDelaysMs[Math.min(attempt, reconnectDelaysMs.length - 1)];
        attempt += 1;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    };
    void follow();
    return () => controller.abort();
  }, [dealId, userId, queryClient]);

  return state;
}
