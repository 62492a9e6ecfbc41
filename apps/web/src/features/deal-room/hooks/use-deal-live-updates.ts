import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { escrowQueryKey } from '@/features/escrow/api/get-escrow.js';
import { useAuth } from '@/lib/auth.js';
import { createServerSentEventParser, type ServerSentEvent } from './parse-server-sent-events.js';

/** 'unavailable': the server will not stream this deal to this user (not theirs, or not found). */
export type LiveUpdatesState = 'connecting' | 'live' | 'reconnecting' | 'unavailable';

/** Pauses before reconnecting after a drop; the last one repeats. */
const reconnectDelaysMs = [1_000, 2_000, 5_000, 10_000];

/**
 * Events closer together than this are answered with one refresh: one change on the server often
 * writes several rows (an audit entry and the escrow rows it moved), each announced on its own.
 */
export const coalesceMs = 150;

/**
 * What an event asks to re-read: the messages, the escrow, or the deal and everything under it
 * (an audit entry, a `resync`, or an event this page does not know).
 */
type Refresh = 'messages' | 'escrow' | 'deal';

function refreshOf(event: ServerSentEvent): Refresh | null {
  if (event.event !== 'deal') return null;
  try {
    const { kind } = JSON.parse(event.data) as { kind?: unknown };
    if (kind === 'message') return 'messages';
    if (kind === 'escrow') return 'escrow';
    return 'deal';
  } catch {
    return 'deal';
  }
}

/**
 * Keeps the deal page current while the other side acts: follows `GET /deals/{id}/events` (fetch
 * streaming, so the Bearer header goes along). A `message` event re-reads the messages (and the
 * bell), an `escrow` event the escrow; any other event everything under the deal's query key (the
 * escrow follows the deal). A burst of
 * events within `coalesceMs` is one refresh, so the page spends its hourly request budget on changes,
 * not on their echoes. After a drop it reconnects with growing pauses, with the session's current
 * token, and refreshes once more, since events may have passed meanwhile. Stops when the page unmounts.
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
    const refreshNow = (due: ReadonlySet<Refresh>) => {
      if (due.has('deal')) {
        // Everything under the deal, messages included; the escrow follows the deal.
        void queryClient.invalidateQueries({ queryKey: ['deals', userId, dealId] });
      } else {
        if (due.has('messages')) {
          void queryClient.invalidateQueries({ queryKey: ['deals', userId, dealId, 'messages'] });
        }
        if (due.has('escrow'))
          void queryClient.invalidateQueries({ queryKey: escrowQueryKey(userId, dealId) });
      }
      if (due.has('deal') || due.has('messages')) {
        void queryClient.invalidateQueries({ queryKey: ['notifications', userId] });
      }
    };
    const pending = new Set<Refresh>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = (what: Refresh) => {
      pending.add(what);
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        const due = new Set(pending);
        pending.clear();
        if (!signal.aborted) refreshNow(due);
      }, coalesceMs);
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
          if (dropped) refresh('deal');
          const reader = response.body.getReader();
          const decoder = new TextDecoder();
          const parser = createServerSentEventParser();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            const events = parser.push(decoder.decode(value, { stream: true }));
            for (const event of events) {
              const what = refreshOf(event);
              if (what) refresh(what);
            }
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
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [dealId, userId, queryClient]);

  return state;
}
