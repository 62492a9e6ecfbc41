import type { DealEventHub } from '../apps/server/src/deal-room/deal-event-hub.js';

/**
 * Resolves once `read()` says the deal is in `status`, and when it learns it as a user of the deal
 * room would: on each event of the deal from the server's deal-event hub (what the deal room's
 * event stream pushes), not by polling. A poll every few milliseconds would itself load the event
 * loop and the database connection the escrow engine works on, and so slow the pass it measures.
 * A check every `fallbackMs` covers a missed notification; `read` runs once at a time.
 */
export function waitForDealStatus(
  hub: Pick<DealEventHub, 'subscribe'>,
  dealId: string,
  status: string,
  read: () => Promise<string>,
  { timeoutMs = 60_000, fallbackMs = 500 }: { timeoutMs?: number; fallbackMs?: number } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    let checking = false;
    let again = false;
    const finish = (error?: unknown) => {
      if (done) return;
      done = true;
      unsubscribe();
      clearInterval(fallback);
      clearTimeout(timer);
      if (error === undefined) resolve();
      else reject(error);
    };
    const check = async () => {
      if (checking) {
        again = true;
        return;
      }
      checking = true;
      try {
        do {
          again = false;
          if ((await read()) === status) return finish();
        } while (again && !done);
      } catch (error) {
        finish(error);
      } finally {
        checking = false;
      }
    };
    const unsubscribe = hub.subscribe(dealId, {
      event: () => void check(),
      end: () => finish(new Error('the deal event hub stopped')),
    });
    const fallback = setInterval(() => void check(), fallbackMs);
    const timer = setTimeout(
      () => finish(new Error(`deal ${dealId} did not reach ${status} in ${timeoutMs} ms`)),
      timeoutMs,
    );
    void check();
  });
}
